package dev.nimchart.tools.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import tools.jackson.databind.json.JsonMapper;

/**
 * The GPU check's figures, from the {@code result.json} files that {@code DIR/run} writes on a GPU host (ci/gpu-check.sh
 * --bundle), carried back and given to {@code ci/benchmark.sh --gpu-results DIR}: per GPU and values file, the whole
 * run, the time to Ready, the engine's own start and the chat completion's tokens per second. Only a run that passed
 * with the real GPU engine counts; a stand-in's or a failed run's file is named in the report and recorded as nothing.
 * Each figure's measure names the card and the values file, so the record says what it was measured on.
 */
final class GpuCheckFigures {

    private final Report report;

    GpuCheckFigures(Report report) {
        this.report = report;
    }

    /** One passed GPU run, as the figures need it. */
    record GpuRun(String gpu, String driver, String values, String versions, double runSeconds, double readySeconds,
                  double engineReadySeconds, double tokensPerSecond) {

        String measure() {
            return gpu + ", " + values;
        }
    }

    void run(Path resultsDir) {
        report.line("");
        report.line("## GPU check");
        report.line("");
        List<Path> files = jsonFiles(resultsDir);
        if (files.isEmpty()) {
            report.line("Not measured in this run: `ci/benchmark.sh --gpu-results DIR` records the result.json files that `DIR/run`"
                    + " (ci/gpu-check.sh --bundle) wrote on a GPU host.");
            return;
        }
        for (Path file : files) {
            String why = null;
            GpuRun run = null;
            try {
                run = parse(Files.readString(file));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (IllegalArgumentException e) {
                why = e.getMessage();
            }
            if (run == null) {
                report.line("- " + file.getFileName() + ": not recorded (" + why + ")");
                continue;
            }
            report.line(String.format(Locale.ROOT, "- %s on %s (driver %s; %s): the whole run %.1f s, Ready after %.1f s (the engine ready"
                    + " after %.1f s of it), the chat completion %.1f tokens/s", run.values(), run.gpu(), run.driver(), run.versions(),
                    run.runSeconds(), run.readySeconds(), run.engineReadySeconds(), run.tokensPerSecond()));
            report.figure("gpu-check-run", run.measure(), run.runSeconds(), "s");
            report.figure("gpu-check-ready", run.measure(), run.readySeconds(), "s");
            report.figure("gpu-check-engine-ready", run.measure(), run.engineReadySeconds(), "s");
            report.figure("gpu-check-tokens-per-second", run.measure(), run.tokensPerSecond(), "tokens/s");
        }
    }

    private static List<Path> jsonFiles(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A result.json's figures; IllegalArgumentException with the reason when it is not a passed run of the GPU engine. */
    @SuppressWarnings("unchecked")
    static GpuRun parse(String json) {
        Map<String, Object> r = JsonMapper.shared().readValue(json, Map.class);
        if (!"engine".equals(r.get("mode"))) {
            throw new IllegalArgumentException("it ran " + (r.get("mode") == null ? "nothing" : "the " + r.get("mode")) + ", not the GPU engine");
        }
        if (!Boolean.TRUE.equals(r.get("passed"))) {
            throw new IllegalArgumentException("it failed: " + r.get("failure"));
        }
        List<String> missing = new ArrayList<>();
        for (String key : List.of("gpu", "values", "runSeconds", "timeToReadySeconds", "tokensPerSecond", "engineTimings")) {
            if (r.get(key) == null) {
                missing.add(key);
            }
        }
        Map<String, Object> engine = r.get("engineTimings") instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
        if (!(engine.get("ready_s") instanceof Number)) {
            missing.add("engineTimings.ready_s");
        }
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("it lacks " + String.join(", ", missing) + ": made by an older DIR/run");
        }
        return new GpuRun(cardName(String.valueOf(r.get("gpu"))), String.valueOf(r.get("driver")), String.valueOf(r.get("values")),
                String.valueOf(r.get("versions")), number(r, "runSeconds"), number(r, "timeToReadySeconds"),
                ((Number) engine.get("ready_s")).doubleValue(), number(r, "tokensPerSecond"));
    }

    /** The card's name from nvidia-smi -L's line: {@code GPU 0: NVIDIA H200 (UUID: GPU-...)} is {@code NVIDIA H200}. */
    static String cardName(String smiLine) {
        return smiLine.replaceFirst("^GPU \\d+:\\s*", "").replaceFirst("\\s*\\(UUID:[^)]*\\)\\s*$", "").trim();
    }

    private static double number(Map<String, Object> r, String key) {
        if (r.get(key) instanceof Number n) {
            return n.doubleValue();
        }
        throw new IllegalArgumentException(key + " is not a number: " + r.get(key));
    }
}
