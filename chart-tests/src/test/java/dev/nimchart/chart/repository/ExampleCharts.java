package dev.nimchart.chart.repository;

import dev.nimchart.ChartCheck;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.sessions.TierSessions;
import java.nio.file.Path;

/**
 * The charts under this repository's examples/charts/ (charts that are not nim-llm), and the library's door on any
 * chart on a JUnit run's tier environments.
 */
public final class ExampleCharts {

    private ExampleCharts() {
    }

    /** examples/charts/{@code name}: beside the chart under test's parent directory. */
    public static Path named(String name) {
        return ChartUnderTest.chartDir().toAbsolutePath().getParent().getParent().resolve("examples/charts").resolve(name);
    }

    /** The library's door on {@code chartDir}, with this run's settings, on the run's tier environments. */
    public static ChartCheck check(Path chartDir, TierSessions tiers) {
        return ChartCheck.of(chartDir, dev.nimchart.junit.RunSettings.get()).withSessions(tiers);
    }
}
