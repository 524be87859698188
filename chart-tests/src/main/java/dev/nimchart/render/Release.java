package dev.nimchart.render;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A Helm release of a chart: the chart directory, the release's name and namespace, its values files (in order, as
 * {@code --values}) and {@code --set} values (in order). A plain value, the one vocabulary of every tier: {@link
 * ChartRenderer#render(Release)} renders it, {@code HelmReleases} installs, upgrades, tests, rolls back and uninstalls
 * it, and {@code ControllerSession.install(release)} installs it and returns an {@code InstalledRelease}.
 */
public record Release(Path chart, String name, String namespace, List<Path> valuesFiles, Map<String, String> sets) {

    public Release {
        Objects.requireNonNull(chart, "chart");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(namespace, "namespace");
        valuesFiles = List.copyOf(valuesFiles);
        sets = Collections.unmodifiableMap(new LinkedHashMap<>(sets));
    }

    /** A release of the chart with these values files and no {@code --set} values. */
    public static Release of(Path chart, String name, String namespace, List<Path> valuesFiles) {
        return new Release(chart, name, namespace, valuesFiles, Map.of());
    }

    /** The same release with more values files after its own (e.g. an upgrade's changes). */
    public Release withMoreValues(Path... files) {
        List<Path> all = new ArrayList<>(valuesFiles);
        all.addAll(List.of(files));
        return new Release(chart, name, namespace, all, sets);
    }

    /** The same release with these {@code --set} values instead of its own. */
    public Release withSets(Map<String, String> newSets) {
        return new Release(chart, name, namespace, valuesFiles, newSets);
    }

    /** The same release of another chart directory (e.g. a copy with a bumped version). */
    public Release ofChart(Path otherChart) {
        return new Release(otherChart, name, namespace, valuesFiles, sets);
    }
}
