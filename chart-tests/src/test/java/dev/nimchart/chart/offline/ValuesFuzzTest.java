package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.fuzz.FuzzRun;
import dev.nimchart.chart.repository.NimLlmFuzzScenarios;
import dev.nimchart.chart.repository.NimLlmRules;
import dev.nimchart.judge.ValuesJudge;
import dev.nimchart.render.ChartUnderTest;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Values documents generated from values.schema.json (valid and near-valid, fixed seed: {@code -Dnim.fuzz.seed},
 * {@code -Dnim.fuzz.count}) each either render objects the Kubernetes API accepts or are refused with a clear
 * message: a schema error at a key path, or a preflight rule naming the key. Never a template crash, never an invalid
 * object. Every mistake but a null (which may only delete a default) is refused by values.schema.json itself, inside
 * the Kubernetes objects the chart passes through too; pass-through objects made from their Kubernetes definitions
 * render. Documents start from nim-llm's scenarios ({@link NimLlmFuzzScenarios}), so every workload kind, cache backend and
 * multi-node networking provider renders. A failing document is written to {@code target/fuzz-failures/<n>.yaml}. The judging is the library's
 * {@link FuzzRun} on the one judge ({@link ValuesJudge}), the run a downstream team's {@code ChartCheck} makes.
 */
class ValuesFuzzTest {

    private static final long SEED = Long.getLong("nim.fuzz.seed", 20260601L);
    private static final int COUNT = Integer.getInteger("nim.fuzz.count", 1000);

    @Test
    void everyGeneratedDocumentRendersValidObjectsOrIsRefusedClearly() {
        NimLlmRules rules = new NimLlmRules();
        ValuesJudge judge = new ValuesJudge(ChartUnderTest.chartDir(), dev.nimchart.junit.RunSettings.get(), rules.standardLabels(), rules.preflightTemplate());
        FuzzRun.Result result = new FuzzRun(judge, Path.of("target"), new NimLlmFuzzScenarios()).run(SEED, COUNT);
        System.out.println("values fuzz: " + result.summary());

        assertThat(result.failures()).as("%d documents crashed a template, rendered an invalid object or were refused unclearly"
                + " (each written under target/fuzz-failures); the first ones:%n%s", result.failures().size(),
                String.join("\n", result.failures().subList(0, Math.min(15, result.failures().size())))).isEmpty();
        assertThat(result.count("near-valid")).as("near-valid documents").isGreaterThanOrEqualTo(COUNT / 4);
        assertThat(result.count("refused by the schema")).as("schema refusals").isPositive();
        assertThat(result.count("refused by a rule of the chart")).as("preflight refusals (all from templates/validate/preflight.yaml)")
                .isPositive();
        assertThat(result.count("refused by the schema: a mistake inside a pass-through object"))
                .as("mistakes inside pass-through Kubernetes objects refused by the schema").isGreaterThanOrEqualTo(COUNT / 100);
        assertThat(result.count("rendered a pass-through object made from its Kubernetes schema"))
                .as("documents with a pass-through object made from its Kubernetes schema that rendered").isGreaterThanOrEqualTo(COUNT / 100);
        if (COUNT >= 1000) {
            for (String workload : NimLlmFuzzScenarios.WORKLOADS) {
                assertThat(result.count("rendered " + workload)).as("rendered %s documents", workload).isGreaterThanOrEqualTo(10);
            }
            for (String cache : NimLlmFuzzScenarios.CACHES) {
                assertThat(result.count("rendered cache " + cache)).as("rendered %s caches", cache).isGreaterThanOrEqualTo(10);
            }
            for (String provider : NimLlmFuzzScenarios.PROVIDERS) {
                assertThat(result.count("rendered multi-node networking " + provider))
                        .as("rendered multi-node %s documents", provider).isGreaterThanOrEqualTo(5);
            }
        }
    }
}
