package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.ChartCopy;
import dev.nimchart.chart.repository.Examples;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.PodTemplate;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartRenderer;
import dev.nimchart.render.ChartUnderTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A chart-version-only upgrade replaces no pod: every example rendered by the chart and by a copy of it that differs
 * only in Chart.yaml's version has the same pod templates (StatefulSet, Deployment, LeaderWorkerSet leader and worker,
 * MPIJob launcher and worker), the same LeaderWorkerSet template and the same MPIJob names (a hash of their spec).
 * Objects that are not pod templates do carry the version (helm.sh/chart), which shows the two renders differ.
 */
class ChartVersionUpgradeTest {

    private static ChartRenderer bumped;
    private static String bumpedVersion;

    @BeforeAll
    static void copyWithAnotherVersion() throws IOException {
        Path copy = ChartCopy.of(ChartUnderTest.chartDir(), "chart-version-bump", p -> false);
        Path chartYaml = copy.resolve("Chart.yaml");
        String text = Files.readString(chartYaml);
        String version = text.lines().filter(l -> l.startsWith("version:")).findFirst().orElseThrow().substring(8).trim();
        bumpedVersion = version + "-bump.1";
        Files.writeString(chartYaml, text.replaceFirst("(?m)^version:.*$", "version: " + bumpedVersion));
        bumped = new ChartRenderer(copy, dev.nimchart.junit.RunSettings.get());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.ALL)
    void podTemplatesIgnoreTheChartVersion(Path file) {
        RenderedManifest before = ChartUnderTest.render(file);
        RenderedManifest after = bumped.render(ChartUnderTest.releaseName(file), ChartUnderTest.NAMESPACE, List.of(file), Map.of());

        assertThat(names(after, "MPIJob")).as("%s: MPIJob names (a hash of their spec)", file.getFileName()).isEqualTo(names(before, "MPIJob"));
        List<PodTemplate> templatesBefore = PodTemplate.of(before);
        List<PodTemplate> templatesAfter = PodTemplate.of(after);
        assertThat(templatesAfter).as("%s: pod templates", file.getFileName()).hasSameSizeAs(templatesBefore).isNotEmpty();
        for (int i = 0; i < templatesBefore.size(); i++) {
            PodTemplate b = templatesBefore.get(i);
            PodTemplate a = templatesAfter.get(i);
            assertThat(a.pod().raw()).as("%s: %s pod template of %s/%s", file.getFileName(), b.role(), b.owner().kind(), b.owner().name())
                    .isEqualTo(b.pod().raw());
            assertThat(a.pod().labels()).as("%s: %s pod labels", file.getFileName(), b.role())
                    .doesNotContainKeys("helm.sh/chart", "app.kubernetes.io/version");
        }
        for (KubeObject lws : before.ofKind("LeaderWorkerSet")) {
            assertThat(after.find("LeaderWorkerSet", lws.name()).orElseThrow().at("spec")).as("%s: LeaderWorkerSet spec", file.getFileName())
                    .isEqualTo(lws.at("spec"));
        }
        KubeObject service = after.ofKind("Service").get(0);
        assertThat(service.labels().get("helm.sh/chart")).as("%s: the renders differ in the chart version", file.getFileName())
                .isEqualTo("nim-llm-" + bumpedVersion).isNotEqualTo(before.ofKind("Service").get(0).labels().get("helm.sh/chart"));
    }

    private static List<String> names(RenderedManifest m, String kind) {
        return m.ofKind(kind).stream().map(KubeObject::name).collect(Collectors.toList());
    }
}
