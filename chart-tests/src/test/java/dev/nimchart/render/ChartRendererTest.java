package dev.nimchart.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChartRendererTest {

    private final ChartRenderer renderer = new ChartRenderer(FixtureChart.dir(), dev.nimchart.junit.RunSettings.get());

    @Test
    void rendersTheChartWithItsDefaults() {
        RenderedManifest manifest = renderer.render("demo", "inference", List.of(), Map.of());

        assertThat(manifest.objects()).extracting(KubeObject::toString)
                .containsExactlyInAnyOrder("Deployment/demo-fixture", "Service/demo-fixture");
        KubeObject deployment = manifest.one("Deployment");
        assertThat(deployment.namespace()).isEqualTo("inference");
        assertThat(deployment.at("spec.replicas")).isEqualTo(1);
        assertThat(manifest.text()).contains("# Source: fixture/templates/deployment.yaml");
    }

    @Test
    void valuesFilesApplyInOrderAndSetValuesComeLast(@TempDir Path dir) throws Exception {
        Path first = Files.writeString(dir.resolve("first.yaml"), "replicaCount: 2\nimage:\n  tag: \"2.0\"\n");
        Path second = Files.writeString(dir.resolve("second.yaml"), "replicaCount: 3\n");

        KubeObject deployment = renderer.render("demo", "default", List.of(first, second), Map.of("image.tag", "3.0"))
                .one("Deployment");

        assertThat(deployment.at("spec.replicas")).isEqualTo(3);
        assertThat(deployment.at("spec.template.spec.containers[0].image")).isEqualTo("registry.example/fixture:3.0");
    }

    @Test
    void aReleaseRendersWithItsNameNamespaceFilesAndSetsAndOnlyOfItsOwnChart(@TempDir Path dir) throws Exception {
        Path values = Files.writeString(dir.resolve("values.yaml"), "replicaCount: 2\n");
        Release release = new Release(FixtureChart.dir(), "demo", "inference", List.of(values), Map.of("image.tag", "3.0"));

        KubeObject deployment = renderer.render(release).one("Deployment");

        assertThat(deployment.name()).isEqualTo("demo-fixture");
        assertThat(deployment.namespace()).isEqualTo("inference");
        assertThat(deployment.at("spec.replicas")).isEqualTo(2);
        assertThat(deployment.at("spec.template.spec.containers[0].image")).isEqualTo("registry.example/fixture:3.0");
        assertThatThrownBy(() -> renderer.render(release.ofChart(dir)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is of the chart " + dir);
    }

    @Test
    void schemaViolationComesBackWithHelmsTextNamingTheKey() {
        assertThatThrownBy(() -> renderer.template("demo", "default", List.of(), Map.of("multiNode.workers", "0")))
                .isInstanceOf(ChartRefusedException.class)
                .hasMessageContaining("values don't meet the specifications of the schema")
                .hasMessageContaining("- at '/multiNode/workers': minimum: got 0, want 1");
    }

    @Test
    void templateFailMessageComesThroughWithoutTheCliHint() {
        assertThatThrownBy(() -> renderer.template("demo", "default", List.of(), Map.of("mode", "bad")))
                .isInstanceOf(ChartRefusedException.class)
                .hasMessage("execution error at (fixture/templates/deployment.yaml:2:4): "
                        + "mode: \"bad\" is not supported; set mode to \"ok\"");
    }
}
