package dev.nimchart.chart.offline;

import dev.nimchart.tiers.Tier;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.ChartCheck;
import dev.nimchart.tiers.ChartRules;
import dev.nimchart.Verdict;
import dev.nimchart.render.ChartUnderTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library's door on a chart that is not nim-llm: examples/charts/plain-web, a web chart of our own with no values
 * schema and no GPU, checked with its chart-testing values files ({@code ci/*-values.yaml}) and no chart rules. Every
 * file passes with no fuzz row (nothing to draw documents from), a file that breaks is that file's failure with the
 * others still judged, and nim-llm's label rule applies only to a chart whose rules opt into it.
 */
class AnyChartTest {

    static Path plainWeb() {
        return ChartUnderTest.chartDir().toAbsolutePath().getParent().getParent().resolve("examples/charts/plain-web");
    }

    @Test
    void aChartWithoutAValuesSchemaPassesEveryFileWithNoFuzzRow() {
        Path chart = plainWeb();
        List<Verdict> verdicts = ChartCheck.of(chart, dev.nimchart.junit.RunSettings.get()).withValues(chart.resolve("ci")).verdicts(Tier.OFFLINE);
        assertThat(verdicts).as("verdicts: one per ci/ values file (one with integer map keys), no fuzz row").hasSize(3)
                .allSatisfy(v -> assertThat(v.reason()).as(v.subject()).isNull());
    }

    @Test
    void aFileThatBreaksIsThatFilesFailureAndTheOthersAreStillJudged(@TempDir Path dir) throws IOException {
        Path chart = plainWeb();
        Files.copy(chart.resolve("ci/two-replicas-values.yaml"), dir.resolve("good-values.yaml"));
        Files.writeString(dir.resolve("replicas-word-values.yaml"), "replicas: two\n");
        Files.writeString(dir.resolve("not-yaml-values.yaml"), "replicas: [1\n");
        Map<String, String> reasons = ChartCheck.of(chart, dev.nimchart.junit.RunSettings.get()).withValues(dir).verdicts(Tier.OFFLINE).stream().collect(Collectors.toMap(
                v -> Path.of(v.subject()).getFileName().toString(), v -> String.valueOf(v.reason())));
        assertThat(reasons).as("a verdict for every file").containsOnlyKeys("good-values.yaml", "replicas-word-values.yaml",
                "not-yaml-values.yaml");
        assertThat(reasons.get("good-values.yaml")).as("the good file").isEqualTo("null");
        assertThat(reasons.get("replicas-word-values.yaml")).as("replicas: two, rendered into a Deployment").contains("replicas");
        assertThat(reasons.get("not-yaml-values.yaml")).as("a values file that is not YAML").contains("not a values file Helm can read");
    }

    static Path nodeBatch() {
        return plainWeb().resolveSibling("node-batch");
    }

    @Test
    void builtInKindsBeyondTheFixedListAndTheChartsOwnCrdsAreChecked() {
        Path chart = nodeBatch();
        List<Verdict> verdicts = ChartCheck.of(chart, dev.nimchart.junit.RunSettings.get()).withValues(chart.resolve("ci")).verdicts(Tier.OFFLINE);
        assertThat(verdicts).as("a DaemonSet, Job, CronJob, ClusterRole and a custom resource of the chart's crds/")
                .hasSize(3).allSatisfy(v -> assertThat(v.reason()).as(v.subject()).isNull());
    }

    /** The node-batch chart's offline verdict on one values file ({@code name} in {@code dir}) fails, naming each of {@code named}. */
    private static void assertRefusedNaming(Path dir, String name, String values, String... named) throws IOException {
        Files.writeString(dir.resolve(name), values);
        List<Verdict> verdicts = ChartCheck.of(nodeBatch(), dev.nimchart.junit.RunSettings.get()).withValues(dir).verdicts(Tier.OFFLINE);
        assertThat(verdicts).singleElement().satisfies(v -> assertThat(v.reason()).as(v.subject()).contains(named));
    }

    @Test
    void aCustomResourceIsJudgedByTheCrdTheChartInstalls(@TempDir Path dir) throws IOException {
        assertRefusedNaming(dir, "zero-days-values.yaml", "sweep:\n  retentionDays: 0\n", "Sweep", "spec.retentionDays");
    }

    @Test
    void aBuiltInKindIsCheckedStrictlyByItsOwnModel(@TempDir Path dir) throws IOException {
        assertRefusedNaming(dir, "backoff-word-values.yaml", "backoffLimit: twice\n", "Job", "backoffLimit");
    }

    @Test
    void theStandardLabelRuleAppliesOnlyWhereTheChartsRulesAskForIt() {
        Path chart = plainWeb();
        ChartRules labelled = new ChartRules() {
            @Override
            public boolean standardLabels() {
                return true;
            }
        };
        List<Verdict> verdicts = ChartCheck.of(chart, dev.nimchart.junit.RunSettings.get()).withValues(chart.resolve("ci")).withRules(labelled).verdicts(Tier.OFFLINE);
        assertThat(verdicts).as("plain-web's objects carry no standard labels").isNotEmpty()
                .allSatisfy(v -> assertThat(v.reason()).as(v.subject()).contains("lacks the standard labels"));
    }
}
