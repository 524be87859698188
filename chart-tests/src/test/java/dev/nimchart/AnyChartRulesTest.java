package dev.nimchart;

import dev.nimchart.tiers.ChartRules;
import dev.nimchart.tiers.Tier;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.render.ChartRenderer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What is one chart's own stays that chart's, for any chart through the door (test resources {@code any-chart/}): release
 * names short enough that a long values file name cannot push the chart's object names past 63 characters; a values
 * schema in any dialect Helm accepts judged ({@code http://json-schema.org/schema#}, as bitnami's charts declare); and a
 * chart the harness cannot judge offline still gets a verdict per file and its table.
 */
class AnyChartRulesTest {

    private static Path chart(String name) {
        try {
            return Path.of(AnyChartRulesTest.class.getResource("/any-chart/" + name + "/Chart.yaml").toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aLongValuesFileNameNoLongerPushesObjectNamesPast63Characters() {
        Path chart = chart("long-names");
        List<Verdict> shortNames = ChartCheck.of(chart, dev.nimchart.junit.RunSettings.get()).withValues(chart.resolve("ci")).withFuzz(0, ChartCheck.DEFAULT_FUZZ_SEED).verdicts(Tier.OFFLINE);
        assertThat(shortNames).as("with the default (short) release names").singleElement()
                .satisfies(v -> assertThat(v.reason()).as(v.subject()).isNull());
        // The same file, its release named after it as before: the Service's name is 70 characters, which the API server refuses.
        ChartRules namedAfterTheFile = new ChartRules() {
            @Override
            public String releaseName(Path valuesFile) {
                return ChartRenderer.releaseName(valuesFile);
            }
        };
        List<Verdict> longNames = ChartCheck.of(chart, dev.nimchart.junit.RunSettings.get()).withValues(chart.resolve("ci")).withFuzz(0, ChartCheck.DEFAULT_FUZZ_SEED)
                .withRules(namedAfterTheFile).verdicts(Tier.OFFLINE);
        assertThat(longNames).as("with the release named after the file").singleElement()
                .satisfies(v -> assertThat(v.reason()).as(v.subject()).contains("daemonset-with-admission-webho-edge-proxy-gateway-controller-admission")
                        .contains("DNS-1035"));
    }

    @Test
    void aSchemaDeclaringTheLatestDraftsAliasIsJudged() {
        Path chart = chart("latest-dialect");
        List<Verdict> verdicts = ChartCheck.of(chart, dev.nimchart.junit.RunSettings.get()).withValues(chart.resolve("ci")).withFuzz(20, ChartCheck.DEFAULT_FUZZ_SEED).verdicts(Tier.OFFLINE);
        assertThat(verdicts).as("a valid file, a file refused by the schema (maximum), the fuzz run").hasSize(3)
                .allSatisfy(v -> assertThat(v.reason()).as(v.subject()).isNull());
    }

    @Test
    void aChartTheOfflineTierCannotJudgeStillGetsAVerdictPerFileAndItsTable() {
        Path chart = chart("custom-dialect");
        ChartCheck check = ChartCheck.of(chart, dev.nimchart.junit.RunSettings.get()).withValues(chart.resolve("ci")).withFuzz(5, ChartCheck.DEFAULT_FUZZ_SEED);
        List<Verdict> verdicts = check.verdicts(Tier.OFFLINE);
        assertThat(verdicts).as("the file and the fuzz run").hasSize(2).allSatisfy(v -> assertThat(v.reason()).as(v.subject())
                .contains("the offline tier cannot check this chart").contains("https://dialects.example.invalid/acme/schema"));
        ByteArrayOutputStream table = new ByteArrayOutputStream();
        boolean ok = CheckChart.printTable(check, List.of(Tier.OFFLINE), Map.of(Tier.OFFLINE, verdicts), chart,
                new PrintStream(table, true, StandardCharsets.UTF_8));
        assertThat(ok).as("the table's verdict").isFalse();
        assertThat(table.toString(StandardCharsets.UTF_8)).as("the table").contains("two-replicas-values.yaml").contains("cannot check this chart");
    }

    @Test
    void aTierThatStopsAsAWholeFailsEachFileSoTheTableIsPrinted() {
        Path chart = chart("latest-dialect");
        ChartCheck check = ChartCheck.of(chart, dev.nimchart.junit.RunSettings.get()).withValues(chart.resolve("ci")).withFuzz(0, ChartCheck.DEFAULT_FUZZ_SEED);
        assertThat(CheckChart.stoppedTier(check, Tier.API, new IllegalStateException("no kube-apiserver binary")))
                .as("the API-server tier's verdicts when it stops").hasSize(2)
                .allSatisfy(v -> assertThat(v.reason()).contains("the api tier stopped: no kube-apiserver binary"));
    }
}
