package dev.nimchart.chart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.objects.KubeObject;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.values.ValuesDoc;
import dev.nimchart.values.ValuesMerger;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** values.yaml documents every value where it is defined, and both READMEs' tables are generated from it. */
class ReadmeParametersTest {

    private static final Path VALUES = ChartUnderTest.chartDir().resolve("values.yaml");
    private static final Path README = ChartUnderTest.chartDir().resolve("../../README.md").normalize();
    /** What {@code helm show readme} and Artifact Hub show. */
    private static final Path CHART_README = ChartUnderTest.chartDir().resolve("README.md");

    @Test
    void theReadmeParametersTableIsGeneratedFromValuesYaml() throws IOException {
        String readme = Files.readString(README);
        assertThat(ValuesDoc.updatedReadme(readme, VALUES)).as("README.md is stale: run ci/readme-parameters.sh")
                .isEqualTo(readme);
    }

    @Test
    void theChartReadmeParametersTableIsGeneratedFromValuesYaml() throws IOException {
        String readme = Files.readString(CHART_README);
        assertThat(ValuesDoc.updatedReadme(readme, VALUES)).as("charts/nim-llm/README.md is stale: run ci/readme-parameters.sh")
                .isEqualTo(readme);
        assertThat(readme).as("the chart README holds the table").contains("| `image.repository` |");
    }

    @Test
    void everyDocumentedKeyExistsInValuesYaml() {
        KubeObject values = new KubeObject(ValuesMerger.loadYaml(VALUES));
        for (ValuesDoc.Param p : ValuesDoc.params(VALUES)) {
            Object value = p.key().contains("[]") ? null : values.at(ValuesDoc.keyPath(p.key()));
            if (p.extra()) {
                assertThat(value).as("@extra %s is for keys values.yaml does not set: make it an @param", p.key()).isNull();
            } else {
                assertThat(value).as("@param %s names a key of values.yaml", p.key()).isNotNull();
            }
        }
    }

    @Test
    void eachKeyIsDocumentedOnce() {
        List<String> keys = ValuesDoc.params(VALUES).stream().map(ValuesDoc.Param::key).toList();
        assertThat(keys).as("@param/@extra keys").doesNotHaveDuplicates();
    }

    @Test
    void everyValueIsDocumentedWhereItIsDefined() {
        List<String> documented = ValuesDoc.params(VALUES).stream().map(ValuesDoc.Param::key).toList();
        List<String> undocumented = new ArrayList<>();
        leaves("", ValuesMerger.loadYaml(VALUES), documented, undocumented);
        assertThat(undocumented).as("values.yaml keys without an @param line (on the key or a parent)").isEmpty();
    }

    private static void leaves(String prefix, Map<String, Object> map, List<String> documented, List<String> undocumented) {
        for (Map.Entry<String, Object> e : map.entrySet()) {
            String key = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
            if (documented.contains(key)) {
                continue;
            }
            if (e.getValue() instanceof Map<?, ?> child && !child.isEmpty()) {
                @SuppressWarnings("unchecked")
                Map<String, Object> m = (Map<String, Object>) child;
                leaves(key, m, documented, undocumented);
            } else {
                undocumented.add(key);
            }
        }
    }
}
