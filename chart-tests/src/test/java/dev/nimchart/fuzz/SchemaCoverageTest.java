package dev.nimchart.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.agreement.AgreementScenarios;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.values.ValuesSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SchemaCoverageTest {

    private static final ValuesSchema SCHEMA = ValuesSchema.load(ChartUnderTest.chartDir());

    @Test
    void aKeyIsReachedWhenADocumentHoldsAValueAtItsPathNullIncluded() {
        SchemaCoverage coverage = new SchemaCoverage(SCHEMA);
        Map<String, Object> model = new LinkedHashMap<>();
        model.put("healthPort", null);
        coverage.add(Map.of("model", model, "inferencePool", Map.of("epp", Map.of("replicas", 2))));
        assertThat(coverage.reached()).contains("model", "model.healthPort", "inferencePool", "inferencePool.epp", "inferencePool.epp.replicas")
                .doesNotContain("model.openaiPort", "inferencePool.enabled");
        assertThat(coverage.notReached()).contains("model.openaiPort").hasSize(coverage.total() - coverage.reached().size());
        assertThat(coverage.summary()).startsWith(coverage.reached().size() + "/" + coverage.total() + " keys");
    }

    @Test
    void keysWithDotsAreReachedByTheirOwnPath() {
        SchemaCoverage coverage = new SchemaCoverage(SCHEMA);
        coverage.add(Map.of("resources", Map.of("limits", Map.of("nvidia.com/gpu", 1))));
        assertThat(coverage.reached()).contains("resources");
        assertThat(coverage.ratio()).isGreaterThan(0).isLessThan(0.05);
    }

    @Test
    void theAgreementGeneratorsPreferThisRoundsKeysAndReachMostOfTheSchemaInAThousandDocuments() {
        ValuesFuzzer fuzzer = new ValuesFuzzer(ChartUnderTest.chartDir(), 20261129L, new AgreementScenarios());
        SchemaCoverage coverage = new SchemaCoverage(SCHEMA);
        for (int i = 0; i < 1000; i++) {
            FuzzDocument doc = fuzzer.document(i);
            if (!doc.nearValid()) {
                coverage.add(doc.values());
            }
        }
        assertThat(coverage.reached()).as("this round's keys").contains("inferencePool.epp.extraArgs", "inferencePool.epp.args",
                "autoscaling.keda.triggers", "autoscaling.nimMetrics", "inferencePool.objective.apiVersion");
        System.out.println("agreement generators, 1000 documents of seed 20261129: " + coverage.summary() + "; not reached: " + coverage.notReached());
        assertThat(coverage.ratio()).as("keys not reached: %s", coverage.notReached()).isGreaterThanOrEqualTo(0.95);
        assertThat(List.copyOf(coverage.reached())).isNotEmpty();
    }
}
