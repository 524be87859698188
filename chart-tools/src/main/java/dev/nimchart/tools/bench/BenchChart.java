package dev.nimchart.tools.bench;

import dev.nimchart.render.ChartRenderer;
import dev.nimchart.settings.Settings;
import dev.nimchart.values.ValuesMerger;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** The chart the benchmarks measure, from the settings the command's main read: its directory, renderer and a file's merged values. */
record BenchChart(Settings settings, ChartRenderer renderer) {

    static BenchChart of(Settings settings) {
        return new BenchChart(settings, new ChartRenderer(settings.chartDir(), settings));
    }

    Path dir() {
        return settings.chartDir();
    }

    /** The values Helm would validate and render with: the chart's values.yaml merged with the file. */
    Map<String, Object> values(Path valuesFile) {
        return ValuesMerger.mergedValues(dir(), List.of(valuesFile));
    }
}
