package dev.nimchart.chart.startup;

import dev.nimchart.tiers.Tier;
import dev.nimchart.junit.DynamicChecks;
import dev.nimchart.settings.SettingsFromProperties;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.controllers.ReconciledExampleIT;
import dev.nimchart.chart.repository.Example;
import dev.nimchart.chart.repository.Examples;
import dev.nimchart.chart.repository.Reconciled;
import dev.nimchart.chart.startup.StartupIT.Installed;
import dev.nimchart.sessions.ControllerSession;
import dev.nimchart.junit.ControllerTier;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.startup.KubeletStartupProbe;
import dev.nimchart.startup.PodGroupRun.PodRun;
import dev.nimchart.startup.PodGroupRun;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import dev.nimchart.chart.repository.NimLlmRules;
import dev.nimchart.chart.repository.RepositoryChart;
import dev.nimchart.junit.ChartTiers;
import dev.nimchart.sessions.TierSessions;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.json.JsonMapper;

/**
 * The start-up tier for groups that form a Ray cluster (NIM 2.x and 3.x): the pods the controllers reconciled run on
 * this machine as in {@link StartupIT} (own network namespace and pod IP, /etc/hosts from the headless Services, uid
 * 1000, the kubelet's environment), and the stand-in for the image's {@code nim-serve-ray} runs the real Ray
 * ({@code ci/install-ray.sh}, pinned): the leader a Ray head on the chart's port, each worker a Ray worker joining the
 * address the chart gave it. What Ray itself reports about the cluster is the evidence.
 */
@ExtendWith({ControllerTier.class, ChartTiers.class})
class RayStartupIT {

    static final Path REPORT_DIR = StartupIT.REPORT_DIR.resolve("ray");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * Every example whose groups form a Ray cluster, through the library's door ({@code ChartCheck.tierTests(Tier.STARTUP)},
     * {@code dev.nimchart.tiers.startup}): the tier starts the workers first (each one's startup probe fails with no head
     * to join), then the heads, requires them Ready within clusterStartTimeout, each worker's startup probe passing once
     * it joined, and Ray's GCS holding exactly each group's pod IPs, alive; nim-llm's rules ({@code NimLlmStartup}) then
     * hold each node to its pod's GPUs and each pod to its Ray role and its own environment.
     */
    @TestFactory
    Stream<DynamicNode> everyGroupFormsOneRayClusterOfExactlyItsPodsAndTheLeaderIsReadyOnlyThen(TierSessions tiers) {
        Set<Path> withRay = Examples.multiNodeWithRay().map(f -> f.toAbsolutePath().normalize()).collect(Collectors.toSet());
        return DynamicChecks.of(RepositoryChart.check().withSessions(tiers).withRules(new NimLlmRules(f -> withRay.contains(f.toAbsolutePath().normalize())))
                .withReconcileTimeout(ReconciledExampleIT.RECONCILE_TIMEOUT).tierTests(Tier.STARTUP));
    }

    /**
     * A group whose worker never comes: the leader's Ray head runs and its server answers, but it never becomes Ready,
     * and its startup probe ends it (the kubelet restarts it, the LeaderWorkerSet recreates the group) within the budget
     * the chart set; a worker whose head never comes is ended by its own startup probe within clusterStartTimeout.
     */
    @Test
    void aGroupMissingAPodNeverBecomesReadyAndItsProbesEndItWithinTheChartsBudget(ControllerSession session) throws Exception {
        StartupIT.requireStartupHost();
        Path file = Examples.multiNodeWithRay().findFirst().orElseThrow();
        Example e = Example.of(file);
        Installed in = StartupIT.install(session, e, file, Map.of("multiNode.clusterStartTimeout", "6", "startupProbe.initialDelaySeconds", "0",
                "startupProbe.periodSeconds", "2", "startupProbe.failureThreshold", "4", "multiNode.ray.workerStartupProbe.periodSeconds", "2"));
        try {
            Reconciled r = in.reconciled();
            KubeObject leader = r.servingPods().get(0);
            KubeObject worker = r.gpuPods().stream().filter(p -> p != leader).findFirst().orElseThrow();
            try (PodGroupRun run = PodGroupRun.start(r.state(), List.of(leader), REPORT_DIR.resolve(e.name() + "-alone").toAbsolutePath(), Map.of(), SettingsFromProperties.shared().rayDir())) {
                PodRun head = run.pods().get(0);
                KubeletStartupProbe.Outcome outcome = KubeletStartupProbe.run(run, head);
                KubeObject nim = PodGroupRun.nimContainer(leader);
                assertThat(outcome.started()).as("%s: the leader without its workers is never started; log:%n%s", e.name(), head.logText()).isFalse();
                assertThat(outcome.runs()).as("%s: probe runs until the restart", e.name()).isEqualTo(4);
                assertThat(outcome.elapsed()).as("%s: ended within the budget the chart set (%s)", e.name(), KubeletStartupProbe.budget(nim))
                        .isLessThanOrEqualTo(KubeletStartupProbe.budget(nim).plusSeconds(10));
                assertThat(head.logText()).as("%s: the head itself ran", e.name()).contains("starting the Ray head");
            }
            try (PodGroupRun run = PodGroupRun.start(r.state(), List.of(worker), REPORT_DIR.resolve(e.name() + "-orphan").toAbsolutePath(), Map.of(), SettingsFromProperties.shared().rayDir())) {
                PodRun orphan = run.pods().get(0);
                KubeletStartupProbe.Outcome outcome = KubeletStartupProbe.run(run, orphan);
                KubeObject nim = PodGroupRun.nimContainer(worker);
                assertThat(outcome.started()).as("%s: a worker whose head never comes is never started; log:%n%s", e.name(), orphan.logText()).isFalse();
                assertThat(KubeletStartupProbe.budget(nim)).as("%s: the worker's budget is clusterStartTimeout (6 s) rounded up to a period", e.name())
                        .isEqualTo(Duration.ofSeconds(6));
                assertThat(outcome.elapsed()).as("%s: ended within its budget", e.name()).isLessThanOrEqualTo(Duration.ofSeconds(6 + 10));
            }
        } finally {
            in.remove(session);
        }
    }
}
