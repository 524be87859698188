package dev.nimchart.chart.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.ChartCheck;
import dev.nimchart.Tier;
import dev.nimchart.Verdict;
import dev.nimchart.render.ChartUnderTest;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The cluster tiers through the library's door on a chart that is not nim-llm (examples/charts/plain-web: no values
 * schema, no GPU, a Deployment and a Service) with no chart rules: each ci/ values file installs into the API server,
 * and the real controllers bring its Deployment to the replicas it asks for, every pod Ready on the fake nodes.
 */
class AnyChartIT {

    @Test
    void aPlainChartPassesTheApiServerAndControllerTiers() {
        Path chart = ChartUnderTest.chartDir().toAbsolutePath().getParent().getParent().resolve("examples/charts/plain-web");
        ChartCheck check = ChartCheck.of(chart).values(chart.resolve("ci")).fuzz(0, ChartCheck.DEFAULT_FUZZ_SEED)
                .workDir(Path.of("target", "any-chart"));
        for (Tier tier : List.of(Tier.API, Tier.CONTROLLERS)) {
            List<Verdict> verdicts = check.verdicts(tier);
            assertThat(verdicts).as("%s verdicts of plain-web", tier.label()).hasSize(2)
                    .allSatisfy(v -> assertThat(v.reason()).as("%s on the %s tier", v.subject(), tier.label()).isNull());
        }
    }
}
