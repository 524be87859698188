package dev.nimchart.chart.offline;

import dev.nimchart.tiers.Tier;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.ChartCheck;
import dev.nimchart.tiers.ChartRules;
import dev.nimchart.Verdict;
import dev.nimchart.fuzz.FuzzRun;
import dev.nimchart.fuzz.FuzzScenario;
import dev.nimchart.fuzz.FuzzScenarios;
import dev.nimchart.judge.ValuesJudge;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.values.ValuesMerger;
import dev.nimchart.values.ValuesSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The fuzz run on a chart that is not nim-llm: examples/charts/schema-web, a web chart of our own with a values schema
 * of its own (no GPU, its keys none of nim-llm's), checked through the door with its chart-testing values files and no
 * chart rules. Its fuzz documents are drawn from its own schema only: every key they hold is one the schema describes
 * (but the one misspelt key of an UNKNOWN_KEY mistake), and a chart's scenario comes in only through its rules.
 */
class AnyChartFuzzTest {

    private static final long SEED = 20261125L;
    private static final int COUNT = 120;

    static Path schemaWeb() {
        return ChartUnderTest.chartDir().toAbsolutePath().getParent().getParent().resolve("examples/charts/schema-web");
    }

    @Test
    void theFuzzRunOfAChartWithItsOwnSchemaPassesAndItsDocumentsHoldOnlyItsKeys() {
        Path chart = schemaWeb();
        Path work = Path.of("target", "any-chart-fuzz").toAbsolutePath();
        List<Verdict> verdicts = ChartCheck.of(chart, dev.nimchart.junit.RunSettings.get()).withValues(chart.resolve("ci")).withFuzz(COUNT, SEED).withWorkDir(work).verdicts(Tier.OFFLINE);

        assertThat(verdicts).as("one verdict per ci/ values file (4, and 2 in ci/invalid/) and the fuzz row").hasSize(7)
                .allSatisfy(v -> assertThat(v.reason()).as(v.subject()).isNull());
        List<Path> documents = fuzzDocuments(work);
        assertThat(documents).as("the run's documents").hasSize(COUNT);
        ValuesSchema schema = ValuesSchema.load(chart);
        for (Path document : documents) {
            String text = read(document);
            assertThat(text).as(document.toString()).contains("# scenario: none (an empty document");
            assertThat(foreignKeys(schema, text)).as("keys of %s that schema-web's schema does not describe:%n%s", document, text)
                    .isEmpty();
        }
    }

    @Test
    void theRunRendersAndRefusesDocumentsOfThatChartByItsSchemaAndByItsTemplatesRules() {
        FuzzRun.Result result = new FuzzRun(new ValuesJudge(schemaWeb(), dev.nimchart.junit.RunSettings.get()), Path.of("target", "any-chart-fuzz-run"), FuzzScenarios.NONE).run(SEED, COUNT);

        assertThat(result.failures()).as(result.summary()).isEmpty();
        assertThat(result.count("rendered")).as("documents that rendered: %s", result.summary()).isGreaterThanOrEqualTo(COUNT / 4);
        assertThat(result.count("refused by the schema")).as("schema refusals: %s", result.summary()).isPositive();
        assertThat(result.count("refused by a rule of the chart"))
                .as("refusals by the required and the fail of its templates (tls.enabled without tls.secretName, a nodePort on"
                        + " a ClusterIP Service): %s", result.summary()).isPositive();
    }

    /** The key check above fails when a key of nim-llm's gets into a document: here through a scenario of the rules. */
    @Test
    void aScenarioComesInOnlyThroughTheChartsRulesAndItsForeignKeysAreFound() {
        Path chart = schemaWeb();
        Path work = Path.of("target", "any-chart-fuzz-scenario").toAbsolutePath();
        ChartRules gpuScenario = new ChartRules() {
            @Override
            public FuzzScenario fuzzScenario(Random random) {
                return new FuzzScenario("one GPU", List.of("gpu"), Map.of("replicaCount", 1,
                        "resources", Map.of("limits", Map.of("nvidia.com/gpu", 1))));
            }
        };
        List<Verdict> verdicts = ChartCheck.of(chart, dev.nimchart.junit.RunSettings.get()).withValues(chart.resolve("ci")).withRules(gpuScenario).withFuzz(10, SEED).withWorkDir(work)
                .verdicts(Tier.OFFLINE);

        assertThat(verdicts).as("the ci/ files and the fuzz row").hasSize(7);
        ValuesSchema schema = ValuesSchema.load(chart);
        assertThat(fuzzDocuments(work)).hasSize(10).allSatisfy(document -> {
            assertThat(read(document)).contains("# scenario: one GPU");
            assertThat(foreignKeys(schema, read(document))).as(document.toString()).contains("replicaCount", "resources");
        });
    }

    /**
     * The key paths of a fuzz document (maps descended, list items as {@code []}) that the schema does not describe,
     * in an object that allows no other keys; the misspelt key of an UNKNOWN_KEY mistake (named in the header) is the
     * one allowed.
     */
    static Set<String> foreignKeys(ValuesSchema schema, String document) {
        String mistake = document.lines().filter(l -> l.startsWith("# mutation: UNKNOWN_KEY at ")).findFirst()
                .map(l -> l.substring("# mutation: UNKNOWN_KEY at ".length(), l.indexOf(": ", "# mutation: UNKNOWN_KEY at ".length())))
                .orElse(null);
        Set<String> out = new TreeSet<>();
        Path file;
        try {
            file = Files.createTempFile("fuzz-document", ".yaml");
            Files.writeString(file, document);
            walk(schema, ValuesMerger.loadYaml(file), schema.root(), "", mistake, out);
            Files.delete(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static void walk(ValuesSchema schema, Object value, Map<String, Object> node, String path, String mistake, Set<String> out) {
        Map<String, Object> s = schema.resolve(node);
        if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> {
                String child = path.isEmpty() ? String.valueOf(k) : path + "." + k;
                Map<String, Object> childSchema = schema.valueSchema(s, String.valueOf(k));
                if (childSchema != null) {
                    walk(schema, v, childSchema, child, mistake, out);
                } else if (Boolean.FALSE.equals(s.get("additionalProperties")) && !child.replaceAll("\\[\\d+]", "[]")
                        .equals(mistake == null ? null : mistake.replaceAll("\\[\\d+]", "[]"))) {
                    out.add(child);
                }
            });
        } else if (value instanceof List<?> list && s.get("items") instanceof Map<?, ?> items) {
            list.forEach(item -> walk(schema, item, (Map<String, Object>) items, path + "[]", mistake, out));
        }
    }

    private static List<Path> fuzzDocuments(Path work) {
        try (Stream<Path> files = Files.list(work.resolve("fuzz"))) {
            return files.filter(f -> f.getFileName().toString().endsWith(".yaml")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
