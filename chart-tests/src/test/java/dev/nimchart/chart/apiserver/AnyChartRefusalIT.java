package dev.nimchart.chart.apiserver;

import dev.nimchart.settings.SettingsFromProperties;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.ChartCheck;
import dev.nimchart.tiers.ChartRules;
import dev.nimchart.tiers.Tier;
import dev.nimchart.Verdict;
import dev.nimchart.chart.repository.NimLlmRules;
import dev.nimchart.render.ChartUnderTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import dev.nimchart.junit.ChartTiers;
import dev.nimchart.sessions.TierSessions;
import dev.nimchart.chart.repository.ExampleCharts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code helm install}'s refusals on the API-server tier are held to the same expect-error rule as offline
 * ({@code RefusalRule}): schema-web's refusals by a {@code required} in a template and a {@code fail} in a helper pass
 * with no chart rules and fail when the rules name a preflight template; nim-llm's, with its rules, pass from its
 * preflight template and its schema.
 */
@ExtendWith(ChartTiers.class)
class AnyChartRefusalIT {

    @Test
    void refusalsFromAnyTemplatePassUnlessTheRulesNameAPreflightTemplate(TierSessions tiers, @TempDir Path values) throws IOException {
        Path chart = ExampleCharts.named("schema-web");
        ChartCheck check = ExampleCharts.check(chart, tiers).withValues(chart.resolve("ci")).withFuzz(0, 0).withWorkDir(Path.of("target", "any-chart-refusal"));

        List<Verdict> verdicts = check.verdicts(Tier.API);
        assertThat(verdicts).as("schema-web's ci/ files (4) and ci/invalid/ files (2)").hasSize(6)
                .allSatisfy(v -> assertThat(v.reason()).as(v.subject()).isNull());

        ChartRules preflight = new ChartRules() {
            @Override
            public Optional<String> preflightTemplate() {
                return Optional.of("validate/preflight.yaml");
            }
        };
        // The same refusals under other names (a release, and its namespace, is named after its file).
        Path invalid = Files.createDirectories(values.resolve("invalid"));
        for (String f : List.of("tls-without-secret.yaml", "node-port-on-cluster-ip.yaml")) {
            Files.copy(chart.resolve("ci/invalid").resolve(f), invalid.resolve("held-" + f));
        }
        Map<String, String> held = ExampleCharts.check(chart, tiers).withValues(values).withRules(preflight).withFuzz(0, 0).withWorkDir(Path.of("target", "any-chart-refusal"))
                .verdicts(Tier.API).stream()
                .collect(Collectors.toMap(v -> Path.of(v.subject()).getFileName().toString(), v -> String.valueOf(v.reason())));
        assertThat(held).as("schema-web's refusals held to a preflight template").hasSize(2)
                .allSatisfy((file, reason) -> assertThat(reason).as(file)
                        .contains("did not come from schema-web/templates/validate/preflight.yaml"));
    }

    @Test
    void nimLlmsRefusalsPassFromItsPreflightTemplateAndItsSchema(TierSessions tiers, @TempDir Path values) throws IOException {
        Path examples = SettingsFromProperties.shared().examplesDir();
        Path invalid = Files.createDirectories(values.resolve("invalid"));
        for (String f : List.of("autoscaling-min-above-max.yaml", "wrong-type-replicacount-string.yaml")) {
            Files.copy(examples.resolve("invalid").resolve(f), invalid.resolve(f));
        }
        List<Verdict> verdicts = ExampleCharts.check(ChartUnderTest.chartDir(), tiers).withValues(values).withRules(new NimLlmRules()).withFuzz(0, 0)
                .withWorkDir(Path.of("target", "any-chart-refusal")).verdicts(Tier.API);

        assertThat(verdicts).hasSize(2).allSatisfy(v -> assertThat(v.reason()).as(v.subject()).isNull());
    }
}
