package dev.nimchart.values;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nimchart.objects.KubeObject;
import dev.nimchart.render.ChartRenderer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which subcharts Helm renders, as {@link ChartTree#enabled} decides it, against Helm itself: a parent with a subchart
 * switched by tags, one by a list of conditions (the first that holds a boolean wins), one under an alias whose own
 * values.yaml switches it off, one vendored but not declared, and a grandchild switched by a condition below its
 * parent's key.
 */
class ChartTreeTest {

    @TempDir
    Path dir;

    private Path parent() throws IOException {
        Path top = dir.resolve("top");
        chart(top, "top", """
                dependencies:
                  - {name: tagged, version: 0.1.0, tags: [front]}
                  - {name: conditioned, version: 0.1.0, condition: "conditioned.choice,conditioned.enabled"}
                  - {name: quiet, version: 0.1.0, alias: hush, condition: hush.enabled}
                """, "conditioned:\n  choice: maybe\n  enabled: true\n");
        chart(top.resolve("charts/tagged"), "tagged", "", "");
        chart(top.resolve("charts/conditioned"), "conditioned", """
                dependencies:
                  - {name: grandchild, version: 0.1.0, condition: grandchild.enabled}
                """, "");
        chart(top.resolve("charts/conditioned/charts/grandchild"), "grandchild", "", "enabled: true\n");
        chart(top.resolve("charts/quiet"), "quiet", "", "enabled: false\n");
        chart(top.resolve("charts/undeclared"), "undeclared", "", "");
        return top;
    }

    private static void chart(Path dir, String name, String chartYamlTail, String values) throws IOException {
        Files.createDirectories(dir.resolve("templates"));
        Files.writeString(dir.resolve("Chart.yaml"), "apiVersion: v2\nname: " + name + "\nversion: 0.1.0\n" + chartYamlTail);
        Files.writeString(dir.resolve("values.yaml"), values);
        Files.writeString(dir.resolve("templates/configmap.yaml"),
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Chart.Name }}\n");
    }

    /** The charts whose ConfigMap Helm renders (a subchart's .Chart.Name is its alias). */
    private static Set<String> helmRenders(Path chart, Path values) {
        return new ChartRenderer(chart, dev.nimchart.junit.RunSettings.get()).render("tree", "nim", List.of(values), Map.of()).objects().stream()
                .map(KubeObject::name).collect(Collectors.toSet());
    }

    private static Set<String> weRender(Path chart, Path values) {
        ChartTree tree = ChartTree.load(chart);
        return tree.enabled(ValuesMerger.loadYaml(values)).stream().map(p -> p.chart().name()).collect(Collectors.toSet());
    }

    @Test
    void theSubchartsItSwitchesOnAreHelms() throws IOException {
        Path chart = parent();
        Map<String, String> cases = Map.of(
                "defaults", "{}\n",
                "tag-off", "tags:\n  front: false\n",
                "tag-on-alias-on", "tags:\n  front: true\nhush:\n  enabled: true\n",
                "second-condition-off", "conditioned:\n  enabled: false\n",
                "first-condition-wins", "conditioned:\n  choice: true\n  enabled: false\n",
                "grandchild-off", "conditioned:\n  grandchild:\n    enabled: false\n");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            Path values = Files.writeString(dir.resolve(c.getKey() + ".yaml"), c.getValue());
            assertThat(weRender(chart, values)).as(c.getKey()).isEqualTo(helmRenders(chart, values));
        }
        assertThat(weRender(chart, dir.resolve("defaults.yaml"))).as("the defaults")
                .containsExactlyInAnyOrder("top", "tagged", "conditioned", "grandchild", "undeclared");
    }

    @Test
    void aGrandchildsValuesLiveBelowItsParentsKey() throws IOException {
        ChartTree tree = ChartTree.load(parent());
        assertThat(tree.keysOf("grandchild")).contains(List.of("conditioned", "grandchild"));
        assertThat(tree.keysOf("hush")).contains(List.of("hush"));
        assertThat(tree.keysOf("top")).contains(List.of());
    }

    @Test
    void aPackagedSubchartIsRefusedNamingHowToUnpackIt() throws IOException {
        Path chart = parent();
        Files.writeString(chart.resolve("charts/cache-0.1.0.tgz"), "not really an archive");
        assertThatThrownBy(() -> ChartTree.load(chart)).hasMessageContaining("cache-0.1.0.tgz").hasMessageContaining("tar -xzf");
    }
}
