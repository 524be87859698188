package dev.nimchart.chart.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.ChartCopy;
import dev.nimchart.chart.repository.Examples;
import dev.nimchart.chart.repository.CiScript;
import dev.nimchart.cluster.ClusterSession;
import dev.nimchart.cluster.OciRegistryProcess;
import dev.nimchart.cluster.Pki;
import dev.nimchart.junit.ClusterTier;
import dev.nimchart.sessions.TierNamespaces;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.values.ValuesMerger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The chart as it is distributed today: {@code helm package --sign}, {@code helm push} to a real OCI registry (CNCF
 * distribution, built from its Go module by ci/build-tools.sh, a local process on a free port serving TLS with a
 * certificate of the tier's certificate authority), {@code helm install --verify oci://...} of the signed package into
 * the tier's API server, and {@code helm pull --verify} (and install) of a tampered artifact refused.
 */
@ExtendWith(ClusterTier.class)
class OciRegistryIT {

    private static final Path CHART = ChartUnderTest.chartDir();

    @Test
    void theSignedPackageInstallsFromTheRegistryVerifiedAndATamperedOneIsRefused(ClusterSession cluster) throws Exception {
        String version = String.valueOf(ValuesMerger.loadYaml(CHART.resolve("Chart.yaml")).get("version"));
        try (HelmCli cli = HelmCli.withSigningKey("oci-registry-")) {
            Path work = cli.work();
            // The tier's certificate authority (the local control plane's); a K3s cluster has none of ours: then one of our own.
            Pki pki = cluster.cluster().pki().orElseGet(() -> Pki.create(work.resolve("pki"), List.of("127.0.0.1"), List.of("localhost")));
            Path ca = pki.file("ca.crt");
            Path kubeconfig = work.resolve("kubeconfig");
            Files.writeString(kubeconfig, cluster.cluster().kubeConfigYaml());
            long t0 = System.nanoTime();
            Path binary = CiScript.builtTool("registry", line -> System.err.println("[build-tools] " + line));
            try (OciRegistryProcess registry = OciRegistryProcess.start(binary, pki, work.resolve("registry"))) {
                dev.nimchart.sessions.ClusterTierLifecycle.record(dev.nimchart.junit.RunSettings.get(), "OCI registry started", Duration.ofNanos(System.nanoTime() - t0));
                Path signed = Files.createDirectories(work.resolve("signed"));
                run(cli, "package", CHART.toString(), "--destination", signed.toString(), "--sign", "--key", HelmCli.KEY,
                        "--keyring", cli.secretKeyring().toString());
                Path tgz = signed.resolve("nim-llm-" + version + ".tgz");
                assertThat(Path.of(tgz + ".prov")).exists();
                HelmCli.Result push = run(cli, "push", tgz.toString(), "oci://" + registry.address() + "/charts", "--ca-file", ca.toString());
                assertThat(push.text()).contains("Pushed: " + registry.address() + "/charts/nim-llm:" + version);

                // Pulled back verified: the provenance travelled with the chart and its signature checks out.
                Path pulled = Files.createDirectories(work.resolve("pulled"));
                HelmCli.Result pull = run(cli, "pull", "oci://" + registry.address() + "/charts/nim-llm", "--version", version,
                        "--verify", "--keyring", cli.publicKeyring().toString(), "--ca-file", ca.toString(), "--destination", pulled.toString());
                assertThat(pull.text()).contains("Signed by: " + HelmCli.KEY);
                assertThat(Files.readAllBytes(pulled.resolve(tgz.getFileName()))).isEqualTo(Files.readAllBytes(tgz));

                String namespace = cluster.restrictedNamespace("oci-install");
                try {
                    HelmCli.Result install = run(cli, "install", "from-oci", "oci://" + registry.address() + "/charts/nim-llm",
                            "--version", version, "--verify", "--keyring", cli.publicKeyring().toString(), "--ca-file", ca.toString(),
                            "--kubeconfig", kubeconfig.toString(), "--namespace", namespace,
                            "-f", Examples.named("single-node-minimal.yaml").toString());
                    assertThat(install.text()).contains("STATUS: deployed");
                    assertThat(cluster.api().read("apps/v1", "StatefulSet", namespace, "from-oci-nim-llm"))
                            .as("the StatefulSet of the release installed from the registry").isPresent();

                    // A tampered artifact: the chart changed after signing, pushed with the original provenance file.
                    Path copy = ChartCopy.of(CHART, "tampered-chart-", f -> false);
                    Files.writeString(copy.resolve("templates/tampered.yaml"), "# changed after signing\n");
                    Path tamperedDir = Files.createDirectories(work.resolve("tampered"));
                    run(cli, "package", copy.toString(), "--destination", tamperedDir.toString());
                    Path tampered = tamperedDir.resolve(tgz.getFileName());
                    Files.copy(Path.of(tgz + ".prov"), Path.of(tampered + ".prov"));
                    run(cli, "push", tampered.toString(), "oci://" + registry.address() + "/tampered", "--ca-file", ca.toString());
                    HelmCli.Result refused = cli.helm("pull", "oci://" + registry.address() + "/tampered/nim-llm", "--version", version,
                            "--verify", "--keyring", cli.publicKeyring().toString(), "--ca-file", ca.toString(), "--destination",
                            Files.createDirectories(work.resolve("pulled-tampered")).toString());
                    assertThat(refused.exit()).as("helm pull --verify of the tampered artifact: %s", refused.text()).isNotZero();
                    assertThat(refused.text()).containsIgnoringCase("sha256");
                    HelmCli.Result notInstalled = cli.helm("install", "tampered", "oci://" + registry.address() + "/tampered/nim-llm",
                            "--version", version, "--verify", "--keyring", cli.publicKeyring().toString(), "--ca-file", ca.toString(),
                            "--kubeconfig", kubeconfig.toString(), "--namespace", namespace,
                            "-f", Examples.named("single-node-minimal.yaml").toString());
                    assertThat(notInstalled.exit()).as("helm install --verify of the tampered artifact: %s", notInstalled.text()).isNotZero();
                    assertThat(cluster.api().read("apps/v1", "StatefulSet", namespace, "tampered-nim-llm")).isEmpty();
                } finally {
                    // a cluster the harness did not start keeps what a test leaves: the release's pod holds 8 GPUs there
                    cli.helm("uninstall", "from-oci", "--kubeconfig", kubeconfig.toString(), "--namespace", namespace, "--wait");
                    TierNamespaces.delete(cluster.api(), namespace, () -> { });
                }
            }
        }
    }

    private static HelmCli.Result run(HelmCli cli, String... args) throws Exception {
        HelmCli.Result r = cli.helm(args);
        assertThat(r.exit()).as("helm %s: %s", String.join(" ", args), r.text()).isZero();
        return r;
    }
}
