package dev.nimchart.chart.offline;

import dev.nimchart.tiers.Tier;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.ChartCheck;
import dev.nimchart.tiers.ChartRules;
import dev.nimchart.Verdict;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Refusals from anywhere in a chart that is not nim-llm: examples/charts/schema-web refuses
 * {@code ci/invalid/tls-without-secret.yaml} with a {@code required} in templates/deployment.yaml and
 * {@code ci/invalid/node-port-on-cluster-ip.yaml} with a {@code fail} in a helper of templates/_helpers.tpl. With no
 * chart rules both pass the expect-error rule; a chart whose rules name a preflight template holds every refusal to it.
 */
class AnyChartRefusalTest {

    private static final String REQUIRED = "tls-without-secret.yaml";
    private static final String FAIL_IN_HELPER = "node-port-on-cluster-ip.yaml";

    @Test
    void aRequiredInATemplateAndAFailInAHelperRefuseAsTheirExpectErrorSays() {
        Map<String, Verdict> verdicts = verdicts(ChartRules.NONE);

        assertThat(verdicts).as("the ci/invalid/ files").containsKeys(REQUIRED, FAIL_IN_HELPER);
        assertThat(verdicts.values()).allSatisfy(v -> assertThat(v.reason()).as(v.subject()).isNull());
    }

    @Test
    void aPreflightTemplateOfTheChartsRulesHoldsEveryRefusalToIt() {
        ChartRules preflight = new ChartRules() {
            @Override
            public Optional<String> preflightTemplate() {
                return Optional.of("validate/preflight.yaml");
            }
        };
        Map<String, Verdict> verdicts = verdicts(preflight);

        for (String refused : new String[] {REQUIRED, FAIL_IN_HELPER}) {
            assertThat(verdicts.get(refused).reason()).as(refused)
                    .contains("expect-error names a rule of the chart, but the refusal did not come from"
                            + " schema-web/templates/validate/preflight.yaml");
        }
        assertThat(verdicts.get("default-values.yaml").reason()).as("a file that installs").isNull();
    }

    private static Map<String, Verdict> verdicts(ChartRules rules) {
        Path chart = AnyChartFuzzTest.schemaWeb();
        return ChartCheck.of(chart, dev.nimchart.junit.RunSettings.get()).withValues(chart.resolve("ci")).withRules(rules).withFuzz(0, 0).verdicts(Tier.OFFLINE).stream()
                .collect(Collectors.toMap(v -> Path.of(v.subject()).getFileName().toString(), v -> v));
    }
}
