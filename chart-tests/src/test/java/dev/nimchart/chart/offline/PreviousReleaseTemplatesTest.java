package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.Examples;
import dev.nimchart.chart.repository.PodTemplateChanges;
import dev.nimchart.chart.repository.PreviousRelease;
import dev.nimchart.chart.repository.TemplateChangeReasons;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartRenderer;
import dev.nimchart.render.ChartUnderTest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Offline, the first half of what PreviousReleaseUpgradeIT proves on real controllers: every example of the previous
 * released chart version ({@link PreviousRelease}), rendered with that chart and with this one from the same values
 * file, changes a pod template only where an entry of template-change-reasons.yaml, quoting this version's CHANGELOG,
 * explains it. An example the previous release did not have must be named as new in this version's CHANGELOG section.
 */
class PreviousReleaseTemplatesTest {

    private static final TemplateChangeReasons REASONS = TemplateChangeReasons.load();

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.ALL)
    void everyPodTemplateChangeFromThePreviousReleaseIsInTheChangelog(Path example) throws java.io.IOException {
        PreviousRelease previous = PreviousRelease.required();
        String name = example.getFileName().toString();
        Optional<Path> values = previous.example(name);
        if (values.isEmpty()) {
            TemplateChangeReasons.assertNewExampleAnnounced(name, previous);
            return;
        }
        String release = ChartUnderTest.releaseName(example);
        RenderedManifest before = new ChartRenderer(previous.chartDir(), dev.nimchart.junit.RunSettings.get()).render(release, ChartUnderTest.NAMESPACE, List.of(values.get()), Map.of());
        RenderedManifest after = ChartUnderTest.renderer().render(release, ChartUnderTest.NAMESPACE, List.of(values.get()), Map.of());
        assertThat(REASONS.unexplained(name, PodTemplateChanges.between(before, after)))
                .as("%s: pod template changes from chart %s that no entry of template-change-reasons.yaml explains", name, previous.version())
                .isEmpty();
    }
}
