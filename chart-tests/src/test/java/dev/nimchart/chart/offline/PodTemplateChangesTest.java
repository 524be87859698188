package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.Examples;
import dev.nimchart.chart.repository.PodTemplateChanges;
import dev.nimchart.chart.repository.TemplateChangeReasons;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartUnderTest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link PodTemplateChanges} finds exactly the pod template fields two renders of a release differ in (so
 * PreviousReleaseUpgradeIT's "no pod replaced without a CHANGELOG reason" sees every change), and
 * {@link TemplateChangeReasons} explains a change only by a matching entry.
 */
class PodTemplateChangesTest {

    private static final Path LWS = Examples.named("multi-node-llama-3.1-405b-lws.yaml");
    private static final Path MPIJOB = Examples.named("multi-node-llama-3.1-405b-mpijob.yaml");

    @Test
    void theSameValuesChangeNoPodTemplate() {
        assertThat(PodTemplateChanges.between(ChartUnderTest.render(LWS), ChartUnderTest.render(LWS))).isEmpty();
    }

    @Test
    void anEnvChangeIsFoundByContainerAndVariableName() {
        RenderedManifest before = ChartUnderTest.render(LWS);
        RenderedManifest after = ChartUnderTest.render(LWS, Map.of("env[0].name", "NIM_UPGRADE_MARKER", "env[0].value", "yes-marker"));
        Map<String, List<String>> changes = PodTemplateChanges.between(before, after);
        assertThat(changes).as("changed templates").isNotEmpty();
        assertThat(changes.values()).allSatisfy(paths -> assertThat(paths).contains("spec.containers[nim].env[NIM_UPGRADE_MARKER]"));
        assertThat(changes.keySet()).allMatch(k -> k.startsWith("LeaderWorkerSet/"));
    }

    @Test
    void anMpiJobWhoseNameFollowsItsSpecIsPairedWithItself() {
        RenderedManifest before = ChartUnderTest.render(MPIJOB);
        RenderedManifest after = ChartUnderTest.render(MPIJOB, Map.of("env[0].name", "NIM_UPGRADE_MARKER", "env[0].value", "yes-marker"));
        Map<String, List<String>> changes = PodTemplateChanges.between(before, after);
        assertThat(changes).as("changed MPIJob templates").isNotEmpty();
        assertThat(changes.values()).as("changed fields, not whole templates added and removed").allSatisfy(paths ->
                assertThat(paths).doesNotContain("(added)", "(removed)"));
    }

    @Test
    void theCommittedReasonsAreThisVersionsChangelogEntries() throws Exception {
        TemplateChangeReasons reasons = TemplateChangeReasons.load();
        assertThat(reasons.notInTheChangelog()).as("template-change-reasons.yaml entries not in this version's CHANGELOG.md").isEmpty();
        assertThat(reasons.unexplained("multi-node-llama-3.1-405b-lws.yaml",
                Map.of("LeaderWorkerSet/x spec.leaderWorkerTemplate.workerTemplate", List.of("spec.containers[nim].env[NIM_UPGRADE_MARKER]"))))
                .as("a change no entry explains").hasSize(1);
    }
}
