package dev.nimchart.lint;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.json.JsonMapper;

/** Runs a linter's command and returns its standard output (its exit status says only whether it found something). */
final class Processes {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private Processes() {
    }

    /** The directory of the manifest files (they are written to one): where a linter runs. */
    static Path directoryOf(Map<String, Path> manifests) {
        return manifests.values().iterator().next().toAbsolutePath().getParent();
    }

    /** The linter's standard output, parsed as JSON (a list or an object). */
    static Object json(List<String> command, Path workDir, int timeoutSeconds) {
        return JSON.readValue(output(command, workDir, timeoutSeconds), Object.class);
    }

    static String output(List<String> command, Path workDir, int timeoutSeconds) {
        try {
            Path err = Files.createTempFile(workDir, "stderr", ".txt");
            Process p = new ProcessBuilder(command).directory(workDir.toFile()).redirectError(err.toFile()).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(command.get(0) + " did not finish within " + timeoutSeconds + " s");
            }
            String stdout = new String(out, StandardCharsets.UTF_8);
            if (stdout.isBlank()) {
                throw new IllegalStateException(String.join(" ", command) + " printed nothing (exit " + p.exitValue() + "): "
                        + Files.readString(err).lines().limit(10).reduce("", (a, b) -> a + "\n  " + b));
            }
            return stdout;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + command.get(0) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command.get(0), e);
        }
    }
}
