package dev.nimchart.render;

import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.values.ValuesMerger;
import dev.nimchart.junit.RunSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Test support, not the library: the chart of this run's settings ({@link RunSettings}, {@code -Dnim.chart.dir}; this
 * repository's charts/nim-llm by default) as the repository's own tests render it: one release per values file, in
 * namespace {@value #NAMESPACE}. Library users render a chart of their choice with {@link ChartRenderer} (or run the
 * checks through {@code dev.nimchart.ChartCheck}).
 */
public final class ChartUnderTest {

    public static final String NAMESPACE = "nim";
    private static final Path CHART_DIR = RunSettings.get().chartDir();
    private static final ChartRenderer RENDERER = new ChartRenderer(CHART_DIR, RunSettings.get());

    private ChartUnderTest() {
    }

    public static Path chartDir() {
        return CHART_DIR;
    }

    /** The renderer of the chart. */
    public static ChartRenderer renderer() {
        return RENDERER;
    }

    /** The chart's name and version from its Chart.yaml. */
    public static ChartYaml chart() {
        return ChartYaml.read(chartDir());
    }

    /** A release name derived from the values file name: see {@link ChartRenderer#releaseName(Path)}. */
    public static String releaseName(Path valuesFile) {
        return ChartRenderer.releaseName(valuesFile);
    }

    public static RenderedManifest render(Path valuesFile) {
        return render(valuesFile, Map.of());
    }

    /** Renders with one values file and --set overrides; Helm lookups go to the {@link LookupStub}. */
    public static RenderedManifest render(Path valuesFile, Map<String, String> setValues) {
        return render(List.of(valuesFile), setValues);
    }

    /** Renders with values files in order (the release is named after the first) and --set overrides. */
    public static RenderedManifest render(List<Path> valuesFiles, Map<String, String> setValues) {
        return RENDERER.render(releaseName(valuesFiles.get(0)), NAMESPACE, valuesFiles, setValues);
    }

    /** Renders values files (the release named after the first) as a release in another namespace than {@value #NAMESPACE}. */
    public static RenderedManifest renderIn(String namespace, Path valuesFile, Path... moreValuesFiles) {
        List<Path> files = new java.util.ArrayList<>(List.of(valuesFile));
        files.addAll(List.of(moreValuesFiles));
        return RENDERER.render(releaseName(valuesFile), namespace, files, Map.of());
    }

    /** The values Helm would validate and render with: the chart's values.yaml merged with the file. */
    public static Map<String, Object> values(Path valuesFile) {
        return ValuesMerger.mergedValues(chartDir(), List.of(valuesFile));
    }
}
