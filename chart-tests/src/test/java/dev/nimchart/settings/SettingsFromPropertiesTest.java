package dev.nimchart.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one builder keeps every property's name and meaning (docs/harness.md's "Settings" table). */
class SettingsFromPropertiesTest {

    @TempDir
    Path dir;

    @Test
    void chartAndExamplesPropertiesWinAndRelativeOnesResolveAgainstTheModuleDir() {
        Settings s = SettingsFromProperties.from(Map.of(
                "nim.chart.dir", "/charts/other",
                "nim.examples.dir", "../examples",
                "basedir", dir.resolve("work").toString()), Map.of(), dir.resolve("elsewhere"));

        assertThat(s.chartDir()).isEqualTo(Path.of("/charts/other"));
        assertThat(s.examplesDir()).isEqualTo(dir.resolve("examples"));
    }

    @Test
    void extraValuesDirsSplitOnCommasAndThePathSeparator() {
        String dirs = "/a, /b" + File.pathSeparator + "/c,,";
        Settings s = SettingsFromProperties.from(Map.of("nim.values.dirs", dirs), Map.of(), dir);

        assertThat(s.valuesDirs()).containsExactly(Path.of("/a"), Path.of("/b"), Path.of("/c"));
        assertThat(SettingsFromProperties.from(Map.of("nim.values.dirs", " "), Map.of(), dir).valuesDirs()).isEmpty();
        assertThat(SettingsFromProperties.from(Map.of(), Map.of(), dir).valuesDirs()).isEmpty();
    }

    /** No layout is guessed: a chart, its examples and build scripts right above the working directory are not taken. */
    @Test
    void withoutPropertiesNoChartExamplesOrBuildScriptsAreGuessedAndEachSaysWhatToSet() throws Exception {
        Files.createDirectories(dir.resolve("charts/nim-llm"));
        Files.createDirectories(dir.resolve("values-examples"));
        Files.writeString(Files.createDirectories(dir.resolve("ci")).resolve(BuildScripts.MANIFEST), "tool=build-tools.sh\n");
        Path workingDir = Files.createDirectories(dir.resolve("chart-tests"));
        Settings s = SettingsFromProperties.from(Map.of("basedir", workingDir.toString()), Map.of(), workingDir);

        assertThatThrownBy(s::chartDir).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no chart directory").hasMessageContaining("-Dnim.chart.dir=DIR").hasMessageContaining("Settings.withChartDir(DIR)");
        assertThatThrownBy(s::examplesDir).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no examples directory").hasMessageContaining("-Dnim.examples.dir=DIR");
        assertThat(BuildScripts.dirOf(s)).isEmpty();
        assertThatThrownBy(() -> s.binaryBuilder().orElseThrow().tool("helm", line -> { }))
                .isInstanceOf(ToolUnavailableException.class)
                .hasMessageContaining("-Dnim.ci.dir=DIR").hasMessageContaining("-Dnim.binaries.dir=DIR").hasMessageContaining(BuildScripts.MANIFEST);
    }

    @Test
    void theClusterPropertiesKeepTheirMeaning() {
        Settings s = SettingsFromProperties.from(Map.of(
                "nim.cluster", "kubeconfig",
                "nim.kubeconfig", "kube/config",
                "nim.cluster.writes", "cluster",
                "basedir", dir.toString()), Map.of(), Path.of("/"));

        assertThat(s.existingCluster()).isTrue();
        assertThat(s.kubeconfig()).contains(dir.resolve("kube/config"));
        assertThat(s.clusterWrites()).isEqualTo("cluster");
        assertThat(s.reconcileTimeout()).isEqualTo(Duration.ofSeconds(900));

        Settings defaults = SettingsFromProperties.from(Map.of(), Map.of(), dir);
        assertThat(defaults.cluster()).isEqualTo("auto");
        assertThat(defaults.existingCluster()).isFalse();
        assertThat(defaults.kubeconfig()).isEmpty();
        assertThat(defaults.clusterWrites()).isEqualTo("namespaced");
        assertThat(defaults.reconcileTimeout()).isEqualTo(Duration.ofSeconds(90));
    }

    @Test
    void theReconcileTimeoutIsSecondsForBothClustersAndABlankOneIsNone() {
        Settings s = SettingsFromProperties.from(Map.of("nim.reconcile.timeout", "42"), Map.of(), dir);
        assertThat(s.reconcileTimeout()).isEqualTo(Duration.ofSeconds(42));
        assertThat(s.withExistingCluster(dir.resolve("kubeconfig"), "namespaced").reconcileTimeout())
                .as("a timeout given holds on an existing cluster too").isEqualTo(Duration.ofSeconds(42));

        Settings blank = SettingsFromProperties.from(Map.of("nim.reconcile.timeout", ""), Map.of(), dir);
        assertThat(blank.reconcileTimeout()).isEqualTo(Settings.DEFAULT_RECONCILE_TIMEOUT);
        assertThat(blank.withCluster("kubeconfig").reconcileTimeout()).as("none given: the existing cluster's longer default")
                .isEqualTo(Settings.DEFAULT_EXISTING_CLUSTER_RECONCILE_TIMEOUT);
    }

    @Test
    void programsFilesAndMachinePathsComeFromTheirProperties() throws Exception {
        Path ci = Files.createDirectories(dir.resolve("repo/ci"));
        Settings s = SettingsFromProperties.from(Map.ofEntries(
                Map.entry("basedir", dir.toString()),
                Map.entry("nim.binaries.dir", "bin"),
                Map.entry("nim.ci.dir", ci.toString()),
                Map.entry("nim.crds.dir", dir.resolve("crds").toString()),
                Map.entry("nim.kube.version", "v1.33.2"),
                Map.entry("nim.k3s.image", "example/k3s:1"),
                Map.entry("nim.nodes.file", "nodes.yaml"),
                Map.entry("nim.slices.file", "slices.yaml"),
                Map.entry("nim.helm.library.dir", dir.resolve("helm").toString()),
                Map.entry("nim.ray.dir", dir.resolve("ray").toString()),
                Map.entry("user.home", dir.resolve("home").toString())),
                Map.of("CI", "TRUE", "KUBECONFIG", dir.resolve("lookup-stub.kubeconfig").toString()), dir);

        assertThat(s.binariesDir()).contains(dir.resolve("bin"));
        assertThat(BuildScripts.dirOf(s)).contains(ci);
        assertThat(s.crdsDir()).contains(dir.resolve("crds"));
        assertThat(s.kubeVersion()).isEqualTo("1.33.2");
        assertThat(s.k3sImage()).isEqualTo("example/k3s:1");
        assertThat(s.nodesFile()).contains(dir.resolve("nodes.yaml"));
        assertThat(s.slicesFile()).contains(dir.resolve("slices.yaml"));
        assertThat(s.helmLibraryDir()).contains(dir.resolve("helm"));
        assertThat(s.rayDir()).isEqualTo(dir.resolve("ray"));
        assertThat(s.ci()).isTrue();
        assertThat(s.controllerLock()).isEqualTo(dir.resolve("home/.cache/nim-llm-chart/controller-tier.lock"));
        assertThat(s.lookupKubeconfig()).contains(dir.resolve("lookup-stub.kubeconfig"));
    }

    @Test
    void theBuildScriptsDirectoryIsTakenAsGivenAndItsManifestReadOnlyWhenAProgramIsAskedFor() throws Exception {
        Path scripts = Files.createDirectories(dir.resolve("scripts"));
        Settings s = SettingsFromProperties.from(Map.of("nim.ci.dir", scripts.toString()), Map.of(), dir);

        assertThat(BuildScripts.dirOf(s)).contains(scripts);
        assertThatThrownBy(() -> s.binaryBuilder().orElseThrow().controlPlane("1.37.2", line -> { }))
                .isInstanceOf(ToolUnavailableException.class)
                .hasMessageContaining("no " + scripts.resolve(BuildScripts.MANIFEST)).hasMessageContaining("controlPlane=SCRIPT");
    }

    @Test
    void theDefaultsReadNothingAndNameNoMachinePath() {
        Settings d = Settings.defaults();

        assertThat(d.binariesDir()).isEmpty();
        assertThat(d.binaryBuilder()).isEmpty();
        assertThat(d.ci()).isFalse();
        assertThat(d.cluster()).isEqualTo("auto");
        assertThat(d.kubeVersion()).isEqualTo(Settings.DEFAULT_KUBE_VERSION);
        assertThat(d.controllerLock()).isEqualTo(d.workDir().resolve("controller-tier.lock"));
        assertThatThrownBy(d::rayDir).hasMessageContaining("withRayDir");
        Settings changed = d.withCi(true).withKubeVersion("v1.30.0");
        assertThat(changed.ci()).isTrue();
        assertThat(changed.kubeVersion()).isEqualTo("1.30.0");
        assertThat(d.ci()).as("a copy, the original unchanged").isFalse();
    }
}
