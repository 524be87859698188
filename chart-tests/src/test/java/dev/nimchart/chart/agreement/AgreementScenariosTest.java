package dev.nimchart.chart.agreement;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.fuzz.FuzzDocument;
import dev.nimchart.fuzz.ValuesFuzzer;
import dev.nimchart.render.ChartUnderTest;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The differential run's documents: the same for a seed and index, every surface reached, and the keys each surface set
 * named in the document's traits (so that a refusal naming one of them is checked against the validators).
 */
class AgreementScenariosTest {

    @Test
    void documentsAreReproducibleAndReachEverySurface() {
        ValuesFuzzer fuzzer = new ValuesFuzzer(ChartUnderTest.chartDir(), 7L, new AgreementScenarios());
        ValuesFuzzer again = new ValuesFuzzer(ChartUnderTest.chartDir(), 7L, new AgreementScenarios());
        Set<String> surfaces = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            FuzzDocument doc = fuzzer.document(i);
            assertThat(again.document(i).toYaml()).as("document %d of seed 7, made twice", i).isEqualTo(doc.toYaml());
            List<String> traits = doc.scenario().traits();
            traits.stream().filter(t -> t.startsWith(AgreementScenarios.SURFACE)).forEach(t -> surfaces.add(t.substring(AgreementScenarios.SURFACE.length())));
            assertThat(traits).as("document %d names the keys its surfaces set", i).anyMatch(t -> t.startsWith(AgreementScenarios.SURFACE_KEY));
        }
        assertThat(surfaces).containsExactlyInAnyOrderElementsOf(AgreementScenarios.surfaces());
    }

    @Test
    void aRefusalIsCheckedWhenItNamesASurfaceKeyAndStandsForAValidator() {
        assertThat(AgreementRun.namesAny("at '/kueue/queueName': 'A' does not match", List.of("kueue.queueName"))).isTrue();
        assertThat(AgreementRun.namesAny("at '/env/0/valueFrom/fieldRef': 'allOf' failed", List.of("env"))).isTrue();
        assertThat(AgreementRun.namesAny("nim-llm: multiNode.ray.port is 8265, ...", List.of("kueue.queueName"))).isFalse();
        assertThat(AgreementRun.claimsAValidator("nim-llm: multiNode.ray.port is 8265 ...: ray start refuses to start")).isTrue();
        assertThat(AgreementRun.claimsAValidator("nim-llm: multiNode.ray.port is 8000, the same as model.openaiPort")).isFalse();
        assertThat(AgreementRun.firstLine("values don't meet ...: nim-llm: - at '/kueue/queueName': 'A' does not match pattern"))
                .isEqualTo("at '/kueue/queueName'");
    }
}
