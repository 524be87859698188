package dev.nimchart.tiers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The generic rules a caller picks without writing any: the Pod Security level of the cluster tiers' namespaces. */
class ChartRulesTest {

    @Test
    void theChosenPodSecurityLevelAppliesToEveryFileOnEveryTier() {
        ChartRules rules = ChartRules.podSecurity("baseline");
        for (Tier tier : dev.nimchart.ChartCheck.tiers()) {
            assertThat(rules.podSecurityLevel(Path.of("any-values.yaml"), tier)).as(tier.label()).isEqualTo("baseline");
        }
        for (Tier tier : dev.nimchart.ChartCheck.tiers()) {
            assertThat(ChartRules.NONE.podSecurityLevel(Path.of("any-values.yaml"), tier))
                    .as("the default on the %s tier: what a namespace without Pod Security labels admits", tier.label()).isEqualTo("privileged");
        }
    }

    @Test
    void aFileThatDeclaresItsLevelInItsHeaderGetsItOnEveryTier(@org.junit.jupiter.api.io.TempDir Path dir) throws java.io.IOException {
        Path declared = java.nio.file.Files.writeString(dir.resolve("host-cache.yaml"),
                "# A model cache in a directory of the node.\n\n# pod-security: privileged (hostPath volume)\nhostPath:\n  enabled: true\n");
        Path late = java.nio.file.Files.writeString(dir.resolve("late.yaml"), "replicaCount: 1\n# pod-security: privileged\n");
        for (Tier tier : dev.nimchart.ChartCheck.tiers()) {
            assertThat(ChartRules.podSecurity("restricted").podSecurityLevel(declared, tier)).as(tier.label()).isEqualTo("privileged");
            assertThat(ChartRules.podSecurity("restricted").podSecurityLevel(late, tier))
                    .as("a comment after the first key is no declaration").isEqualTo("restricted");
            assertThat(ChartRules.NONE.podSecurityLevel(java.nio.file.Files.writeString(dir.resolve("strict.yaml"), "# pod-security: restricted\n"), tier))
                    .as("a declared level without a chosen one").isEqualTo("restricted");
        }
    }

    @Test
    void aDeclaredLevelThatIsNoneIsRefusedNamingFileLineAndLevels(@org.junit.jupiter.api.io.TempDir Path dir) throws java.io.IOException {
        Path file = java.nio.file.Files.writeString(dir.resolve("typo.yaml"), "# a comment\n# pod-security: priviledged\nreplicaCount: 1\n");
        assertThatThrownBy(() -> ChartRules.podSecurity("restricted").podSecurityLevel(file, Tier.API)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("typo.yaml, line 2").hasMessageContaining("pod-security: priviledged'").hasMessageContaining("privileged, baseline, restricted");
    }

    @Test
    void nimLlmsOwnRulesKeepRestrictedAndTheirFileNamedReleases() {
        dev.nimchart.chart.repository.NimLlmRules nim = new dev.nimchart.chart.repository.NimLlmRules();
        Path minimal = dev.nimchart.chart.repository.Examples.named("single-node-minimal.yaml");
        assertThat(nim.podSecurityLevel(minimal, Tier.API)).as("nim-llm on the API-server tier").isEqualTo("restricted");
        assertThat(nim.releaseName(minimal)).as("nim-llm's release name").isEqualTo("single-node-minimal");
    }

    @Test
    void releaseNamesAreShortUniqueAndStable(@org.junit.jupiter.api.io.TempDir Path dir) {
        Path longName = dir.resolve("a").resolve("daemonset-with-admission-webhooks-and-custom-node-ports-values.yaml");
        Path sameNameElsewhere = dir.resolve("b").resolve("daemonset-with-admission-webhooks-and-custom-node-ports-values.yaml");
        String name = ChartRules.NONE.releaseName(longName);
        assertThat(name).as("the default release name of %s", longName.getFileName()).matches("[a-z][a-z0-9-]{0,7}-[0-9a-f]{6}")
                .hasSizeLessThanOrEqualTo(15).startsWith("daemonse");
        assertThat(ChartRules.NONE.releaseName(longName)).as("the same file, again").isEqualTo(name);
        assertThat(ChartRules.NONE.releaseName(sameNameElsewhere)).as("a file of the same name in another directory").isNotEqualTo(name);
        assertThat(ChartRules.NONE.releaseName(dir.resolve("01-first.yaml"))).as("a file name starting with a digit")
                .matches("r01-first-[0-9a-f]{6}");
        assertThat(ChartRules.podSecurity("baseline").releaseName(longName)).as("with only a Pod Security level chosen").isEqualTo(name);
    }

    @Test
    void anUnknownLevelIsRefusedNamingTheLevelsThereAre() {
        assertThatThrownBy(() -> ChartRules.podSecurity("Restricted")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'Restricted'").hasMessageContaining("privileged, baseline, restricted");
    }
}
