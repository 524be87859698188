package dev.nimchart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.cluster.ExistingCluster;
import dev.nimchart.render.FixtureChart;
import dev.nimchart.settings.Settings;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a caller gives a {@link ChartCheck} is what it runs with: its settings (no system property in between), one
 * reconcile timeout (the one given, else the settings', which is longer on an existing cluster), one work directory.
 */
class ChartCheckSettingsTest {

    @TempDir
    Path dir;

    @Test
    void aCheckRunsWithTheSettingsItIsGivenAndTheDefaultsOtherwise() {
        Settings mine = Settings.defaults().withWorkDir(dir.resolve("work")).withLookupKubeconfig(dir.resolve("lookup-stub.kubeconfig"));

        assertThat(ChartCheck.of(FixtureChart.dir()).settings()).as("no settings given: the defaults, not this JVM's properties")
                .hasToString(Settings.defaults().toString());
        assertThat(ChartCheck.of(FixtureChart.dir(), mine).settings()).isSameAs(mine);
        assertThat(ChartCheck.of(FixtureChart.dir()).withSettings(mine).withFuzz(0, 1).settings()).isSameAs(mine);
    }

    @Test
    void theReconcileTimeoutIsTheOneGivenElseTheSettingsLongerOnAnExistingCluster() {
        Path kubeconfig = dir.resolve("kubeconfig");
        ChartCheck check = ChartCheck.of(FixtureChart.dir(), Settings.defaults());

        assertThat(check.reconcileTimeout()).isEqualTo(Settings.DEFAULT_RECONCILE_TIMEOUT);
        assertThat(check.withExistingCluster(kubeconfig, ExistingCluster.Writes.NAMESPACED).reconcileTimeout())
                .as("an existing cluster, none given").isEqualTo(Settings.DEFAULT_EXISTING_CLUSTER_RECONCILE_TIMEOUT);
        assertThat(check.withReconcileTimeout(Duration.ofSeconds(42)).withExistingCluster(kubeconfig, ExistingCluster.Writes.NAMESPACED)
                .reconcileTimeout()).as("given before the existing cluster").isEqualTo(Duration.ofSeconds(42));
        assertThat(check.withSettings(Settings.defaults().withReconcileTimeout(Duration.ofSeconds(7))).reconcileTimeout())
                .as("the settings' own").isEqualTo(Duration.ofSeconds(7));
        assertThat(check.withReconcileTimeout(Duration.ofSeconds(42)).withSettings(Settings.defaults().withReconcileTimeout(Duration.ofSeconds(7)))
                .reconcileTimeout()).as("the check's own wins over new settings'").isEqualTo(Duration.ofSeconds(42));
    }

    @Test
    void theWorkDirectoryIsTheSettingsOne() {
        ChartCheck check = ChartCheck.of(FixtureChart.dir(), Settings.defaults()).withWorkDir(dir.resolve("reports"));

        assertThat(check.settings().workDir()).isEqualTo(dir.resolve("reports").toAbsolutePath().normalize());
        assertThat(check.withExistingCluster(dir.resolve("kubeconfig"), ExistingCluster.Writes.CLUSTER).settings().workDir())
                .isEqualTo(dir.resolve("reports").toAbsolutePath().normalize());
    }
}
