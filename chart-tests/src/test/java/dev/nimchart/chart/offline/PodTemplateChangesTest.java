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

    /** The pod template changes of the example when its values add one environment variable, NIM_UPGRADE_MARKER. */
    private static Map<String, List<String>> changesOfAnAddedVariable(Path example) {
        RenderedManifest before = ChartUnderTest.render(example);
        RenderedManifest after = ChartUnderTest.render(example, Map.of("env[0].name", "NIM_UPGRADE_MARKER", "env[0].value", "yes-marker"));
        return PodTemplateChanges.between(before, after);
    }

    @Test
    void anEnvChangeIsFoundByContainerAndVariableName() {
        Map<String, List<String>> changes = changesOfAnAddedVariable(LWS);
        assertThat(changes).as("changed templates").isNotEmpty();
        assertThat(changes.values()).allSatisfy(paths -> assertThat(paths).contains("spec.containers[nim].env[NIM_UPGRADE_MARKER]"));
        assertThat(changes.keySet()).allMatch(k -> k.startsWith("LeaderWorkerSet/"));
    }

    @Test
    void anMpiJobWhoseNameFollowsItsSpecIsPairedWithItself() {
        Map<String, List<String>> changes = changesOfAnAddedVariable(MPIJOB);
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
