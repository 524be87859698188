package dev.nimchart.chart.repository;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.render.ChartUnderTest;
import org.junit.jupiter.api.Test;

class PreviousReleaseTest {

    @Test
    void thePreviousVersionIsTheChangelogEntryRightBelowTheCurrentOne() {
        String changelog = "# Changelog\n\n## [1.15.0] - 2026-11-29\n\n- new\n\n## [1.14.0] - 2026-11-27\n\n- old\n\n## [1.13.0] - x\n";
        assertThat(PreviousRelease.previousChangelogVersion(changelog, "1.15.0")).isEqualTo("1.14.0");
        assertThat(PreviousRelease.previousChangelogVersion(changelog, "1.14.0")).isEqualTo("1.13.0");
        assertThat(PreviousRelease.previousChangelogVersion(changelog, "1.13.0")).isEmpty();
    }

    @Test
    void theRecordedReleaseIsInThisClonesHistoryWithItsVersion() {
        PreviousRelease previous = PreviousRelease.required();
        assertThat(previous.version()).isEqualTo(PreviousRelease.previousChangelogVersion(
                readChangelog(), ChartUnderTest.chart().version()));
        assertThat(previous.chartDir().resolve("Chart.yaml")).content().contains("version: " + previous.version());
        assertThat(previous.examplesDir()).isDirectory();
    }

    private static String readChangelog() {
        try {
            return java.nio.file.Files.readString(ChartUnderTest.chartDir().resolve("CHANGELOG.md"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
