package dev.nimchart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.CiScript;
import dev.nimchart.render.ChartUnderTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ci/check-chart.sh}'s launcher: the first run builds the command with Maven and runs it there; later runs
 * start it with java directly and print the same table for the same input; a source newer than the launcher's stamp
 * (what an edit makes) sends the next run through Maven again. With a launcher directory of this test's own
 * ({@code NIM_CHECK_CHART_LAUNCHER}), so the repository's own launcher is left as it is.
 */
class CheckChartLauncherTest {

    private static final String BUILDING = "check-chart: building the command with Maven";

    private record Run(int exit, String output) {

        /** The table: from its "== chart" line to the end. */
        String table() {
            int start = output.indexOf("== chart ");
            assertThat(start).as("a table in:%n%s", output).isNotNegative();
            return output.substring(start);
        }
    }

    private static Path plainWeb() {
        return ChartUnderTest.chartDir().toAbsolutePath().getParent().getParent().resolve("examples/charts/plain-web");
    }

    private static Run run(Path launcher, Path values, Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder("bash", CiScript.ciDir().resolve("check-chart.sh").toString(), "--chart",
                plainWeb().toString(), "--values", values.toString(), "--tier", "offline", "--fuzz", "0", "--maven-offline")
                .redirectErrorStream(true);
        builder.environment().put("NIM_CHECK_CHART_LAUNCHER", launcher.toString());
        // the results directory the command keeps for its user goes under target/, not into the machine's /tmp
        builder.environment().put("TMPDIR", Files.createDirectories(Path.of("target", "check-chart-results")).toAbsolutePath().toString());
        builder.environment().putAll(env);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(600, TimeUnit.SECONDS)).as("the command ended").isTrue();
        return new Run(process.exitValue(), output);
    }

    @Test
    void theLauncherPrintsTheTableMavenPrintedAndASourceChangeGoesThroughMavenAgain(@TempDir Path launcher, @TempDir Path values,
            @TempDir Path bin) throws Exception {
        // a row that passes and one that fails with a reason, so the tables compare more than "passed"
        Files.copy(plainWeb().resolve("ci/two-replicas-values.yaml"), values.resolve("good-values.yaml"));
        Files.writeString(values.resolve("replicas-word-values.yaml"), "replicas: two\n");

        Run maven = run(launcher, values, Map.of());
        assertThat(maven.output()).as("the first run").contains(BUILDING);
        assertThat(maven.exit()).as(maven.output()).isEqualTo(1);
        assertThat(maven.table()).contains("good-values.yaml | passed |").containsPattern("replicas-word-values.yaml \\| FAILED: .*replicas")
                .contains("1 of 2 failed");
        assertThat(launcher.resolve("launch-classpath")).as("the launcher's classpath").isRegularFile();

        Run direct = run(launcher, values, Map.of());
        assertThat(direct.output()).as("the second run").doesNotContain(BUILDING);
        assertThat(direct.exit()).as(direct.output()).isEqualTo(1);
        assertThat(direct.table()).as("the launcher's table against Maven's").isEqualTo(maven.table());
        assertThat(launcher.resolve("classes.jsa")).as("the class-data archive the first direct run wrote").isRegularFile();

        // a main source newer than the stamp; a stand-in mvn on the PATH records that the next run called it
        Path source = CiScript.ciDir().getParent().resolve("chart-tests/src/main/java/dev/nimchart/CheckChart.java");
        Files.setLastModifiedTime(launcher.resolve("stamp"), FileTime.fromMillis(Files.getLastModifiedTime(source).toMillis() - 1000));
        Path called = bin.resolve("mvn-was-called");
        Path mvn = bin.resolve("mvn");
        Files.writeString(mvn, "#!/bin/sh\necho \"$@\" >'" + called + "'\necho '[ERROR] the stand-in mvn of CheckChartLauncherTest'\nexit 1\n");
        assertThat(mvn.toFile().setExecutable(true)).isTrue();
        Run changed = run(launcher, values, Map.of("PATH", bin + ":" + System.getenv("PATH")));
        assertThat(changed.output()).as("the run after a source change").contains(BUILDING)
                .contains("check-chart: the checks could not run").contains("the stand-in mvn of CheckChartLauncherTest");
        assertThat(called).as("mvn called").isRegularFile();
        assertThat(Files.readString(called)).contains("exec:exec@check-chart-classpath", "exec:exec@check-chart");
        assertThat(changed.exit()).isEqualTo(1);

        // the failed build left the launcher as stale as it found it: the next run goes through Maven too
        Run still = run(launcher, values, Map.of("PATH", bin + ":" + System.getenv("PATH")));
        assertThat(still.output()).as("the run after a failed build").contains(BUILDING);
        assertThat(still.exit()).isEqualTo(1);
    }
}
