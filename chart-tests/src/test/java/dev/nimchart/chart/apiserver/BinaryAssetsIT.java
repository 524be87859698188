package dev.nimchart.chart.apiserver;

import dev.nimchart.settings.SettingsFromProperties;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nimchart.chart.repository.CiScript;
import dev.nimchart.cluster.LocalControlPlane;
import dev.nimchart.controllers.ControllerBinaries;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tiers' programs from a binaries directory ({@code -Dnim.binaries.dir}, as envtest takes its assets):
 * {@code ci/binaries.sh DIR} fills one with the pinned builds, the controller tier finds every program there (the
 * right Kubernetes version among them), and a directory that lacks one is refused naming the file and the script.
 * An IT: on a fresh machine the script builds what the other cluster-tier tests build anyway.
 */
class BinaryAssetsIT {

    @Test
    void theScriptFillsADirectoryTheTierTakesEveryProgramFrom(@TempDir Path dir) throws Exception {
        CiScript.run("binaries.sh", List.of(dir.toString()), line -> { });
        ControllerBinaries binaries = ControllerBinaries.fromDirectory(dir);
        for (String name : List.of("etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok", "lws", "mpi-operator")) {
            assertThat(binaries.binary(name).startsWith(dir)).as("%s is taken from the directory: %s", name, binaries.binary(name)).isTrue();
            assertThat(binaries.binary(name)).as(name).isExecutable();
        }
        Process p = new ProcessBuilder(binaries.binary("kube-apiserver").toString(), "--version").redirectErrorStream(true).start();
        String version = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(version).isEqualTo("Kubernetes v" + SettingsFromProperties.shared().kubeVersion());
        for (String tool : List.of("helm", "kube-score", "ct", "registry")) {
            assertThat(dir.resolve(tool).resolve(tool)).as(tool).isExecutable();
        }
        for (String tool : List.of("checkov", "yamllint", "yamale")) {
            assertThat(dir.resolve(tool).resolve("bin").resolve(tool)).as(tool).isExecutable();
        }
    }

    @Test
    void aDirectoryWithoutAProgramIsRefusedNamingItAndItsPlaceInTheLayout(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("control-plane"));
        // the library's text names what is missing and where it goes, not this repository's script (ci/binaries.sh)
        assertThatThrownBy(() -> ControllerBinaries.fromDirectory(dir))
                .hasMessageContaining("no executable " + dir.resolve("kube-controller-manager/kube-controller-manager"))
                .hasMessageContaining("kube-controller-manager/kube-controller-manager for this one")
                .hasMessageNotContaining("ci/");
    }
}
