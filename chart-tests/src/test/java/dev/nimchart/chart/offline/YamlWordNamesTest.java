package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.Examples;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.render.ChartUnderTest;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Words YAML 1.1 reads as booleans or null ({@code no}, {@code on}, {@code off}, {@code y}) are valid object names: as
 * fullnameOverride they must reach every object as the string they are, never as a boolean.
 */
class YamlWordNamesTest {

    @ParameterizedTest(name = "{0} as fullnameOverride, {1}")
    @CsvSource({"no,single-node-production-features.yaml", "on,multi-node-llama-3.1-405b-lws.yaml",
            "off,multi-node-llama-3.1-405b-mpijob.yaml", "y,single-node-minimal.yaml"})
    void everyObjectNameStaysAString(String word, String example) {
        var manifest = ChartUnderTest.render(Examples.named(example), Map.of("fullnameOverride", word));
        assertThat(manifest.objects()).isNotEmpty();
        for (KubeObject o : manifest.objects()) {
            Object name = ((Map<?, ?>) o.raw().get("metadata")).get("name");
            assertThat(name).as("%s name", o.kind()).isInstanceOf(String.class);
        }
        assertThat(manifest.objects()).as("objects named after the release")
                .anyMatch(o -> word.equals(((Map<?, ?>) o.raw().get("metadata")).get("name")));
    }
}
