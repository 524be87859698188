package dev.nimchart.chart.repository;

import dev.nimchart.settings.Settings;
import dev.nimchart.settings.SettingsFromProperties;
import dev.nimchart.ChartCheck;
import dev.nimchart.render.ChartUnderTest;
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
        Settings settings = SettingsFromProperties.shared();
        List<Path> dirs = new ArrayList<>();
        dirs.add(settings.examplesDir());
        dirs.addAll(settings.valuesDirs());
        return ChartCheck.of(ChartUnderTest.chartDir(), dev.nimchart.junit.RunSettings.get()).withValues(dirs).withRules(new NimLlmRules());
    }
}
