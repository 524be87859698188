package dev.nimchart.chart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.ChartRefusedException;
import dev.nimchart.CrdSchemaValidator;
import dev.nimchart.FuzzDocument;
import dev.nimchart.FuzzScenario;
import dev.nimchart.KubeObject;
import dev.nimchart.ModelViolation;
import dev.nimchart.NimChart;
import dev.nimchart.RefusalMessage;
import dev.nimchart.RenderedManifest;
import dev.nimchart.StrictModelCheck;
import dev.nimchart.ValuesFuzzer;
import dev.nimchart.ValuesMerger;
import dev.nimchart.ValuesSchemaValidator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Collections;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Values documents generated from values.schema.json (valid and near-valid, fixed seed: {@code -Dnim.fuzz.seed},
 * {@code -Dnim.fuzz.count}) each either render objects the Kubernetes API accepts or are refused with a clear
 * message: a schema error at a key path, or a preflight rule naming the key. Never a template crash, never an invalid
 * object. Every mistake but a null (which may only delete a default) is refused by values.schema.json itself, inside
 * the Kubernetes objects the chart passes through too; pass-through objects made from their Kubernetes definitions
 * render. A failing document is written to {@code target/fuzz-failures/<n>.yaml}.
 */
class ValuesFuzzTest {

    private static final long SEED = Long.getLong("nim.fuzz.seed", 20260601L);
    private static final int COUNT = Integer.getInteger("nim.fuzz.count", 1000);
    private static final Path WORK = Path.of("target", "fuzz");
    private static final Path FAILURES = Path.of("target", "fuzz-failures");
    private static final StrictModelCheck STRICT = new StrictModelCheck()
            .withCustomResourceValidator(CrdSchemaValidator.load()::validate);

    private final ValuesSchemaValidator schema = new ValuesSchemaValidator(NimChart.chartDir());
    private final Map<String, Integer> tally = new ConcurrentSkipListMap<>();

    @Test
    void everyGeneratedDocumentRendersValidObjectsOrIsRefusedClearly() throws IOException {
        resetDirectory(WORK);
        resetDirectory(FAILURES);
        ValuesFuzzer fuzzer = new ValuesFuzzer(NimChart.chartDir(), SEED);
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        long start = System.nanoTime();
        IntStream.range(0, COUNT).parallel().forEach(i -> {
            FuzzDocument doc = fuzzer.document(i);
            Path file = WORK.resolve("fuzz-%04d.yaml".formatted(i));
            write(file, doc.toYaml());
            String problem = problem(doc, file);
            if (problem != null) {
                Path kept = FAILURES.resolve(i + ".yaml");
                write(kept, doc.toYaml() + "# problem:\n#   " + problem.replace("\n", "\n#   ") + "\n");
                failures.add(kept.toAbsolutePath() + ": " + firstLines(problem));
            }
        });
        failures.sort(null);
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.printf("values fuzz: seed %d, %d documents in %d ms (%d ms each): %s%n", SEED, COUNT, millis,
                millis / Math.max(1, COUNT), tally);

        assertThat(failures).as("%d documents crashed a template, rendered an invalid object or were refused unclearly"
                + " (each written under target/fuzz-failures); the first ones:%n%s", failures.size(),
                String.join("\n", failures.subList(0, Math.min(15, failures.size())))).isEmpty();
        assertThat(count("near-valid")).as("near-valid documents").isGreaterThanOrEqualTo(COUNT / 4);
        assertThat(count("refused by the schema")).as("schema refusals").isPositive();
        assertThat(count("refused by the preflight")).as("preflight refusals").isPositive();
        assertThat(count("refused by the schema: a mistake inside a pass-through object"))
                .as("mistakes inside pass-through Kubernetes objects refused by the schema").isGreaterThanOrEqualTo(COUNT / 100);
        assertThat(count("rendered a pass-through object made from its Kubernetes schema"))
                .as("documents with a pass-through object made from its Kubernetes schema that rendered").isGreaterThanOrEqualTo(COUNT / 100);
        if (COUNT >= 1000) {
            for (String workload : FuzzScenario.WORKLOADS) {
                assertThat(count("rendered " + workload)).as("rendered %s documents", workload).isGreaterThanOrEqualTo(10);
            }
            for (String cache : FuzzScenario.CACHES) {
                assertThat(count("rendered cache " + cache)).as("rendered %s caches", cache).isGreaterThanOrEqualTo(10);
            }
            for (String provider : FuzzScenario.PROVIDERS) {
                assertThat(count("rendered multi-node networking " + provider)).as("rendered multi-node %s documents", provider)
                        .isGreaterThanOrEqualTo(5);
            }
        }
    }

    /** What is wrong with the outcome of one document, or null when it rendered valid objects or was refused clearly. */
    private String problem(FuzzDocument doc, Path file) {
        record(doc.nearValid() ? "near-valid" : "valid");
        List<String> schemaProblems = schema.validate(ValuesMerger.mergedValues(NimChart.chartDir(), List.of(file)));
        RenderedManifest manifest;
        try {
            manifest = NimChart.render(file);
        } catch (ChartRefusedException e) {
            return refusalProblem(doc, e.getMessage(), schemaProblems);
        } catch (IllegalArgumentException e) {
            return "the rendered manifest is not valid YAML: " + e.getMessage();
        }
        if (!schemaProblems.isEmpty()) {
            return "Helm rendered values that the schema refuses (the two validators disagree): " + schemaProblems;
        }
        if (doc.nearValid() && !doc.mutationKind().equals("NULL_DEFAULT")) {
            return "values.schema.json accepts a mistake it must refuse (" + doc.mutation() + ")";
        }
        if (manifest.text().contains("<no value>")) {
            return "the manifest prints <no value>";
        }
        var exponent = LargeNumbersTest.EXPONENT_FORM.matcher(manifest.text());
        if (exponent.find()) {
            return "the manifest prints a number in exponent form (" + exponent.group() + ")";
        }
        List<String> violations = new ArrayList<>();
        for (KubeObject o : manifest.objects()) {
            try {
                STRICT.check(o);
            } catch (ModelViolation v) {
                violations.add(v.getMessage());
            }
        }
        if (!violations.isEmpty()) {
            return "invalid objects: " + String.join("\n", violations);
        }
        record("rendered " + doc.workload());
        if (doc.hasKubernetesSchemaSample()) {
            record("rendered a pass-through object made from its Kubernetes schema");
        }
        record("rendered cache " + doc.cache());
        if (doc.workload().equals("leaderworkerset") || doc.workload().equals("mpijob")) {
            record("rendered multi-node networking " + doc.provider());
        }
        return null;
    }

    private String refusalProblem(FuzzDocument doc, String message, List<String> schemaProblems) {
        List<String> crash = RefusalMessage.crashMarkers(message);
        if (!crash.isEmpty()) {
            return "a template crash reached the user " + crash + ": " + message;
        }
        if (!schemaProblems.isEmpty()) {
            record("refused by the schema");
            if (doc.mutationInsidePassThrough()) {
                record("refused by the schema: a mistake inside a pass-through object");
            }
            return RefusalMessage.fromSchema(message) ? null
                    : "the schema refuses these values " + schemaProblems + " but Helm refused them otherwise: " + message;
        }
        if (doc.nearValid() && !doc.mutationKind().equals("NULL_DEFAULT")) {
            return "values.schema.json accepts a mistake it must refuse (" + doc.mutation() + "); the preflight refused it: "
                    + message;
        }
        record("refused by the preflight");
        if (!RefusalMessage.fromPreflight(message)) {
            return "values the schema accepts were refused by something other than the preflight: " + message;
        }
        return RefusalMessage.NAMES_A_KEY.matcher(message).find() ? null : "the refusal names no key: " + message;
    }

    private void record(String outcome) {
        tally.merge(outcome, 1, Integer::sum);
    }

    private int count(String outcome) {
        return tally.getOrDefault(outcome, 0);
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

    private static void resetDirectory(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
        }
        Files.createDirectories(dir);
    }
}
