package dev.nimchart.tools.commands;

import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartRefusedException;
import dev.nimchart.render.ChartRenderer;
import dev.nimchart.render.ChartYaml;
import dev.nimchart.report.ManifestSummary;
import dev.nimchart.settings.Settings;
import dev.nimchart.settings.SettingsFromProperties;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The README's first command, {@code ci/show-example.sh --offline} (this repository's, outside the library's jar):
 * renders one values file and prints what the
 * release would create. Its {@code main} is the one place it reads system properties and names this repository's
 * default example; {@link #print} takes the settings.
 */
public final class ChartSummary {

    /** The repository's default example of the command. */
    static final String DEFAULT_EXAMPLE = "single-node-minimal.yaml";
    private static final String NAMESPACE = "nim";

    private ChartSummary() {
    }

    public static void main(String[] args) {
        Settings settings = SettingsFromProperties.fromSystemProperties();
        Path file = Path.of(args.length > 0 && !args[0].isBlank() ? args[0] : settings.examplesDir().resolve(DEFAULT_EXAMPLE).toString());
        System.exit(print(settings, file));
    }

    /** Renders the settings' chart with this values file and prints what the release would create; returns the exit code. */
    public static int print(Settings settings, Path file) {
        if (!Files.isRegularFile(file)) {
            System.err.println("no such values file: " + file.toAbsolutePath());
            return 2;
        }
        Path chartDir = settings.chartDir();
        String release = ChartRenderer.releaseName(file);
        try {
            RenderedManifest manifest = new ChartRenderer(chartDir, settings).render(release, NAMESPACE, List.of(file), Map.of());
            System.out.println(ChartYaml.read(chartDir).name() + " release \"" + release + "\" in namespace " + NAMESPACE
                    + ", rendered from " + file);
            System.out.println();
            System.out.print(ManifestSummary.describe(manifest));
        } catch (ChartRefusedException refused) {
            System.err.println("The chart refuses " + file + ":");
            System.err.println(refused.getMessage());
            return 1;
        }
        return 0;
    }
}
