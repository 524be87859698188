package dev.nimchart.chart.offline;

import dev.nimchart.tiers.Tier;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nimchart.ChartCheck;
import dev.nimchart.Verdict;
import dev.nimchart.fuzz.FuzzDocument;
import dev.nimchart.fuzz.FuzzRun;
import dev.nimchart.fuzz.FuzzScenario;
import dev.nimchart.fuzz.FuzzScenarios;
import dev.nimchart.fuzz.ValuesFuzzer;
import dev.nimchart.judge.ValuesJudge;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartRenderer;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.values.ValuesMerger;
import dev.nimchart.values.ValuesSchemaValidator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The library's door on an umbrella chart: examples/charts/web-cache, a web Deployment and Service whose Chart.yaml
 * depends on the kv-cache subchart vendored in its charts/ (alias {@code cache}, condition {@code cache.enabled}),
 * globals both read, and a draft-07 values.schema.json in each. The harness must judge it as Helm does: the merged
 * values (the subchart's defaults under its alias, globals copied down, a switched-off subchart left out), each schema
 * applied to the part it governs in its own dialect, and the subchart's objects checked strictly.
 */
class SubchartTest {

    static Path webCache() {
        return ChartUnderTest.chartDir().toAbsolutePath().getParent().getParent().resolve("examples/charts/web-cache");
    }

    @Test
    void everyCiFilePassesEveryInvalidFileIsRefusedWithItsTextAndTheFuzzRunPasses(@TempDir Path work) {
        Path chart = webCache();
        List<Verdict> verdicts = ChartCheck.of(chart, dev.nimchart.junit.RunSettings.get()).withValues(chart.resolve("ci")).withWorkDir(work).verdicts(Tier.OFFLINE);
        assertThat(verdicts).as("three ci/ files, three refusals (two by the subchart's schema, one by the parent's), the fuzz run")
                .extracting(v -> Path.of(v.subject()).getFileName().toString())
                .containsExactlyInAnyOrder("default-values.yaml", "no-cache-values.yaml", "tuned-cache-values.yaml",
                        "cache-snapshot-triple.yaml", "cache-too-many-replicas.yaml", "tls-without-host.yaml",
                        ChartCheck.of(chart, dev.nimchart.junit.RunSettings.get()).fuzzSubject());
        assertThat(verdicts).allSatisfy(v -> assertThat(v.reason()).as(v.subject()).isNull());
    }

    @Test
    void theFuzzDocumentsReachTheSubchartsValuesAndItsMistakesAreRefused(@TempDir Path work) {
        int count = ChartCheck.DEFAULT_FUZZ_COUNT;
        FuzzRun.Result run = new FuzzRun(new ValuesJudge(webCache(), dev.nimchart.junit.RunSettings.get()), work, FuzzScenarios.NONE).run(ChartCheck.DEFAULT_FUZZ_SEED, count);
        assertThat(run.failures()).as(run.summary()).isEmpty();
        assertThat(run.count("rendered")).as("documents rendered: %s", run.summary()).isGreaterThan(count / 4);
        ValuesFuzzer fuzzer = new ValuesFuzzer(webCache(), ChartCheck.DEFAULT_FUZZ_SEED, FuzzScenarios.NONE);
        List<FuzzDocument> documents = java.util.stream.IntStream.range(0, count).mapToObj(fuzzer::document).toList();
        assertThat(documents).as("no scenario in this chart's rules: documents start empty")
                .allSatisfy(d -> assertThat(d.scenario()).isEqualTo(FuzzScenario.NONE));
        assertThat(documents).as("keys of kv-cache's schema set under its alias")
                .anySatisfy(d -> assertThat(d.overlays()).anySatisfy(o -> assertThat(o).startsWith("cache.")));
        // Every near-valid document is refused (else the run fails), so these mistakes were refused by kv-cache's schema.
        assertThat(documents.stream().filter(d -> d.nearValid() && d.mutationPath().startsWith("cache.")
                && !d.mutationKind().equals("NULL_DEFAULT"))).as("mistakes inside kv-cache's values").hasSizeGreaterThan(10);
    }

    @Test
    void aMistakeInTheSubchartsValuesIsCaughtByTheIndependentValidatorAtItsKey(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("lots-values.yaml"), "cache:\n  maxMemory: lots\n");
        assertThat(new ValuesSchemaValidator(webCache()).validate(ValuesMerger.mergedValues(webCache(), List.of(file))))
                .as("kv-cache's schema applied to the values under its alias").singleElement().asString()
                .startsWith("cache.maxMemory: ");
        ValuesJudge.Judgement j = new ValuesJudge(webCache(), dev.nimchart.junit.RunSettings.get()).judge(file);
        assertThat(j.ending()).isEqualTo(ValuesJudge.Ending.REFUSED_BY_SCHEMA);
        assertThat(j.problem()).as("Helm and the independent validator agree").isNull();
        assertThat(j.message()).contains("cache:\n- at '/maxMemory': 'lots' does not match pattern");
    }

    @Test
    void aSubchartRefusalMustBeExpectedUnderTheSubchartsHeading(@TempDir Path dir) throws IOException {
        Path invalid = Files.createDirectories(dir.resolve("invalid"));
        // Right text, but the parent's schema has no rule at /replicas: the key is cache.replicas, which Helm prints
        // under "cache:"; a judge that took the pointer from the top of the values would look for replicas instead.
        Files.writeString(invalid.resolve("replicas-values.yaml"), "# expect-error: at '/replicas': maximum: got 9, want 5\n"
                + "cache:\n  replicas: 9\n");
        Files.writeString(invalid.resolve("web-replicas-values.yaml"), "# expect-error: at '/replicas': minimum: got -1, want 0\n"
                + "replicas: -1\n");
        List<Verdict> verdicts = ChartCheck.of(webCache(), dev.nimchart.junit.RunSettings.get()).withValues(dir).withFuzz(0, ChartCheck.DEFAULT_FUZZ_SEED).verdicts(Tier.OFFLINE);
        assertThat(verdicts).hasSize(2).allSatisfy(v -> assertThat(v.reason()).as(v.subject()).isNull());
    }

    @Test
    void aSubchartSwitchedOffByItsConditionIsNeitherValidatedNorRendered(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("off-values.yaml"), "cache:\n  enabled: false\n  replicas: 99\n");
        ValuesJudge.Judgement j = new ValuesJudge(webCache(), dev.nimchart.junit.RunSettings.get()).judge(file);
        assertThat(j.ending()).as("Helm renders it: kv-cache's schema (replicas at most 5) is not applied").isEqualTo(ValuesJudge.Ending.RENDERED);
        assertThat(j.problem()).isNull();
        assertThat(j.schemaProblems()).isEmpty();
        assertThat(j.manifest().ofKind("StatefulSet")).as("no kv-cache objects").isEmpty();
        assertThat(j.values().get("cache")).as("no kv-cache defaults, no globals under its key")
                .isEqualTo(Map.of("enabled", false, "replicas", 99));
    }

    /** Helm's own .Values in the parent and in the subchart, printed by a template added to a copy of the chart. */
    @Test
    void theMergedValuesAreHelmsForTheParentAndTheSubchart(@TempDir Path dir) throws IOException {
        Path copy = copyChart(webCache(), dir.resolve("web-cache"));
        String dump = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: values-of-%s\ndata:\n  values: {{ toJson .Values | quote }}\n";
        Files.writeString(copy.resolve("templates/values-dump.yaml"), dump.formatted("parent"));
        Files.writeString(copy.resolve("charts/kv-cache/templates/values-dump.yaml"), dump.formatted("subchart"));
        // The merge alone: without the schemas a null may delete even a key they require.
        Files.delete(copy.resolve("values.schema.json"));
        Files.delete(copy.resolve("charts/kv-cache/values.schema.json"));
        List<Path> files = new ArrayList<>();
        try (Stream<Path> ci = Files.list(webCache().resolve("ci"))) {
            ci.filter(f -> f.toString().endsWith(".yaml")).sorted().forEach(files::add);
        }
        // A user's null deletes the parent's override and kv-cache's default alike; a global's null reaches the subchart.
        files.add(Files.writeString(dir.resolve("nulls-values.yaml"), "global:\n  podLabels: null\ncache:\n  replicas: null\n"
                + "  evictionPolicy: null\n"));
        // Where one side of a global holds a map and the other no map, Helm leaves the subchart's own in place.
        files.add(Files.writeString(dir.resolve("global-conflicts-values.yaml"), "cache:\n  global:\n    podLabels: \"\"\n"
                + "    imageRegistry:\n      mirror: registry.local\n"));
        ChartRenderer renderer = new ChartRenderer(copy, dev.nimchart.junit.RunSettings.get());
        for (Path file : files) {
            RenderedManifest manifest = renderer.render("dump", ValuesJudge.NAMESPACE, List.of(file), Map.of());
            Map<String, Object> ours = ValuesMerger.mergedValues(webCache(), List.of(file));
            assertThat(json(ours)).as("the parent's values for %s", file.getFileName()).isEqualTo(helmValues(manifest, "parent"));
            boolean enabled = manifest.find("ConfigMap", "values-of-subchart").isPresent();
            assertThat(enabled).as("kv-cache rendered for %s", file.getFileName()).isEqualTo(!file.getFileName().toString().startsWith("no-cache"));
            if (enabled) {
                assertThat(json(ours.get("cache"))).as("kv-cache's values for %s", file.getFileName()).isEqualTo(helmValues(manifest, "subchart"));
            }
        }
    }

    @Test
    void theSubchartsDraft07SchemaIsValidatedAsDraft07(@TempDir Path dir) throws IOException {
        // kv-cache's snapshot is a pair in draft-07's list form of "items"; under 2020-12 that schema does not even
        // compile ("items" must be one schema), and "additionalItems" is no keyword there.
        Path file = Files.writeString(dir.resolve("snapshot-values.yaml"), "cache:\n  snapshot: [900, ten]\n");
        assertThat(new ValuesSchemaValidator(webCache()).validate(ValuesMerger.mergedValues(webCache(), List.of(file))))
                .as("the second item's own schema").singleElement().asString().startsWith("cache.snapshot[1]: ");
    }

    @Test
    void keywordsBesideARefFollowTheDialectTheSchemaNames(@TempDir Path dir) throws IOException {
        String schema = "{%s\"definitions\": {\"port\": {\"type\": \"integer\"}},"
                + " \"properties\": {\"port\": {\"$ref\": \"#/definitions/port\", \"maximum\": 1024}}}";
        Path values = Files.writeString(dir.resolve("high-port-values.yaml"), "port: 8080\n");
        Path draft07 = tinyChart(dir.resolve("draft07"), schema.formatted("\"$schema\": \"http://json-schema.org/draft-07/schema#\", "));
        Path latest = tinyChart(dir.resolve("latest"), schema.formatted(""));
        ValuesJudge.Judgement under07 = new ValuesJudge(draft07, dev.nimchart.junit.RunSettings.get()).judge(values);
        ValuesJudge.Judgement under2020 = new ValuesJudge(latest, dev.nimchart.junit.RunSettings.get()).judge(values);
        assertThat(under07.schemaProblems()).as("draft-07 ignores keywords beside a $ref").isEmpty();
        assertThat(under07.ending()).isEqualTo(ValuesJudge.Ending.RENDERED);
        assertThat(under07.problem()).as("Helm renders it too").isNull();
        assertThat(under2020.schemaProblems()).as("2020-12 (no $schema) applies them").singleElement().asString().startsWith("port: ");
        assertThat(under2020.ending()).isEqualTo(ValuesJudge.Ending.REFUSED_BY_SCHEMA);
        assertThat(under2020.problem()).as("Helm refuses it too").isNull();
    }

    @Test
    void aDialectTheValidatorCannotLoadIsNamedWithItsFix(@TempDir Path dir) throws IOException {
        Path chart = tinyChart(dir.resolve("own-dialect"), "{\"$schema\": \"https://example.com/our-dialect\", \"type\": \"object\"}");
        assertThatThrownBy(() -> new ValuesJudge(chart, dev.nimchart.junit.RunSettings.get())).hasMessageContaining("values.schema.json")
                .hasMessageContaining("$schema").hasMessageContaining("https://example.com/our-dialect")
                .hasMessageContaining("draft-07");
    }

    @Test
    void theSubchartsObjectsAreCheckedStrictly(@TempDir Path dir) throws IOException {
        Path copy = copyChart(webCache(), dir.resolve("web-cache"));
        Path statefulSet = copy.resolve("charts/kv-cache/templates/statefulset.yaml");
        Files.writeString(statefulSet, Files.readString(statefulSet).replace("  serviceName:", "  serviceNme:"));
        Path file = Files.writeString(dir.resolve("plain-values.yaml"), "{}\n");
        assertThat(new ValuesJudge(copy, dev.nimchart.junit.RunSettings.get()).judge(file).problem()).as("a misspelt field in the subchart's StatefulSet")
                .contains("StatefulSet").contains("serviceNme");
    }

    private static JsonNode json(Object values) {
        return JsonMapper.shared().valueToTree(values);
    }

    private static JsonNode helmValues(RenderedManifest manifest, String which) {
        KubeObject dump = manifest.find("ConfigMap", "values-of-" + which).orElseThrow();
        return JsonMapper.shared().readTree(String.valueOf(dump.at("data.values")));
    }

    private static Path tinyChart(Path dir, String schema) throws IOException {
        Files.createDirectories(dir.resolve("templates"));
        Files.writeString(dir.resolve("Chart.yaml"), "apiVersion: v2\nname: tiny\nversion: 0.1.0\n");
        Files.writeString(dir.resolve("values.yaml"), "port: 80\n");
        Files.writeString(dir.resolve("values.schema.json"), schema);
        Files.writeString(dir.resolve("templates/configmap.yaml"),
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: tiny\ndata:\n  port: {{ .Values.port | quote }}\n");
        return dir;
    }

    private static Path copyChart(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path source : files.sorted(Comparator.naturalOrder()).toList()) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target);
                }
            }
        }
        return to;
    }
}
