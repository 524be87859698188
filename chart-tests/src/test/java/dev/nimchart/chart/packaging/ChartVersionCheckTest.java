package dev.nimchart.chart.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.CiScript;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ci/check-chart-version.sh, as chart-testing's version-increment check: a change under charts/ needs a higher
 * Chart.yaml version and a CHANGELOG.md entry for it. Run on a scratch git repository shaped like this one.
 */
class ChartVersionCheckTest {

    private static final Path SCRIPT = CiScript.ciDir().resolve("check-chart-version.sh");

    @TempDir
    Path repo;

    @BeforeEach
    void aRepositoryWithChartVersion100() throws IOException, InterruptedException {
        git("init", "-q", "-b", "main");
        write("charts/demo/Chart.yaml", "apiVersion: v2\nname: demo\nversion: 1.0.0\n");
        write("charts/demo/templates/a.yaml", "a: 1\n");
        write("charts/demo/CHANGELOG.md", "# Changelog\n\n## [1.0.0] - 2026-01-01\n");
        write("README.md", "demo\n");
        commit("first");
        git("checkout", "-q", "-b", "topic");
    }

    @Test
    void aChangeOutsideChartsNeedsNoBump() throws Exception {
        write("README.md", "changed\n");
        commit("docs");
        assertThat(check()).startsWith("0:").contains("nothing under charts/ changed");
    }

    @Test
    void aTemplateChangeWithoutABumpIsRefused() throws Exception {
        write("charts/demo/templates/a.yaml", "a: 2\n");
        commit("change");
        assertThat(check()).startsWith("1:").contains("charts/demo", "version 1.0.0 is not above 1.0.0", "bump it");
    }

    @Test
    void aBumpWithoutAChangelogEntryIsRefused() throws Exception {
        write("charts/demo/templates/a.yaml", "a: 2\n");
        write("charts/demo/Chart.yaml", "apiVersion: v2\nname: demo\nversion: 1.1.0\n");
        commit("bump only");
        assertThat(check()).startsWith("1:").contains("version 1.1.0 has no entry in charts/demo/CHANGELOG.md");
    }

    @Test
    void aLowerVersionIsRefused() throws Exception {
        write("charts/demo/Chart.yaml", "apiVersion: v2\nname: demo\nversion: 0.9.0\n");
        write("charts/demo/CHANGELOG.md", "# Changelog\n\n## [0.9.0] - 2026-01-02\n");
        commit("down");
        assertThat(check()).startsWith("1:").contains("0.9.0 is not above 1.0.0");
    }

    @Test
    void aBumpWithAnEntryPassesAgainstTheMergeBaseAcrossSeveralCommits() throws Exception {
        write("charts/demo/templates/a.yaml", "a: 2\n");
        write("charts/demo/Chart.yaml", "apiVersion: v2\nname: demo\nversion: \"1.10.0\"\n");
        write("charts/demo/CHANGELOG.md", "# Changelog\n\n## [1.10.0] - 2026-01-02\n\n## [1.0.0] - 2026-01-01\n");
        commit("bump");
        write("charts/demo/templates/a.yaml", "a: 3\n");
        commit("more, same version");
        assertThat(check()).startsWith("0:").contains("charts/demo 1.0.0 -> 1.10.0");
        assertThat(check("HEAD~1")).as("against the previous commit alone, the second change has no bump").startsWith("1:");
    }

    private String check(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(repo.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return p.exitValue() + ": " + out;
    }

    private void write(String path, String text) throws IOException {
        Path file = repo.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    private void commit(String message) throws IOException, InterruptedException {
        git("add", "-A");
        git("-c", "user.name=test", "-c", "user.email=test@example.invalid", "commit", "-q", "-m", message);
    }

    private void git(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(repo.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0).as("git %s: %s", List.of(args), out).isTrue();
    }
}
