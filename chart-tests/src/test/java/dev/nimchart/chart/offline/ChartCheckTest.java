package dev.nimchart.chart.offline;

import dev.nimchart.junit.DynamicChecks;
import dev.nimchart.settings.SettingsFromProperties;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.ChartCheck;
import dev.nimchart.tiers.Tier;
import dev.nimchart.Verdict;
import dev.nimchart.chart.repository.ChartCopy;
import dev.nimchart.chart.repository.NimLlmRules;
import dev.nimchart.render.ChartRenderer;
import dev.nimchart.render.ChartUnderTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library's front door as a downstream team uses it: the chart vendored and renamed {@code acme-nim}, checked with
 * values directories, one verdict (one dynamic test) per values file.
 */
class ChartCheckTest {

    private static final Path EXAMPLES = SettingsFromProperties.shared().examplesDir();

    /** The chart copied under target/ with another name in Chart.yaml, as a team that vendors it would. */
    static Path renamedCopy(String name) throws IOException {
        Path copy = ChartCopy.of(ChartUnderTest.chartDir(), name + "-", p -> false);
        Path chartYaml = copy.resolve("Chart.yaml");
        String text = Files.readString(chartYaml);
        String renamed = text.replaceFirst("(?m)^name: .*$", "name: " + name);
        assertThat(renamed).isNotEqualTo(text);
        Files.writeString(chartYaml, renamed);
        return copy;
    }

    /**
     * A sample of the examples and refusals on the renamed copy (every file on the chart itself is
     * {@link RepositoryExamplesTest}'s): the names in labels, template paths and refusals follow the copy's Chart.yaml.
     * nim-llm's rules are switched on, so its fuzz documents start from nim-llm's scenarios there too.
     */
    @TestFactory
    Stream<DynamicNode> examplesAndRefusalsPassOnTheChartRenamedAcmeNim(@TempDir Path values) throws IOException {
        Path acme = renamedCopy("acme-nim");
        String labelled = new ChartRenderer(acme, dev.nimchart.junit.RunSettings.get()).render("r", "nim", List.of(EXAMPLES.resolve("single-node-minimal.yaml")), Map.of())
                .objects().get(0).labels().get("app.kubernetes.io/name").toString();
        assertThat(labelled).as("the copy renders as acme-nim").isEqualTo("acme-nim");
        Path invalid = Files.createDirectories(values.resolve("invalid"));
        for (String f : List.of("single-node-minimal.yaml", "multi-node-llama-3.1-405b-lws.yaml", "multi-node-llama-3.1-405b-mpijob.yaml",
                "single-node-production-features.yaml")) {
            Files.copy(EXAMPLES.resolve(f), values.resolve(f));
        }
        try (Stream<Path> refusals = Files.list(EXAMPLES.resolve("invalid"))) {
            List<Path> sorted = refusals.sorted().toList();
            for (int i = 0; i < sorted.size(); i += 10) {
                Files.copy(sorted.get(i), invalid.resolve(sorted.get(i).getFileName()));
            }
        }
        return DynamicChecks.of(ChartCheck.of(acme, dev.nimchart.junit.RunSettings.get()).withValues(values).withRules(new NimLlmRules()).withFuzz(50, 7).withWorkDir(Path.of("target", "chart-check"))
                .offlineTests());
    }

    @Test
    void oneBadFileIsOneFailureWithItsReasonAndTheOthersPass(@TempDir Path dir) throws IOException {
        Files.copy(EXAMPLES.resolve("single-node-minimal.yaml"), dir.resolve("good.yaml"));
        Files.writeString(dir.resolve("typo.yaml"), "replicaCount: 1\nimagee:\n  tag: \"1.8.4\"\n");
        Path invalid = Files.createDirectories(dir.resolve("invalid"));
        Files.copy(EXAMPLES.resolve("invalid/autoscaling-min-above-max.yaml"), invalid.resolve("refused-as-expected.yaml"));
        Files.writeString(invalid.resolve("wrong-text.yaml"), "# expect-error: at '/replicaCount': got string\nreplicaCount: -1\n");
        Files.writeString(invalid.resolve("no-expect-line.yaml"), "replicaCount: \"two\"\n");
        Files.writeString(invalid.resolve("not-refused.yaml"), "# expect-error: at '/replicaCount': minimum\nreplicaCount: 2\n");

        Map<String, Verdict> verdicts = new java.util.TreeMap<>();
        ChartCheck.of(renamedCopy("acme-nim"), dev.nimchart.junit.RunSettings.get()).withValues(dir).withFuzz(0, 1).verdicts(Tier.OFFLINE)
                .forEach(v -> verdicts.put(Path.of(v.subject()).getFileName().toString(), v));

        assertThat(verdicts.values()).allSatisfy(v -> assertThat(v.tier()).isEqualTo(Tier.OFFLINE));
        assertThat(verdicts.keySet()).containsExactly("good.yaml", "no-expect-line.yaml", "not-refused.yaml",
                "refused-as-expected.yaml", "typo.yaml", "wrong-text.yaml");
        assertThat(verdicts.get("good.yaml").ok()).as(String.valueOf(verdicts.get("good.yaml").reason())).isTrue();
        assertThat(verdicts.get("refused-as-expected.yaml").ok()).as(String.valueOf(verdicts.get("refused-as-expected.yaml").reason())).isTrue();
        assertThat(verdicts.get("typo.yaml").reason()).contains("values.schema.json refuses it", "imagee");
        assertThat(verdicts.get("no-expect-line.yaml").reason()).contains("first line must be '# expect-error:");
        assertThat(verdicts.get("not-refused.yaml").reason()).contains("Helm rendered it, but it must be refused with: at '/replicaCount': minimum");
        assertThat(verdicts.get("wrong-text.yaml").reason())
                .contains("not with the expect-error text", "Expected: at '/replicaCount': got string", "Helm said:", "minimum");
    }

    @Test
    void aValuesDirectoryThatDoesNotExistIsOneClearError(@TempDir Path dir) {
        ChartCheck check = ChartCheck.of(ChartUnderTest.chartDir(), dev.nimchart.junit.RunSettings.get()).withValues(dir.resolve("missing"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> check.verdicts(Tier.OFFLINE))
                .hasMessage("values directory does not exist: " + dir.resolve("missing"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ChartCheck.of(dir, dev.nimchart.junit.RunSettings.get()))
                .hasMessage(dir + " is not a Helm chart: it has no Chart.yaml");
    }
}
