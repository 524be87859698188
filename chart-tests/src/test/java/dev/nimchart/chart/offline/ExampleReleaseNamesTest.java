package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.Examples;
import dev.nimchart.render.ChartUnderTest;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Every example gets a release (and cluster-tier namespace) named from its file name, cut to 30 characters: two files
 * that agree on their first 30 characters would share one, and the second install would fail on the first's namespace.
 */
class ExampleReleaseNamesTest {

    @Test
    void everyExampleHasAReleaseNameOfItsOwn() {
        Map<String, List<String>> byRelease = Examples.all().collect(Collectors.groupingBy(ChartUnderTest::releaseName,
                Collectors.mapping(p -> p.getFileName().toString(), Collectors.toList())));
        assertThat(byRelease.values().stream().filter(files -> files.size() > 1).toList())
                .as("examples whose file names agree on their first 30 characters (rename one)").isEmpty();
    }
}
