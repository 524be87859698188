package dev.nimchart.render;

import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.values.ValuesMerger;
import dev.nimchart.values.HarnessPaths;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The nim-llm chart as the harness renders it: one release per values file, in namespace {@value #NAMESPACE}. */
public final class ChartUnderTest {

    public static final String NAMESPACE = "nim";
    private static final HarnessPaths PATHS = HarnessPaths.fromSystemProperties();
    private static final ChartRenderer RENDERER = new ChartRenderer(PATHS.chartDir());

    private ChartUnderTest() {
    }

    public static Path chartDir() {
        return PATHS.chartDir();
    }

    /** A release name derived from the values file name: lower case, DNS-safe, at most 30 characters. */
    public static String releaseName(Path valuesFile) {
        String base = valuesFile.getFileName().toString().replaceFirst("\\.ya?ml$", "").toLowerCase(Locale.ROOT);
        String name = base.replaceAll("[^a-z0-9-]+", "-");
        name = name.length() > 30 ? name.substring(0, 30) : name;
        return name.replaceAll("^-+|-+$", "");
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
        LookupStub.shared();
        return RENDERER.render(releaseName(valuesFiles.get(0)), NAMESPACE, valuesFiles, setValues);
    }

    /** Renders values files (the release named after the first) as a release in another namespace than {@value #NAMESPACE}. */
    public static RenderedManifest renderIn(String namespace, Path valuesFile, Path... moreValuesFiles) {
        LookupStub.shared();
        List<Path> files = new java.util.ArrayList<>(List.of(valuesFile));
        files.addAll(List.of(moreValuesFiles));
        return RENDERER.render(releaseName(valuesFile), namespace, files, Map.of());
    }

    /** The values Helm would validate and render with: the chart's values.yaml merged with the file. */
    public static Map<String, Object> values(Path valuesFile) {
        return ValuesMerger.mergedValues(chartDir(), List.of(valuesFile));
    }
}
