package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nimchart.chart.repository.Examples;
import dev.nimchart.chart.repository.LiveObjects;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartRefusedException;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.render.LookupStub;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

/**
 * The preflight against a live release (its objects served to the chart's lookups by the {@link LookupStub}): each
 * change Kubernetes would refuse on a live object is refused before anything changes, naming the key and the way out;
 * unchanged or changeable values render. The orphaned-cache refusals apply to upgrades only (helm template renders as
 * an install), so {@code UpgradeSafetyIT} proves those on a cluster.
 */
class LiveUpgradeRefusalTest {

    private static final Path STATEFUL = Examples.named("single-node-llama-70b-8gpu-pvc.yaml");
    private static final Path DEPLOYMENT = Examples.named("single-node-deployment-static-volume.yaml");

    @AfterEach
    void forgetLiveObjects() {
        ChartUnderTest.renderer().lookups().clearObjects(ChartUnderTest.NAMESPACE);
    }

    /** The cases are a table, {@code live-upgrade-refusals.csv} beside this class (a change is {@code key=value;...}). */
    @ParameterizedTest(name = "{0} {1}")
    @CsvFileSource(resources = "/dev/nimchart/chart/offline/live-upgrade-refusals.csv", delimiter = '|', quoteCharacter = '`')
    void aChangeKubernetesRefusesOnALiveObjectIsRefusedFirst(String exampleName, String changed, String names, String wayOut) {
        Path example = Examples.named(exampleName);
        Map<String, String> change = new java.util.TreeMap<>();
        for (String keyValue : changed.split(";")) {
            change.put(keyValue.substring(0, keyValue.indexOf('=')), keyValue.substring(keyValue.indexOf('=') + 1));
        }
        install(example, Map.of());
        assertThatThrownBy(() -> ChartUnderTest.render(example, change)).isInstanceOf(ChartRefusedException.class)
                .hasMessageContaining(names).hasMessageContaining(wayOut).message().doesNotContain("nil pointer", "<no value>");
    }

    /** With fullnameOverride fixed, nameOverride changes only the selector labels, which are immutable. */
    @Test
    void nameOverrideUnderAFixedFullnameIsRefusedForTheSelector() {
        Map<String, String> fixed = Map.of("fullnameOverride", "llama");
        install(STATEFUL, fixed);
        assertThatThrownBy(() -> ChartUnderTest.render(STATEFUL, Map.of("fullnameOverride", "llama", "nameOverride", "other")))
                .hasMessageContaining("nameOverride changes the selector of the live StatefulSet llama");
        forgetLiveObjects();
        install(DEPLOYMENT, fixed);
        assertThatThrownBy(() -> ChartUnderTest.render(DEPLOYMENT, Map.of("fullnameOverride", "llama", "nameOverride", "other")))
                .hasMessageContaining("nameOverride changes the selector of the live Deployment llama");
    }

    @Test
    void theChartsOwnClaimAsExistingClaimNeedsTheKeepAnnotationFirst() {
        install(DEPLOYMENT, Map.of("persistence.annotations.helm\\.sh/resource-policy", ""));
        String claim = ChartUnderTest.releaseName(DEPLOYMENT) + "-nim-llm-cache";
        assertThatThrownBy(() -> ChartUnderTest.render(DEPLOYMENT, Map.of("persistence.existingClaim", claim)))
                .hasMessageContaining("persistence.existingClaim is " + claim + ", the claim this release made itself")
                .hasMessageContaining("kubectl annotate pvc " + claim);
        forgetLiveObjects();
        install(DEPLOYMENT, Map.of());
        assertThat(ChartUnderTest.render(DEPLOYMENT, Map.of("persistence.existingClaim", claim)).find("PersistentVolumeClaim", claim))
                .as("annotated keep, Helm leaves it and the pods mount it").isEmpty();
    }

    @Test
    void unchangedAndChangeableValuesRender() {
        for (Path example : java.util.List.of(STATEFUL, DEPLOYMENT)) {
            install(example, Map.of());
            assertThat(ChartUnderTest.render(example).objects()).isNotEmpty();
            assertThat(ChartUnderTest.render(example, Map.of("replicaCount", "3", "startupProbe.failureThreshold", "900")).objects())
                    .as("%s: replicas and probes are not part of anything immutable", example).isNotEmpty();
            forgetLiveObjects();
        }
        install(STATEFUL, Map.of("persistence.size", "300Gi"));
        ChartUnderTest.renderer().lookups().putObject(resized(ChartUnderTest.render(STATEFUL)));
        assertThat(ChartUnderTest.render(STATEFUL, Map.of("persistence.size", "307200Mi")).objects())
                .as("a size written another way is the same size").isNotEmpty();
    }

    private static void install(Path example, Map<String, String> values) {
        RenderedManifest installed = ChartUnderTest.render(example, values);
        LiveObjects.install(installed, ChartUnderTest.releaseName(example));
    }

    /** The StatefulSet as the API server stores a 300Gi template: the quantity in its canonical form. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> resized(RenderedManifest m) {
        Map<String, Object> sts = LiveObjects.live(m.ofKind("StatefulSet").get(0), ChartUnderTest.releaseName(STATEFUL));
        Map<String, Object> template = ((java.util.List<Map<String, Object>>) ((Map<String, Object>) sts.get("spec")).get("volumeClaimTemplates")).get(0);
        ((Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) template.get("spec")).get("resources")).get("requests")).put("storage", "300Gi");
        return sts;
    }
}
