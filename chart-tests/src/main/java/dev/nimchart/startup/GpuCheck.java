package dev.nimchart.startup;

import dev.nimchart.render.ChartRefusedException;
import dev.nimchart.render.TestHookRenderer;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.values.FileTrees;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The GPU check's command ({@code ci/gpu-check.sh}): renders a single-node values file's serving pod and writes its
 * bundle ({@link ServingPodRun#bundle}: the pod's runtime plan, the sandbox, the executor, the GPU engine
 * {@code gpu-engine.py} and the stand-in, and {@code run}); with {@code --bundle DIR} that is all (carry DIR to a GPU host
 * without Java or a network and run {@code DIR/run} as root there); without it the bundle goes to
 * {@code RESULTS/bundle} and runs here: with {@code --engine PYTHON} the GPU engine on that Python (it needs a GPU),
 * without it the start-up tier's stand-in in the engine's place. Prints time to Ready, the chat completion's tokens per
 * second and what the pod wrote.
 *
 * <p>Usage: {@code GpuCheck --chart DIR --values FILE [--bundle DIR | [--engine PYTHON] [--results DIR]] [--ready-timeout SECONDS]}.
 * Exit codes: 0 every check passed (or the bundle was written), 1 a check failed, 2 the chart refused the values or the
 * arguments are wrong, 3 a GPU but no Python that runs the engine.
 */
public final class GpuCheck {

    private GpuCheck() {
    }

    public static void main(String[] args) {
        System.exit(run(dev.nimchart.settings.SettingsFromProperties.fromSystemProperties(), args, System.out));
    }

    /** Runs the check with these settings (where Helm's lookups go; results default to {@code gpu-check/} of the work directory); returns the exit code. */
    public static int run(dev.nimchart.settings.Settings settings, String[] args, PrintStream out) {
        Path chart = null;
        Path values = null;
        Path python = null;
        Path bundle = null;
        Path results = settings.workDir().resolve("gpu-check");
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
                case "--bundle" -> bundle = Path.of(value);
                case "--results" -> results = Path.of(value);
                case "--ready-timeout" -> readySeconds = Integer.parseInt(value);
                default -> {
                    out.println("gpu-check: unknown argument " + args[i] + "; usage: --chart DIR --values FILE [--bundle DIR | [--engine PYTHON]"
                            + " [--results DIR]] [--ready-timeout SECONDS]");
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
            manifest = TestHookRenderer.of(chart, settings).render("gpu-check", "gpu-check", List.of(values.toAbsolutePath()), Map.of());
        } catch (ChartRefusedException e) {
            out.println("gpu-check: the chart refuses " + values + ":\n" + e.getMessage());
            return 2;
        }
        try {
            Path dir = ServingPodRun.bundle(manifest, bundle != null ? bundle : results.resolve("bundle"), values.getFileName().toString());
            if (bundle != null) {
                out.printf("gpu-check: the bundle of %s is in %s (%.1f MiB): carry it to the GPU host and run %s as root there%n", values,
                        dir, FileTrees.size(dir) / 1048576.0, dir.resolve(ServingPodRun.RUN));
                return 0;
            }
            out.println("gpu-check: " + values + " with " + (python == null ? "the start-up tier's stand-in (no GPU engine)"
                    : "the GPU engine gpu-engine.py on " + python));
            List<String> runArgs = new ArrayList<>(List.of("--ready-timeout", Integer.toString(readySeconds)));
            if (python == null) {
                runArgs.add("--standin");
            }
            ServingPodRun.Report report = ServingPodRun.execute(dir, runArgs,
                    python == null ? Map.of() : Map.of("NIM_GPU_PYTHON", python.toAbsolutePath().toString()), List.of());
            out.print(report.text());
            return report.passed() ? 0 : "none".equals(report.mode()) ? 3 : 1;
        } catch (IllegalArgumentException e) {
            out.println("gpu-check: " + e.getMessage());
            return 2;
        } catch (java.io.UncheckedIOException e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
    }
}
