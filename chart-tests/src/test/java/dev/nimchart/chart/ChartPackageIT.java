package dev.nimchart.chart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.values.ValuesMerger;
import dev.nimchart.cluster.CiScript;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
    private static final String KEY = "nim-llm chart test key";

    /** Under target/ (a @TempDir field is not injected before a per-class @BeforeAll). */
    private Path work;
    private Path helm;
    private Path gnupg;

    @BeforeAll
    void helmAndAKey() throws Exception {
        work = Files.createTempDirectory(Files.createDirectories(Path.of("target")), "chart-package-").toAbsolutePath();
        helm = CiScript.builtTool("helm", line -> System.err.println("[build-tools] " + line));
        gnupg = Files.createDirectories(work.resolve("gnupg"));
        Files.setPosixFilePermissions(gnupg, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        run(List.of("gpg", "--batch", "--homedir", gnupg.toString(), "--pinentry-mode", "loopback", "--passphrase", "",
                "--quick-gen-key", KEY + " <chart-test@nim-llm.invalid>", "rsa2048", "sign", "1d"));
        // Helm reads GnuPG 1 keyrings: the exported (unprotected) secret key and the public key.
        Files.write(work.resolve("secring.gpg"), run(List.of("gpg", "--batch", "--homedir", gnupg.toString(),
                "--pinentry-mode", "loopback", "--passphrase", "", "--export-secret-keys", KEY)).bytes());
        Files.write(work.resolve("pubring.gpg"), run(List.of("gpg", "--batch", "--homedir", gnupg.toString(), "--export", KEY)).bytes());
    }

    @AfterAll
    void stopTheAgent() throws Exception {
        if (gnupg != null) {
            new ProcessBuilder("gpgconf", "--homedir", gnupg.toString(), "--kill", "gpg-agent").start().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void theCliKnowsItsKubernetesVersionSoTemplateNeedsNoKubeVersion() throws Exception {
        Result template = helm("template", "demo", CHART.toString());
        assertThat(template.exit()).as(template.text()).isZero();
        assertThat(template.text()).contains("kind: StatefulSet");
        Result old = helm("template", "demo", CHART.toString(), "--kube-version", "1.20.0");
        assertThat(old.exit()).as("Go's 1.20 fallback is below the chart's kubeVersion").isNotZero();
        assertThat(old.text()).contains("kubeVersion");
    }

    @Test
    void lintStrictPassesOnTheChartAndItsPackage() throws Exception {
        Result lint = helm("lint", "--strict", CHART.toString());
        assertThat(lint.exit()).as(lint.text()).isZero();
        assertThat(lint.text()).contains("1 chart(s) linted, 0 chart(s) failed").doesNotContain("[WARNING]", "[INFO]");
        Path tgz = pack(work.resolve("lint"));
        Result packaged = helm("lint", "--strict", tgz.toString());
        assertThat(packaged.exit()).as(packaged.text()).isZero();
    }

    @Test
    void theSignedPackageVerifiesAndATamperedOneDoesNot() throws Exception {
        Path tgz = pack(work.resolve("signed"));
        Path prov = Path.of(tgz + ".prov");
        assertThat(prov).exists();
        assertThat(Files.readString(prov)).contains("-----BEGIN PGP SIGNED MESSAGE-----", "name: nim-llm",
                "version: " + version(), tgz.getFileName() + ": sha256:");
        Result verify = helm("verify", tgz.toString(), "--keyring", work.resolve("pubring.gpg").toString());
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
        Result readme = helm("show", "readme", tgz.toString());
        assertThat(readme.exit()).as(readme.text()).isZero();
        assertThat(readme.text().strip()).isEqualTo(Files.readString(CHART.resolve("README.md")).strip());
    }

    private Path pack(Path dir) throws Exception {
        Files.createDirectories(dir);
        Result pack = helm("package", CHART.toString(), "--destination", dir.toString(), "--sign", "--key", KEY,
                "--keyring", work.resolve("secring.gpg").toString());
        assertThat(pack.exit()).as(pack.text()).isZero();
        Path tgz = dir.resolve("nim-llm-" + version() + ".tgz");
        assertThat(tgz).exists();
        return tgz;
    }

    private static String version() {
        return String.valueOf(ValuesMerger.loadYaml(CHART.resolve("Chart.yaml")).get("version"));
    }

    private Result helm(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(helm.toString()));
        command.addAll(List.of(args));
        return exec(command);
    }

    private Result run(List<String> command) throws Exception {
        Result r = exec(command);
        assertThat(r.exit()).as("%s: %s", command, r.text()).isZero();
        return r;
    }

    private Result exec(List<String> command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("GNUPGHOME", gnupg == null ? "" : gnupg.toString());
        builder.environment().put("HELM_CACHE_HOME", work.resolve("helm-cache").toString());
        builder.environment().put("HELM_CONFIG_HOME", work.resolve("helm-config").toString());
        builder.environment().put("HELM_DATA_HOME", work.resolve("helm-data").toString());
        Process p = builder.start();
        byte[] err;
        byte[] out = p.getInputStream().readAllBytes();
        err = p.getErrorStream().readAllBytes();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("%s finished", command).isTrue();
        return new Result(p.exitValue(), out, new String(out, StandardCharsets.UTF_8) + new String(err, StandardCharsets.UTF_8));
    }

    private record Result(int exit, byte[] bytes, String text) {
    }
}
