package dev.nimchart.chart.repository;

import dev.nimchart.render.Release;
import dev.nimchart.render.ChartUnderTest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Releases of the repository's chart as its tests install them: named after the first values file. */
public final class ChartReleases {

    private ChartReleases() {
    }

    /** A release of the chart in {@code namespace} with these values files (named after the first) and no --set values. */
    public static Release of(String namespace, Path file, Path... more) {
        List<Path> files = new ArrayList<>(List.of(file));
        files.addAll(List.of(more));
        return Release.of(ChartUnderTest.chartDir(), ChartUnderTest.releaseName(file), namespace, files);
    }

    /** As {@link #of(String, Path, Path...)}, with --set values. */
    public static Release of(String namespace, Path file, Map<String, String> sets) {
        return of(namespace, file).withSets(sets);
    }
}
