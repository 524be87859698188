package dev.nimchart.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.NimLlmFuzzScenarios;
import dev.nimchart.values.ValuesMerger;
import dev.nimchart.values.ValuesSchemaValidator;
import dev.nimchart.render.ChartUnderTest;
import java.util.EnumSet;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class ValuesFuzzerTest {

    private static final ValuesFuzzer FUZZER = new ValuesFuzzer(ChartUnderTest.chartDir(), 42, new NimLlmFuzzScenarios());

    @Test
    void aSeedAndAnIndexAlwaysGiveTheSameDocument() {
        FuzzDocument again = new ValuesFuzzer(ChartUnderTest.chartDir(), 42, new NimLlmFuzzScenarios()).document(7);

        assertThat(again.toYaml()).isEqualTo(FUZZER.document(7).toYaml());
        assertThat(FUZZER.document(8).toYaml()).isNotEqualTo(again.toYaml());
        assertThat(new ValuesFuzzer(ChartUnderTest.chartDir(), 43, new NimLlmFuzzScenarios()).document(7).toYaml()).isNotEqualTo(again.toYaml());
    }

    @Test
    void documentsWithoutAMutationPassTheSchemaAndNearValidOnesCarryEveryKindOfMistake() {
        ValuesSchemaValidator schema = new ValuesSchemaValidator(ChartUnderTest.chartDir());
        Set<ValuesMutator.Kind> kinds = EnumSet.noneOf(ValuesMutator.Kind.class);
        Set<String> workloads = new TreeSet<>();
        for (int i = 0; i < 300; i++) {
            FuzzDocument doc = FUZZER.document(i);
            workloads.add(doc.scenario().description());
            if (doc.nearValid()) {
                kinds.add(ValuesMutator.Kind.valueOf(doc.mutation().substring(0, doc.mutation().indexOf(' '))));
            } else {
                assertThat(schema.validate(ValuesMerger.merge(defaults(), doc.values()))).as(doc.toYaml()).isEmpty();
            }
        }
        assertThat(kinds).containsExactlyInAnyOrder(ValuesMutator.Kind.values());
        assertThat(workloads).as("scenarios").hasSizeGreaterThan(30);
    }

    /** A schema with nothing to break or to draw (no declared key): valid empty documents, and no scenario's keys. */
    @Test
    void aSchemaWithoutKeysGivesEmptyDocuments(@org.junit.jupiter.api.io.TempDir java.nio.file.Path chart) throws java.io.IOException {
        java.nio.file.Files.writeString(chart.resolve("Chart.yaml"), "apiVersion: v2\nname: bare\nversion: 0.1.0\n");
        java.nio.file.Files.writeString(chart.resolve("values.yaml"), "{}\n");
        java.nio.file.Files.writeString(chart.resolve("values.schema.json"), "{\"type\": \"object\"}\n");
        ValuesFuzzer fuzzer = new ValuesFuzzer(chart, 42, FuzzScenarios.NONE);

        for (int i = 0; i < 50; i++) {
            FuzzDocument doc = fuzzer.document(i);
            assertThat(doc.values()).as(doc.toYaml()).isEmpty();
            assertThat(doc.scenario()).isEqualTo(FuzzScenario.NONE);
        }
    }

    private static java.util.Map<String, Object> defaults() {
        return ValuesMerger.loadYaml(ChartUnderTest.chartDir().resolve("values.yaml"));
    }
}
