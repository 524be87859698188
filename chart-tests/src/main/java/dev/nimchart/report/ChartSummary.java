package dev.nimchart.report;

import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.settings.SettingsFromProperties;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.render.ChartRefusedException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The README's first command: renders one values file and prints what the release would create. */
public final class ChartSummary {

    private ChartSummary() {
    }

    public static void main(String[] args) {
        Path file = Path.of(args.length > 0 && !args[0].isBlank() ? args[0]
                : SettingsFromProperties.shared().examplesDir().resolve("single-node-minimal.yaml").toString());
        if (!Files.isRegularFile(file)) {
            System.err.println("no such values file: " + file.toAbsolutePath());
            System.exit(2);
        }
        try {
            RenderedManifest manifest = ChartUnderTest.render(file);
            System.out.println("nim-llm release \"" + ChartUnderTest.releaseName(file) + "\" in namespace " + ChartUnderTest.NAMESPACE
                    + ", rendered from " + file);
            System.out.println();
            System.out.print(ManifestSummary.describe(manifest));
        } catch (ChartRefusedException refused) {
            System.err.println("The chart refuses " + file + ":");
            System.err.println(refused.getMessage());
            System.exit(1);
        }
        System.exit(0);
    }
}
