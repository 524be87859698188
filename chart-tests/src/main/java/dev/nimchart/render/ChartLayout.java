package dev.nimchart.render;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * What a chart directory holds beside what its templates render: the CRD directories Helm installs before the release
 * (the chart's own {@code crds/} and those of the subcharts vendored under {@code charts/}), and whether any of its
 * templates declares a Helm hook.
 */
public final class ChartLayout {

    /** The annotation that makes an object a hook (Helm creates it outside the release, at its events). */
    public static final String HOOK_ANNOTATION = "helm.sh/hook";

    private ChartLayout() {
    }

    /** The existing {@code crds/} directories of the chart and of its vendored subcharts, the chart's own first. */
    public static List<Path> crdDirs(Path chartDir) {
        List<Path> dirs = new ArrayList<>();
        for (Path chart : chartAndSubcharts(chartDir)) {
            if (Files.isDirectory(chart.resolve("crds"))) {
                dirs.add(chart.resolve("crds"));
            }
        }
        return dirs;
    }

    /**
     * Whether a template of the chart or of a vendored subchart names {@value #HOOK_ANNOTATION}: the text is enough, as
     * a hook is declared by that annotation key; a chart that builds the key from pieces is not seen.
     */
    public static boolean declaresHooks(Path chartDir) {
        for (Path chart : chartAndSubcharts(chartDir)) {
            Path templates = chart.resolve("templates");
            if (!Files.isDirectory(templates)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(templates)) {
                for (Path f : files.filter(Files::isRegularFile).toList()) {
                    if (Files.readString(f).contains(HOOK_ANNOTATION)) {
                        return true;
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the templates under " + templates, e);
            }
        }
        return false;
    }

    private static List<Path> chartAndSubcharts(Path chartDir) {
        List<Path> charts = new ArrayList<>(List.of(chartDir));
        Path sub = chartDir.resolve("charts");
        if (Files.isDirectory(sub)) {
            try (Stream<Path> entries = Files.list(sub)) {
                entries.filter(Files::isDirectory).sorted().forEach(charts::add);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list " + sub, e);
            }
        }
        return charts;
    }
}
