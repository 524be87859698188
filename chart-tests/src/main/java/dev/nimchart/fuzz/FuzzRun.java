package dev.nimchart.fuzz;

import dev.nimchart.judge.ValuesJudge;
import dev.nimchart.values.FileTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.stream.IntStream;

/**
 * Renders {@code count} values documents of a {@link ValuesFuzzer} seed with a chart and judges each: it renders
 * objects the strict model check accepts, or it is refused clearly (a schema error where the independent schema
 * validator finds one too, else a rule of the chart naming a key; never a template crash). A failing document is kept as
 * {@code <workDir>/fuzz-failures/<n>.yaml} with a header saying what went wrong.
 */
public final class FuzzRun {

    /** The outcome: failures (file and first lines of the problem, sorted) and how many documents ended how. */
    public record Result(long seed, int count, long millis, List<String> failures, Map<String, Integer> tally) {

        public int count(String outcome) {
            return tally.getOrDefault(outcome, 0);
        }

        /** {@code seed S, N documents in M ms: {outcome=n, ...}} */
        public String summary() {
            return "seed %d, %d documents in %d ms (%d ms each): %s".formatted(seed, count, millis,
                    millis / Math.max(1, count), tally);
        }
    }

    /** Every how many documents Helm's refusal of schema-invalid values is cross-checked. */
    public static final int HELM_SAMPLE = 5;

    private final Path chartDir;
    private final ValuesJudge judge;
    private final Path work;
    private final Path failuresDir;
    private final FuzzScenarios scenarios;

    /**
     * Documents that start from the chart's own scenarios ({@link FuzzScenarios#NONE}: empty) go to
     * {@code workDir/fuzz}, failing ones to {@code workDir/fuzz-failures} (both emptied first).
     */
    public FuzzRun(ValuesJudge judge, Path workDir, FuzzScenarios scenarios) {
        this.scenarios = scenarios;
        this.chartDir = judge.chartDir();
        this.judge = judge;
        this.work = workDir.resolve("fuzz");
        this.failuresDir = workDir.resolve("fuzz-failures");
    }

    public Result run(long seed, int count) {
        FileTrees.empty(work);
        FileTrees.empty(failuresDir);
        ValuesFuzzer fuzzer = new ValuesFuzzer(chartDir, seed, scenarios);
        Map<String, Integer> tally = new ConcurrentSkipListMap<>();
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        long start = System.nanoTime();
        IntStream.range(0, count).parallel().forEach(i -> {
            FuzzDocument doc = fuzzer.document(i);
            Path file = work.resolve("fuzz-%04d.yaml".formatted(i));
            write(file, doc.toYaml());
            String problem = problem(doc, file, tally);
            if (problem != null) {
                Path kept = failuresDir.resolve(i + ".yaml");
                write(kept, doc.toYaml() + "# problem:\n#   " + problem.replace("\n", "\n#   ") + "\n");
                failures.add(kept.toAbsolutePath() + ": " + firstLines(problem));
            }
        });
        List<String> sorted = new ArrayList<>(failures);
        sorted.sort(null);
        return new Result(seed, count, (System.nanoTime() - start) / 1_000_000, List.copyOf(sorted), Map.copyOf(tally));
    }

    /**
     * What is wrong with the outcome of one document, or null when it rendered valid objects or was refused clearly
     * (the judge's verdict, plus: a near-valid document's mistake is refused by values.schema.json).
     */
    private String problem(FuzzDocument doc, Path file, Map<String, Integer> tally) {
        record(tally, doc.nearValid() ? "near-valid" : "valid");
        // Helm's own refusal of values the independent validator refuses is cross-checked on every HELM_SAMPLE-th document
        // (those renders carry Helm's schema check, the most expensive step); the others are the validator's alone.
        ValuesJudge.Judgement j = judge.judge(List.of(file), doc.index() % HELM_SAMPLE == 0);
        boolean mustBeRefused = doc.nearValid() && !doc.mutationKind().equals("NULL_DEFAULT");
        if (j.problem() != null) {
            return j.problem();
        }
        switch (j.ending()) {
            case RENDERED -> {
                if (mustBeRefused) {
                    return "values.schema.json accepts a mistake it must refuse (" + doc.mutation() + ")";
                }
                record(tally, "rendered");
                doc.scenario().traits().forEach(trait -> record(tally, "rendered " + trait));
                if (doc.hasKubernetesSchemaSample()) {
                    record(tally, "rendered a pass-through object made from its Kubernetes schema");
                }
            }
            case REFUSED_BY_SCHEMA -> {
                record(tally, "refused by the schema");
                if (doc.mutationInsidePassThrough()) {
                    record(tally, "refused by the schema: a mistake inside a pass-through object");
                }
            }
            case REFUSED_BY_CHART_RULE -> {
                if (!j.schemaProblems().isEmpty()) {
                    return "the schema refuses these values " + j.schemaProblems() + " but Helm refused them otherwise: " + j.message();
                }
                if (mustBeRefused) {
                    return "values.schema.json accepts a mistake it must refuse (" + doc.mutation() + "); a rule of the chart refused it: "
                            + j.message();
                }
                record(tally, "refused by a rule of the chart");
            }
            default -> {
                return "refused by neither the schema nor a rule of the chart: " + j.message();
            }
        }
        return null;
    }

    private static void record(Map<String, Integer> tally, String outcome) {
        tally.merge(outcome, 1, Integer::sum);
    }

    private static String firstLines(String text) {
        return text.lines().limit(3).reduce((a, b) -> a + " | " + b).orElse("");
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
