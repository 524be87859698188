package dev.nimchart.chart.apiserver;

import dev.nimchart.tiers.Tier;
import dev.nimchart.junit.DynamicChecks;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.tiers.ChartRules;
import dev.nimchart.chart.repository.Example;
import dev.nimchart.chart.repository.NimLlmRules;
import dev.nimchart.chart.repository.PodSecurityExceptions;
import dev.nimchart.chart.repository.RepositoryChart;
import dev.nimchart.cluster.PodSecurityVerdict;
import dev.nimchart.cluster.StoredObjectCheck;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.PodTemplate;
import dev.nimchart.objects.RenderedManifest;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import dev.nimchart.junit.ChartTiers;
import dev.nimchart.sessions.TierSessions;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every example installed with Helm (real release storage) into a namespace of its own that enforces the restricted
 * Pod Security level, and read back from the API server ({@link RefusalInstallIT} has the refused files). The generic
 * checks are the library's ({@code ChartCheck.installTests(Tier.API)}); nim-llm's own (the stored shape, the documented
 * Pod Security exceptions) come in through {@link NimLlmRules}.
 */
@ExtendWith(ChartTiers.class)
public class ExampleInstallIT {

    @TestFactory
    Stream<DynamicNode> everyExampleInstallsAndTheServerStoresWhatHelmApplied(TierSessions tiers) {
        return DynamicChecks.of(RepositoryChart.check().withSessions(tiers).installTests(Tier.API));
    }

    /** nim-llm's rules on an installed example: the stored shape, and exactly the documented Pod Security exceptions. */
    public static void assertStoredRelease(ChartRules.Installed release) {
        Example e = Example.of(release.valuesFile());
        assertStoredShape(e, release.stored());
        for (PodTemplate t : PodTemplate.of(release.stored())) {
            PodSecurityVerdict verdict = PodSecurityVerdict.of(release.api(), release.namespace(), t);
            assertThat(verdict.checks()).as("%s: Pod Security (restricted) of %s: %s", e.name(), t, verdict.message())
                    .containsExactlyInAnyOrderElementsOf(PodSecurityExceptions.expectedChecks(e, t));
        }
    }

    /** The shape the values ask for, on the objects as stored. */
    private static void assertStoredShape(Example e, RenderedManifest stored) {
        List<PodTemplate> templates = Example.modelTemplates(stored);
        assertThat(templates.stream().map(PodTemplate::role).toList()).as("%s: stored pod templates", e.name())
                .isEqualTo(e.templates.stream().map(PodTemplate::role).toList());
        for (PodTemplate t : templates) {
            assertThat(t.gpus(stored)).as("%s: GPUs of %s", e.name(), t).isEqualTo(t.gpuPod() ? e.gpuLimit() : 0);
        }
        List<KubeObject> inference = stored.ofKind("Service").stream()
                .filter(s -> "inference".equals(Example.serviceRole(s))).toList();
        assertThat(inference).as("%s: one inference Service", e.name()).hasSize(1);
        @SuppressWarnings("unchecked")
        Map<String, Object> selector = (Map<String, Object>) inference.get(0).at("spec.selector");
        for (PodTemplate t : templates) {
            assertThat(t.selectedBy(selector)).as("%s: the inference Service selects %s", e.name(), t)
                    .isEqualTo(t.servesApi());
        }
        for (KubeObject claim : stored.ofKind("PersistentVolumeClaim")) {
            assertThat(claim.at("spec.accessModes[0]")).as(e.name()).isEqualTo(e.text("persistence.accessMode"));
            assertThat(StoredObjectCheck.sameScalar(e.text("persistence.size"), claim.at("spec.resources.requests.storage")))
                    .as("%s: claim size", e.name()).isTrue();
            @SuppressWarnings("unchecked")
            Map<String, Object> annotations = (Map<String, Object>) e.values.at("persistence.annotations");
            assertThat(claim.annotations()).as(e.name()).containsAllEntriesOf(annotations);
        }
        for (PodTemplate t : templates) {
            if (List.of("server", "leader").contains(t.role()) && e.flag("startupProbe.enabled")) {
                assertThat(t.nim().at("startupProbe.failureThreshold")).as("%s: %s startup probe", e.name(), t)
                        .isEqualTo(e.integer("startupProbe.failureThreshold"));
            }
        }
    }

}
