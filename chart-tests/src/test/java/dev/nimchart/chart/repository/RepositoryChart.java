package dev.nimchart.chart.repository;

import dev.nimchart.ChartCheck;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.values.HarnessPaths;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * This repository's chart through the library's door: the chart of {@code -Dnim.chart.dir}, values-examples/ (and the
 * {@code -Dnim.values.dirs} of a downstream team), with nim-llm's own rules ({@link NimLlmRules}) switched on.
 */
public final class RepositoryChart {

    private RepositoryChart() {
    }

    public static ChartCheck check() {
        HarnessPaths paths = HarnessPaths.fromSystemProperties();
        List<Path> dirs = new ArrayList<>();
        dirs.add(paths.examplesDir());
        dirs.addAll(paths.extraValuesDirs());
        return ChartCheck.of(ChartUnderTest.chartDir()).values(dirs).rules(new NimLlmRules());
    }
}
