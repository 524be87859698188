package dev.nimchart.chart.agreement;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Ray's own start-up port check ({@code ray start --head --port P}, the real command of the pinned Ray of
 * {@code ci/install-ray.sh}, run up to the point where it would start its node: {@code ray-port-check.py}), for the
 * head ports the chart renders. Verdicts are kept per port; one Python process answers a batch.
 */
final class RayPortCheck {

    private final Path python;
    private final Path script;
    private final Map<Integer, String> verdicts = new ConcurrentHashMap<>();

    private RayPortCheck(Path python, Path script) {
        this.python = python;
        this.script = script;
    }

    /** The check with the Ray of {@code rayDir}, or empty (with the reason) when that directory holds no Ray. */
    static RayPortCheck in(Path rayDir, Path workDir) {
        Path python = rayDir.resolve("bin/python");
        if (!Files.isExecutable(python) || !Files.isExecutable(rayDir.resolve("bin/ray"))) {
            return null;
        }
        try (InputStream in = RayPortCheck.class.getResourceAsStream("ray-port-check.py")) {
            Path script = Files.createDirectories(workDir).resolve("ray-port-check.py");
            Files.write(script, in.readAllBytes());
            return new RayPortCheck(python, script);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Asks Ray about the ports it has not been asked about yet, in one process. */
    void ask(Collection<Integer> ports) {
        List<Integer> fresh = ports.stream().distinct().filter(p -> !verdicts.containsKey(p)).toList();
        if (fresh.isEmpty()) {
            return;
        }
        try {
            Process p = new ProcessBuilder(python.toString(), script.toString(), fresh.toString())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IllegalStateException("ray-port-check.py failed for " + fresh + ": " + new String(out, StandardCharsets.UTF_8));
            }
            String text = new String(out, StandardCharsets.UTF_8).strip();
            String last = text.lines().reduce((a, b) -> b).orElse("{}");
            Map<String, Object> answers = JsonMapper.shared().readValue(last, new TypeReference<Map<String, Object>>() { });
            answers.forEach((port, verdict) -> verdicts.put(Integer.parseInt(port), verdict.toString()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Ray's refusal of a head port ({@code refused: ...}, {@code error: ...}), or empty when Ray starts with it. */
    Optional<String> refusal(int port) {
        ask(List.of(port));
        String verdict = verdicts.get(port);
        return "ok".equals(verdict) ? Optional.empty() : Optional.of(verdict);
    }

    /** Every verdict so far, by port. */
    Map<Integer, String> verdicts() {
        return new java.util.TreeMap<>(verdicts);
    }
}
