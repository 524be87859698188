package dev.nimchart.startup;

import dev.nimchart.render.ChartRefusedException;
import dev.nimchart.render.TestHookRenderer;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.startup.PodGroupRun.Server;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The GPU check's command ({@code ci/gpu-check.sh}): renders a single-node values file's serving pod and runs it as the
 * kubelet and runc would ({@link ServingPodRun}), with a real GPU engine ({@code gpu-engine.py}: PyTorch loads a model
 * with random weights from the cache onto the GPU, JIT-compiles a Triton kernel and a torch.compile'd forward pass) run
 * by {@code --engine PYTHON}; without {@code --engine}, the start-up tier's stand-in in the engine's place (what
 * {@code mvn verify} runs). Prints time to Ready, the chat completion's tokens per second and what the pod wrote.
 *
 * <p>Usage: {@code GpuCheck --chart DIR --values FILE [--engine PYTHON] [--results DIR] [--ready-timeout SECONDS]}.
 * Exit codes: 0 every check passed, 1 a check failed, 2 the chart refused the values or the arguments are wrong.
 */
public final class GpuCheck {

    private GpuCheck() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out));
    }

    /** Runs the check; returns the exit code. */
    public static int run(String[] args, PrintStream out) {
        Path chart = null;
        Path values = null;
        Path python = null;
        Path results = Path.of("target", "gpu-check");
        int readySeconds = 900;
        for (int i = 0; i < args.length; i++) {
            // An option's value; none (Maven drops an empty argument) when the next word is an option itself.
            String value = i + 1 < args.length && !args[i + 1].startsWith("--") ? args[i + 1] : null;
            if (value == null && !args[i].equals("--engine")) {
                out.println("gpu-check: " + args[i] + " needs a value");
                return 2;
            }
            switch (args[i]) {
                case "--chart" -> chart = Path.of(value);
                case "--values" -> values = Path.of(value);
                case "--engine" -> python = value == null || value.isEmpty() ? null : Path.of(value);
                case "--results" -> results = Path.of(value);
                case "--ready-timeout" -> readySeconds = Integer.parseInt(value);
                default -> {
                    out.println("gpu-check: unknown argument " + args[i]
                            + "; usage: --chart DIR --values FILE [--engine PYTHON] [--results DIR] [--ready-timeout SECONDS]");
                    return 2;
                }
            }
            if (value != null) {
                i++;
            }
        }
        if (chart == null || values == null) {
            out.println("gpu-check: --chart and --values are required");
            return 2;
        }
        RenderedManifest manifest;
        try {
            manifest = TestHookRenderer.of(chart).render("gpu-check", "gpu-check", List.of(values.toAbsolutePath()), Map.of());
        } catch (ChartRefusedException e) {
            out.println("gpu-check: the chart refuses " + values + ":\n" + e.getMessage());
            return 2;
        }
        try {
            Path work = Files.createDirectories(results.toAbsolutePath());
            Server server = python == null ? Server.STANDIN : new Server(engine(python, work), null);
            out.println("gpu-check: " + values + " with " + (python == null ? "the start-up tier's stand-in (no GPU engine)"
                    : "the GPU engine gpu-engine.py on " + python));
            ServingPodRun.Report report = ServingPodRun.run(manifest, work.resolve("pod"), server, Duration.ofSeconds(readySeconds));
            out.print(report.text());
            out.println(report.passed() ? "gpu-check: PASSED" : "gpu-check: FAILED");
            return report.passed() ? 0 : 1;
        } catch (IllegalArgumentException e) {
            out.println("gpu-check: " + e.getMessage());
            return 2;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
    }

    /** gpu-engine.py with the given Python as its interpreter. */
    static Path engine(Path python, Path work) throws IOException {
        Path target = PodGroupRun.withInterpreter("gpu-engine.py", work.resolve("gpu-engine.py"), python.toAbsolutePath());
        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxr-xr-x"));
        return target;
    }
}
