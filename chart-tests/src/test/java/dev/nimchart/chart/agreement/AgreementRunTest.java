package dev.nimchart.chart.agreement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.objects.RenderedManifest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** When a refused value counts as judged: only when some object of the rendering holds it. */
class AgreementRunTest {

    private static final RenderedManifest RENDERING = RenderedManifest.parse("""
            apiVersion: v1
            kind: Pod
            metadata:
              name: p
              annotations:
                kueue.x-k8s.io/podset-required-topology: rack
            """);

    @Test
    void aTextValueInNoObjectReachesNoValidator() {
        Map<String, Object> values = Map.of("kueue", Map.of("requiredTopology", "rack", "preferredTopology", "Example.com/rack"));
        assertThat(AgreementRun.reachesNoObject(values, "kueue.preferredTopology", RENDERING)).isTrue();
        assertThat(AgreementRun.reachesNoObject(values, "kueue.requiredTopology", RENDERING)).isFalse();
    }

    @Test
    void aKeyThatIsAbsentOrNotATextIsNeverCountedAsUnreached() {
        Map<String, Object> values = Map.of("kueue", Map.of("queueName", ""), "env", List.of(Map.of("name", "X")));
        assertThat(AgreementRun.reachesNoObject(values, "kueue.preferredTopology", RENDERING)).isFalse();
        assertThat(AgreementRun.reachesNoObject(values, "kueue.queueName", RENDERING)).isFalse();
        assertThat(AgreementRun.reachesNoObject(values, "env", RENDERING)).isFalse();
    }
}
