package dev.nimchart.fuzz;

import dev.nimchart.checks.ManifestTextCheck;
import dev.nimchart.checks.ModelViolation;
import dev.nimchart.checks.StrictModelCheck;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartRefusedException;
import dev.nimchart.render.ChartRenderer;
import dev.nimchart.render.ChartYaml;
import dev.nimchart.render.LookupStub;
import dev.nimchart.render.RefusalMessage;
import dev.nimchart.values.ValuesMerger;
import dev.nimchart.values.ValuesSchemaValidator;
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
import java.util.stream.Stream;

/**
 * Renders {@code count} values documents of a {@link ValuesFuzzer} seed with a chart and judges each: it renders
 * objects the strict model check accepts, or it is refused clearly (a schema error where the independent schema
 * validator finds one too, else a preflight rule naming a key; never a template crash). A failing document is kept as
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

    private static final String NAMESPACE = "nim";

    private final Path chartDir;
    private final ChartYaml chart;
    private final ChartRenderer renderer;
    private final ValuesSchemaValidator schema;
    private final StrictModelCheck strict;
    private final Path work;
    private final Path failuresDir;

    /** Documents go to {@code workDir/fuzz}, failing ones to {@code workDir/fuzz-failures} (both emptied first). */
    public FuzzRun(Path chartDir, StrictModelCheck strict, Path workDir) {
        this.chartDir = chartDir;
        this.chart = ChartYaml.read(chartDir);
        this.renderer = new ChartRenderer(chartDir);
        this.schema = new ValuesSchemaValidator(chartDir);
        this.strict = strict;
        this.work = workDir.resolve("fuzz");
        this.failuresDir = workDir.resolve("fuzz-failures");
    }

    public Result run(long seed, int count) {
        resetDirectory(work);
        resetDirectory(failuresDir);
        LookupStub.shared();
        ValuesFuzzer fuzzer = new ValuesFuzzer(chartDir, seed);
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

    /** What is wrong with the outcome of one document, or null when it rendered valid objects or was refused clearly. */
    private String problem(FuzzDocument doc, Path file, Map<String, Integer> tally) {
        record(tally, doc.nearValid() ? "near-valid" : "valid");
        List<String> schemaProblems = schema.validate(ValuesMerger.mergedValues(chartDir, List.of(file)));
        RenderedManifest manifest;
        try {
            manifest = renderer.render(ChartRenderer.releaseName(file), NAMESPACE, List.of(file), Map.of());
        } catch (ChartRefusedException e) {
            return refusalProblem(doc, e.getMessage(), schemaProblems, tally);
        } catch (IllegalArgumentException e) {
            return "the rendered manifest is not valid YAML: " + e.getMessage();
        }
        if (!schemaProblems.isEmpty()) {
            return "Helm rendered values that the schema refuses (the two validators disagree): " + schemaProblems;
        }
        if (doc.nearValid() && !doc.mutationKind().equals("NULL_DEFAULT")) {
            return "values.schema.json accepts a mistake it must refuse (" + doc.mutation() + ")";
        }
        var textProblem = ManifestTextCheck.problem(manifest.text());
        if (textProblem.isPresent()) {
            return textProblem.get();
        }
        List<String> violations = new ArrayList<>();
        for (KubeObject o : manifest.objects()) {
            try {
                strict.check(o);
            } catch (ModelViolation v) {
                violations.add(v.getMessage());
            }
        }
        if (!violations.isEmpty()) {
            return "invalid objects: " + String.join("\n", violations);
        }
        record(tally, "rendered " + doc.workload());
        if (doc.hasKubernetesSchemaSample()) {
            record(tally, "rendered a pass-through object made from its Kubernetes schema");
        }
        record(tally, "rendered cache " + doc.cache());
        if (doc.workload().equals("leaderworkerset") || doc.workload().equals("mpijob")) {
            record(tally, "rendered multi-node networking " + doc.provider());
        }
        return null;
    }

    private String refusalProblem(FuzzDocument doc, String message, List<String> schemaProblems, Map<String, Integer> tally) {
        List<String> crash = RefusalMessage.crashMarkers(message);
        if (!crash.isEmpty()) {
            return "a template crash reached the user " + crash + ": " + message;
        }
        if (!schemaProblems.isEmpty()) {
            record(tally, "refused by the schema");
            if (doc.mutationInsidePassThrough()) {
                record(tally, "refused by the schema: a mistake inside a pass-through object");
            }
            return RefusalMessage.fromSchema(message) ? null
                    : "the schema refuses these values " + schemaProblems + " but Helm refused them otherwise: " + message;
        }
        if (doc.nearValid() && !doc.mutationKind().equals("NULL_DEFAULT")) {
            return "values.schema.json accepts a mistake it must refuse (" + doc.mutation() + "); the preflight refused it: "
                    + message;
        }
        record(tally, "refused by the preflight");
        if (!RefusalMessage.fromPreflight(message, chart)) {
            return "values the schema accepts were refused by something other than the preflight: " + message;
        }
        return RefusalMessage.NAMES_A_KEY.matcher(message).find() ? null : "the refusal names no key: " + message;
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

    private static void resetDirectory(Path dir) {
        try {
            if (Files.isDirectory(dir)) {
                try (Stream<Path> files = Files.list(dir)) {
                    for (Path f : files.toList()) {
                        Files.delete(f);
                    }
                }
            }
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
