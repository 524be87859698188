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
 * The cluster tiers through the library's door on an umbrella chart (examples/charts/web-cache: a web Deployment and
 * Service, and the kv-cache StatefulSet vendored as a subchart under alias {@code cache}, condition
 * {@code cache.enabled}, draft-07 schemas in both) with no chart rules: each ci/ values file installs into the API
 * server and the real controllers bring the web pods and, where the condition leaves it on, the subchart's
 * StatefulSet to the replicas they ask for; each invalid/ file, refused by the subchart's schema or the parent's, is
 * refused by {@code helm install} with its expect-error text.
 */
class SubchartIT {

    @Test
    void anUmbrellaChartPassesTheApiServerAndControllerTiers() {
        Path chart = ChartUnderTest.chartDir().toAbsolutePath().getParent().getParent().resolve("examples/charts/web-cache");
        ChartCheck check = ChartCheck.of(chart).values(chart.resolve("ci")).fuzz(0, ChartCheck.DEFAULT_FUZZ_SEED)
                .workDir(Path.of("target", "subchart"));
        for (Tier tier : List.of(Tier.API, Tier.CONTROLLERS)) {
            List<Verdict> verdicts = check.verdicts(tier);
            assertThat(verdicts).as("%s verdicts of web-cache: three ci/ files and three refusals", tier.label()).hasSize(6)
                    .allSatisfy(v -> assertThat(v.reason()).as("%s on the %s tier", v.subject(), tier.label()).isNull());
        }
    }
}
