package dev.nimchart.cluster;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;

/**
 * A script under ci/ run as a process: every line it prints is progress, passed on as it comes; its stdout is also
 * the result. The directory comes from the system property {@value #CI_DIR} (Maven sets it), else ./ci or ../ci.
 */
public final class CiScript {

    public static final String CI_DIR = "nim.ci.dir";
    private static final int KEPT_LINES = 40;

    private CiScript() {
    }

    public static Path ciDir() {
        String configured = System.getProperty(CI_DIR, "");
        List<Path> candidates = configured.isBlank() ? List.of(Path.of("ci"), Path.of("..", "ci")) : List.of(Path.of(configured));
        return candidates.stream().filter(d -> Files.isRegularFile(d.resolve("build-control-plane.sh")))
                .map(Path::toAbsolutePath).map(Path::normalize).findFirst()
                .orElseThrow(() -> new ClusterUnavailableException("cannot find the project's ci/ directory (looked at "
                        + candidates + "); set -D" + CI_DIR + "=<repo>/ci"));
    }

    /** Runs {@code bash ci/<script> args...}; returns stdout, or throws with the last lines of output on failure. */
    public static String run(String script, List<String> args, Consumer<String> progress) {
        List<String> command = new ArrayList<>(List.of("bash", ciDir().resolve(script).toString()));
        command.addAll(args);
        Process process;
        try {
            process = new ProcessBuilder(command).start();
        } catch (IOException e) {
            throw new ClusterUnavailableException("cannot run " + String.join(" ", command) + ": " + e.getMessage(), e);
        }
        Deque<String> tail = new ArrayDeque<>();
        Consumer<String> shown = line -> {
            synchronized (tail) {
                tail.addLast(line);
                if (tail.size() > KEPT_LINES) {
                    tail.removeFirst();
                }
            }
            progress.accept(line);
        };
        Thread stderr = new Thread(() -> forEachLine(process.getErrorStream(), shown), script + "-stderr");
        stderr.start();
        StringBuilder out = new StringBuilder();
        forEachLine(process.getInputStream(), line -> {
            out.append(line).append('\n');
            shown.accept(line);
        });
        try {
            int exit = process.waitFor();
            stderr.join();
            if (exit != 0) {
                throw new ClusterUnavailableException("ci/" + script + " failed (exit " + exit + "):\n"
                        + String.join("\n", tail));
            }
        } catch (InterruptedException e) {
            process.destroy();
            Thread.currentThread().interrupt();
            throw new ClusterUnavailableException("interrupted while running ci/" + script, e);
        }
        return out.toString().trim();
    }

    /** The path of a tool ci/build-tools.sh builds, or finds cached: "helm" or "kubeconform". */
    public static Path builtTool(String tool, Consumer<String> progress) {
        if (BinaryAssets.dir().isPresent()) {
            return BinaryAssets.require(BinaryAssets.dir().get(), tool + "/" + tool);
        }
        String out = run("build-tools.sh", List.of("--print-path", tool), progress);
        return out.lines().map(String::strip).filter(l -> !l.isEmpty()).map(Path::of).filter(Files::isRegularFile)
                .reduce((a, b) -> b)
                .orElseThrow(() -> new IllegalStateException("ci/build-tools.sh printed no path for " + tool + ":\n" + out));
    }

    /** The path of a Python tool ci/install-python-tools.sh installs into its own environment, or finds cached: "checkov". */
    public static Path pythonTool(String tool, Consumer<String> progress) {
        if (BinaryAssets.dir().isPresent()) {
            return BinaryAssets.require(BinaryAssets.dir().get(), tool + "/bin/" + tool);
        }
        String out = run("install-python-tools.sh", List.of("--print-path", tool), progress);
        return out.lines().map(String::strip).filter(l -> !l.isEmpty()).map(Path::of).filter(Files::isRegularFile)
                .reduce((a, b) -> b)
                .orElseThrow(() -> new IllegalStateException("ci/install-python-tools.sh printed no path for " + tool + ":\n" + out));
    }

    private static void forEachLine(java.io.InputStream in, Consumer<String> action) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                action.accept(line);
            }
        } catch (IOException e) {
            action.accept("(output lost: " + e.getMessage() + ")");
        }
    }
}
