package dev.nimchart.values;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HarnessPathsTest {

    @TempDir
    Path dir;

    @Test
    void propertiesWinAndRelativeOnesResolveAgainstTheWorkingDir() {
        HarnessPaths paths = new HarnessPaths(Map.of(
                HarnessPaths.CHART_DIR, "/charts/other",
                HarnessPaths.EXAMPLES_DIR, "../examples")::get, dir.resolve("work"));

        assertThat(paths.chartDir()).isEqualTo(Path.of("/charts/other"));
        assertThat(paths.examplesDir()).isEqualTo(dir.resolve("examples"));
    }

    @Test
    void extraValuesDirsSplitOnCommasAndThePathSeparator() {
        String dirs = "/a, /b" + File.pathSeparator + "/c,,";
        HarnessPaths paths = new HarnessPaths(Map.of(HarnessPaths.VALUES_DIRS, dirs)::get, dir);

        assertThat(paths.extraValuesDirs()).containsExactly(Path.of("/a"), Path.of("/b"), Path.of("/c"));
    }

    @Test
    void noOrBlankValuesDirsMeansNone() {
        assertThat(new HarnessPaths(Map.<String, String>of()::get, dir).extraValuesDirs()).isEmpty();
        assertThat(new HarnessPaths(Map.of(HarnessPaths.VALUES_DIRS, " ")::get, dir).extraValuesDirs()).isEmpty();
    }

    @Test
    void withoutPropertiesTheRepositoryIsFoundAboveTheWorkingDir() throws Exception {
        Files.createDirectories(dir.resolve("charts/nim-llm"));
        Path workingDir = Files.createDirectories(dir.resolve("chart-tests/target"));
        HarnessPaths paths = new HarnessPaths(Map.<String, String>of()::get, workingDir);

        assertThat(paths.chartDir()).isEqualTo(dir.resolve("charts/nim-llm"));
        assertThat(paths.examplesDir()).isEqualTo(dir.resolve("values-examples"));
    }

    @Test
    void withoutPropertiesOrRepositoryTheErrorSaysWhatToSet() {
        HarnessPaths paths = new HarnessPaths(Map.<String, String>of()::get, dir);

        assertThatThrownBy(paths::chartDir).hasMessageContaining("-Dnim.chart.dir");
    }
}
