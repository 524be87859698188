package dev.nimchart.values;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nimchart.objects.StrictYaml;
import dev.nimchart.render.ChartRenderer;
import dev.nimchart.render.FixtureChart;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ValuesMergerTest {

    private static Map<String, Object> yaml(String text) {
        return StrictYaml.loader().load(text);
    }

    @Test
    void keysYamlReadsAsNumbersOrBooleansAreTheirTextAsHelmReadsThem(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("ports.yaml"), "tcp:\n  8080: default/web:80\n  true: on\nlist:\n  - 1: one\n");

        Map<String, Object> loaded = ValuesMerger.loadYaml(file);

        assertThat(loaded.get("tcp")).isEqualTo(Map.of("8080", "default/web:80", "true", true));
        assertThat(loaded.get("list")).isEqualTo(List.of(Map.of("1", "one")));
    }

    /** Helm's merge of the values {@code overrides} over {@code defaults} (YAML) is {@code expected}. */
    private static void assertMerged(String defaults, String overrides, String expected) {
        assertThat(ValuesMerger.merge(yaml(defaults), yaml(overrides))).as("%s over %s", overrides, defaults).isEqualTo(yaml(expected));
    }

    @Test
    void nullOverrideDeletesTheDefault() {
        assertMerged("resources: {limits: {nvidia.com/gpu: 1}}\nprobe: {enabled: true, path: /ready}",
                "resources: null\nprobe: {path: null}",
                "probe: {enabled: true}");
    }

    @Test
    void nullForAKeyTheDefaultsLackStaysNullAsInHelm() {
        assertMerged("image: {tag: a}", "bogus: null\nimage: {bogus: null}", "image: {tag: a, bogus: null}\nbogus: null");
    }

    @Test
    void nestedMapsMergeKeyByKey() {
        assertMerged("multiNode: {enabled: false, workers: 1, mpiJob: {workerAnnotations: {a: '1'}}}",
                "multiNode: {enabled: true, mpiJob: {workerAnnotations: {b: '2'}}}",
                "multiNode: {enabled: true, workers: 1, mpiJob: {workerAnnotations: {a: '1', b: '2'}}}");
    }

    @Test
    void listsReplaceWhole() {
        assertMerged("env: [{name: A, value: '1'}, {name: B, value: '2'}]",
                "env: [{name: C, value: '3'}]",
                "env: [{name: C, value: '3'}]");
    }

    @Test
    void emptyMapOverrideKeepsTheDefaults() {
        assertMerged("nodeSelector: {gpu: h100}", "nodeSelector: {}", "nodeSelector: {gpu: h100}");
    }

    @Test
    void scalarReplacesMapAndMapReplacesScalar() {
        assertMerged("a: {x: 1}\nb: text", "a: 5\nb: {y: 2}", "a: 5\nb: {y: 2}");
    }

    @Test
    @SuppressWarnings("unchecked")
    void inputsAreNotModified() {
        Map<String, Object> defaults = yaml("a: {x: 1, list: [1]}\nb: 2");
        Map<String, Object> overrides = yaml("a: {x: 9, y: 3}\nb: null");
        Map<String, Object> defaultsBefore = yaml("a: {x: 1, list: [1]}\nb: 2");

        Map<String, Object> merged = ValuesMerger.merge(defaults, overrides);
        ((List<Object>) ((Map<String, Object>) merged.get("a")).get("list")).add(2);

        assertThat(defaults).isEqualTo(defaultsBefore);
        assertThat(overrides).isEqualTo(yaml("a: {x: 9, y: 3}\nb: null"));
    }

    /** The image values {@link ValuesMerger#mergedValues} computes and the image Helm renders for these files. */
    private static Map.Entry<Object, Object> imageFromMergerAndHelm(Path dir, String... files) throws Exception {
        List<Path> paths = new ArrayList<>();
        for (int i = 0; i < files.length; i++) {
            paths.add(Files.writeString(dir.resolve("values-" + i + ".yaml"), files[i]));
        }
        Object merged = ValuesMerger.mergedValues(FixtureChart.dir(), paths).get("image");
        Object rendered = new ChartRenderer(FixtureChart.dir(), dev.nimchart.junit.RunSettings.get()).render("demo", "default", paths, Map.of())
                .one("Deployment").at("spec.template.spec.containers[0].image");
        return Map.entry(merged, rendered);
    }

    @Test
    void laterFileRefillsWhatAnEarlierFileNulledOverTheChartDefaults(@TempDir Path dir) throws Exception {
        Map.Entry<Object, Object> image = imageFromMergerAndHelm(dir, "image: null\n", "image:\n  tag: \"2.0\"\n");

        assertThat(image.getKey()).isEqualTo(yaml("repository: registry.example/fixture\ntag: \"2.0\""));
        assertThat(image.getValue()).as("Helm agrees").isEqualTo("registry.example/fixture:2.0");
    }

    @Test
    void laterFileNullDeletesTheChartDefaultNotOnlyTheEarlierFilesValue(@TempDir Path dir) throws Exception {
        Map.Entry<Object, Object> image = imageFromMergerAndHelm(dir, "image:\n  tag: \"2.0\"\n", "image:\n  tag: null\n");

        assertThat(image.getKey()).isEqualTo(yaml("repository: registry.example/fixture"));
        assertThat(image.getValue()).as("Helm agrees").isEqualTo("registry.example/fixture:");
    }

    @Test
    void loadYamlRefusesDuplicateKeysNamingTheFile(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("dup.yaml"), "model:\n  name: a\n  name: b\n");

        assertThatThrownBy(() -> ValuesMerger.loadYaml(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(file.toString())
                .hasMessageContaining("found duplicate key name");
    }

    @Test
    void loadYamlReadsAnEmptyFileAsNoValues(@TempDir Path dir) throws Exception {
        assertThat(ValuesMerger.loadYaml(Files.writeString(dir.resolve("empty.yaml"), "# nothing\n"))).isEmpty();
    }
}
