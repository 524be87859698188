package dev.nimchart.chart.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.values.ValuesMerger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The chart as users receive it, with the Helm CLI ci/build-tools.sh builds: {@code helm lint --strict},
 * {@code helm package --sign} with a throwaway GPG key made here and {@code helm verify} of the package (and of a
 * tampered copy, which must fail), {@code helm show readme} printing the chart README, and {@code helm template}
 * without {@code --kube-version} (the CLI knows the Kubernetes version it targets, so kubeVersion >=1.27 passes).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ChartPackageIT {

    private static final Path CHART = ChartUnderTest.chartDir();
    private static final String KEY = HelmCli.KEY;

    private HelmCli cli;
    private Path work;

    @BeforeAll
    void helmAndAKey() throws Exception {
        cli = HelmCli.withSigningKey("chart-package-");
        work = cli.work();
    }

    @AfterAll
    void stopTheAgent() throws Exception {
        if (cli != null) {
            cli.close();
        }
    }

    @Test
    void theCliKnowsItsKubernetesVersionSoTemplateNeedsNoKubeVersion() throws Exception {
        HelmCli.Result template = helm("template", "demo", CHART.toString());
        assertThat(template.exit()).as(template.text()).isZero();
        assertThat(template.text()).contains("kind: StatefulSet");
        HelmCli.Result old = helm("template", "demo", CHART.toString(), "--kube-version", "1.20.0");
        assertThat(old.exit()).as("Go's 1.20 fallback is below the chart's kubeVersion").isNotZero();
        assertThat(old.text()).contains("kubeVersion");
    }

    @Test
    void lintStrictPassesOnTheChartAndItsPackage() throws Exception {
        HelmCli.Result lint = helm("lint", "--strict", CHART.toString());
        assertThat(lint.exit()).as(lint.text()).isZero();
        assertThat(lint.text()).contains("1 chart(s) linted, 0 chart(s) failed").doesNotContain("[WARNING]", "[INFO]");
        Path tgz = pack(work.resolve("lint"));
        HelmCli.Result packaged = helm("lint", "--strict", tgz.toString());
        assertThat(packaged.exit()).as(packaged.text()).isZero();
    }

    @Test
    void theSignedPackageVerifiesAndATamperedOneDoesNot() throws Exception {
        Path tgz = pack(work.resolve("signed"));
        Path prov = Path.of(tgz + ".prov");
        assertThat(prov).exists();
        assertThat(Files.readString(prov)).contains("-----BEGIN PGP SIGNED MESSAGE-----", "name: nim-llm",
                "version: " + version(), tgz.getFileName() + ": sha256:");
        HelmCli.Result verify = helm("verify", tgz.toString(), "--keyring", work.resolve("pubring.gpg").toString());
        assertThat(verify.exit()).as(verify.text()).isZero();
        assertThat(verify.text()).contains("Signed by: " + KEY);

        Path tampered = Files.createDirectories(work.resolve("tampered")).resolve(tgz.getFileName());
        byte[] bytes = Files.readAllBytes(tgz);
        bytes[bytes.length / 2] ^= 0x01;
        Files.write(tampered, bytes);
        Files.copy(prov, Path.of(tampered + ".prov"));
        assertThat(helm("verify", tampered.toString(), "--keyring", work.resolve("pubring.gpg").toString()).exit())
                .as("a package changed after signing").isNotZero();
    }

    @Test
    void thePackageHoldsTheReadmeLicenseChangelogAndSchema() throws Exception {
        Path tgz = pack(work.resolve("contents"));
        List<String> entries = run(List.of("tar", "-tzf", tgz.toString())).text().lines().toList();
        assertThat(entries).contains("nim-llm/Chart.yaml", "nim-llm/values.yaml", "nim-llm/values.schema.json",
                "nim-llm/README.md", "nim-llm/LICENSE", "nim-llm/CHANGELOG.md", "nim-llm/templates/_preflight.tpl");
        HelmCli.Result readme = helm("show", "readme", tgz.toString());
        assertThat(readme.exit()).as(readme.text()).isZero();
        assertThat(readme.text().strip()).isEqualTo(Files.readString(CHART.resolve("README.md")).strip());
    }

    private Path pack(Path dir) throws Exception {
        Files.createDirectories(dir);
        HelmCli.Result pack = helm("package", CHART.toString(), "--destination", dir.toString(), "--sign", "--key", KEY,
                "--keyring", work.resolve("secring.gpg").toString());
        assertThat(pack.exit()).as(pack.text()).isZero();
        Path tgz = dir.resolve("nim-llm-" + version() + ".tgz");
        assertThat(tgz).exists();
        return tgz;
    }

    private static String version() {
        return String.valueOf(ValuesMerger.loadYaml(CHART.resolve("Chart.yaml")).get("version"));
    }

    private HelmCli.Result helm(String... args) throws Exception {
        return cli.helm(args);
    }

    private HelmCli.Result run(List<String> command) throws Exception {
        return cli.run(command);
    }
}
