package dev.nimchart.chart.apiserver;

import dev.nimchart.chart.repository.ExampleCharts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.ChartCheck;
import dev.nimchart.tiers.Tier;
import dev.nimchart.Verdict;
import dev.nimchart.cluster.ClusterSession;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.sessions.OwnedTierSessions;
import dev.nimchart.progress.Progress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Tier environments outside JUnit's launcher-session store have one owner, which stops them: {@link OwnedTierSessions} (what a
 * {@code ChartCheck} and the command behind ci/check-chart.sh hold) stops the cluster it started when closed, and a
 * closed {@code ChartCheck} starts nothing again. No shutdown hook is involved: the cluster is gone before the JVM ends.
 */
class OwnedTierSessionsIT {

    private static Path plainWeb() {
        return ExampleCharts.named("plain-web");
    }

    @Test
    void closingTheOwnerStopsTheClusterItStartedAndNothingElseAndItsProgressWentToTheGivenProgress() {
        List<String> lines = new ArrayList<>();
        KubeApi api;
        boolean started;
        try (OwnedTierSessions sessions = OwnedTierSessions.local(lines::add, dev.nimchart.junit.RunSettings.get())) {
            ClusterSession cluster = sessions.apiServer().sessionOrThrow();
            api = cluster.api();
            started = cluster.cluster().startedByHarness();
            assertThat(readyz(api)).as("the owned cluster answers while its owner holds it").isEqualTo(200);
            assertThat(sessions.apiServer()).as("started once, on first use").isSameAs(sessions.apiServer());
        }
        if (started) {
            assertThat(readyz(api)).as("the cluster after its owner closed").isNotEqualTo(200);
        } else {
            // -Dnim.cluster=kubeconfig: the owner attached to a cluster it did not start, and stops nothing of it
            assertThat(readyz(api)).as("a cluster the harness did not start, after its owner closed").isEqualTo(200);
        }
        assertThat(lines).as("the tier's progress, tagged with its name").isNotEmpty().allMatch(l -> l.startsWith("[cluster tier] "));
    }

    @Test
    void aChartCheckClosesWhatItStartedAndStartsNothingOnceClosed() {
        ChartCheck check = ChartCheck.of(plainWeb(), dev.nimchart.junit.RunSettings.get()).withValues(plainWeb().resolve("ci")).withFuzz(0, 0).withWorkDir(Path.of("target", "owned-sessions"))
                .withProgress(Progress.console());
        try (ChartCheck owner = check) {
            assertThat(owner.verdicts(Tier.API)).as("plain-web's files on the check's own cluster").hasSize(3)
                    .allSatisfy(v -> assertThat(v.reason()).as(v.subject()).isNull());
        }
        List<Verdict> afterClose = check.verdicts(Tier.API);
        assertThat(afterClose).as("a closed check starts no cluster again").hasSize(3)
                .allSatisfy(v -> assertThat(v.reason()).as(v.subject()).contains("the api tier cannot check this chart").contains("sessions are closed"));
    }

    /** The API server's /readyz status, 0 when nothing answers. */
    private static int readyz(KubeApi api) {
        try {
            return api.get("/readyz").code();
        } catch (RuntimeException e) {
            return 0;
        }
    }
}
