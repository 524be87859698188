package dev.nimchart;

import dev.nimchart.tiers.Tier;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.CiScript;
import dev.nimchart.render.ChartUnderTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command behind {@code ci/check-chart.sh}: its options are checked before anything runs, it prints a line per
 * verdict and one table built from them, and its status says whether everything passed. Run as the script runs it (a
 * JVM of its own on this classpath), on the offline tier, with a chart of our own.
 */
class CheckChartCommandTest {

    private static Path plainWeb() {
        return ChartUnderTest.chartDir().toAbsolutePath().getParent().getParent().resolve("examples/charts/plain-web");
    }

    /** Runs the command and returns what it printed; {@code results} receives its status file. */
    private static String run(Path results, String... options) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), CheckChart.class.getName(), "--results", results.toString(),
                "--tiers", "offline", "--fuzz", "0"));
        command.addAll(List.of(options));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        // a lookup stub of its own, as ci/check-chart.sh gives it: the command's stub writes its port into that file and
        // goes with the command, and this JVM's tests (run beside it) keep reading theirs
        builder.environment().put("KUBECONFIG", results.resolve("lookup-stub.kubeconfig").toString());
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("the command ended").isTrue();
        return output;
    }

    @Test
    void everyFileGetsAVerdictLineAndARowAndTheStatusSaysAllPassed(@TempDir Path results) throws Exception {
        String output = run(results, "--chart", plainWeb().toString(), "--values", plainWeb().resolve("ci").toString(),
                "--pod-security", "baseline");
        assertThat(output).contains("offline tier ...").contains("default-values.yaml: passed").contains("tcp-ports-values.yaml: passed")
                .contains("| values file | offline |").contains("all 3 passed");
        assertThat(Files.readString(results.resolve("status")).strip()).as(output).isEqualTo("0");
    }

    @Test
    void aBrokenFileIsItsRowsFailureAndTheStatusIsOne(@TempDir Path results, @TempDir Path values) throws Exception {
        Files.copy(plainWeb().resolve("ci/two-replicas-values.yaml"), values.resolve("good-values.yaml"));
        Files.writeString(values.resolve("replicas-word-values.yaml"), "replicas: two\n");
        String output = run(results, "--chart", plainWeb().toString(), "--values", values.toString());
        assertThat(output).contains("good-values.yaml | passed |").containsPattern("replicas-word-values.yaml \\| FAILED: .*replicas")
                .contains("1 of 2 failed");
        assertThat(Files.readString(results.resolve("status")).strip()).as(output).isEqualTo("1");
    }

    @Test
    void anUnknownPodSecurityLevelIsRefusedBeforeAnyFileIsChecked(@TempDir Path results) throws Exception {
        String output = run(results, "--chart", plainWeb().toString(), "--values", plainWeb().resolve("ci").toString(),
                "--pod-security", "strict");
        assertThat(output).contains("check-chart: unknown Pod Security level 'strict'").doesNotContain("offline tier ...");
        assertThat(Files.readString(results.resolve("status")).strip()).isEqualTo("1");
    }

    @Test
    void anUnknownTierIsAUsageErrorNamingTheLibrarysTiers(@TempDir Path results) throws Exception {
        String output = run(results, "--chart", plainWeb().toString(), "--values", plainWeb().resolve("ci").toString(),
                "--tiers", "offline,nightly");
        assertThat(output).contains("check-chart: unknown tier 'nightly': offline, api, controllers, startup or all")
                .doesNotContain("offline tier ...");
        assertThat(Files.readString(results.resolve("status")).strip()).isEqualTo("2");
    }

    @Test
    void allIsEveryTierTheLibraryListsCheapestFirst() {
        assertThat(CheckChart.tiers("all")).isEqualTo(ChartCheck.tiers()).containsExactly(Tier.OFFLINE, Tier.API, Tier.CONTROLLERS, Tier.STARTUP);
        assertThat(CheckChart.tiers("startup,offline,startup")).containsExactly(Tier.OFFLINE, Tier.STARTUP);
    }

    /**
     * The start-up tier has its column; a chart whose rules opt no file in (plain-web, no --startup-files) gets "-" there
     * and starts nothing, so the tier passes on a machine that could not run it.
     */
    @Test
    void theStartupTierHasItsColumnAndStartsNothingWhenNoFileIsOptedIn(@TempDir Path results) throws Exception {
        String output = run(results, "--chart", plainWeb().toString(), "--values", plainWeb().resolve("ci").toString(),
                "--tiers", "startup,offline", "--startup-files", "none");
        assertThat(output).contains("offline tier ...").contains("startup tier ...").contains("startup tier: 0 of 0 passed")
                .contains("| values file | offline | startup |").contains("default-values.yaml | passed | - |").contains("all 3 passed");
        assertThat(Files.readString(results.resolve("status")).strip()).as(output).isEqualTo("0");
    }

    @Test
    void theScriptRefusesABadOptionNamingItWithoutRunningMaven() throws Exception {
        Process process = new ProcessBuilder("bash", CiScript.ciDir().resolve("check-chart.sh").toString(), "--chart", plainWeb().toString(),
                "--values", plainWeb().resolve("ci").toString(), "--pod-security", "strict").redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isEqualTo(2);
        assertThat(output).contains("--pod-security needs privileged, baseline or restricted");
    }

    /**
     * The table on the cluster tiers: a refusal file has the API-server tier's verdict and "-" on the controller tier,
     * which leaves refusals to it; a refusal file the API-server tier did not check fails the table.
     */
    @Test
    void refusalsAreTheApiServerTiersAndTheControllerTierShowsADash() {
        Path chart = plainWeb().resolveSibling("schema-web");
        ChartCheck check = ChartCheck.of(chart, dev.nimchart.junit.RunSettings.get()).withValues(chart.resolve("ci")).withFuzz(0, 0);
        assertThat(check.invalidFiles()).as("schema-web's refusal files").isNotEmpty();
        List<Tier> tiers = List.of(Tier.API, Tier.CONTROLLERS);
        java.util.function.Function<List<Path>, List<Verdict>> passed = files -> files.stream().map(f -> new Verdict(f.toString(), Tier.API, null)).toList();
        List<Path> all = new ArrayList<>(check.validFiles());
        all.addAll(check.invalidFiles());

        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        boolean ok = CheckChart.printTable(check, tiers, java.util.Map.of(Tier.API, passed.apply(all), Tier.CONTROLLERS, passed.apply(check.validFiles())),
                chart, new java.io.PrintStream(bytes, true));
        String table = bytes.toString();
        assertThat(ok).as("the table:%n%s", table).isTrue();
        String refusal = chart.relativize(check.invalidFiles().get(0)).toString();
        assertThat(table).as("the row of %s", refusal).contains("| " + refusal + " | passed | - |");

        bytes.reset();
        boolean missing = CheckChart.printTable(check, tiers, java.util.Map.of(Tier.API, passed.apply(check.validFiles()), Tier.CONTROLLERS,
                passed.apply(check.validFiles())), chart, new java.io.PrintStream(bytes, true));
        assertThat(missing).as("refusals the API-server tier did not check").isFalse();
        assertThat(bytes.toString()).contains("| " + refusal + " | FAILED: no verdict: the api tier did not check it | - |");
    }
}
