package dev.nimchart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The generic rules a caller picks without writing any: the Pod Security level of the cluster tiers' namespaces. */
class ChartRulesTest {

    @Test
    void theChosenPodSecurityLevelAppliesToEveryFileOnEveryTier() {
        ChartRules rules = ChartRules.podSecurity("baseline");
        for (Tier tier : Tier.values()) {
            assertThat(rules.podSecurityLevel(Path.of("any-values.yaml"), tier)).as(tier.label()).isEqualTo("baseline");
        }
        assertThat(ChartRules.NONE.podSecurityLevel(Path.of("any-values.yaml"), Tier.API)).as("the default").isEqualTo("restricted");
    }

    @Test
    void anUnknownLevelIsRefusedNamingTheLevelsThereAre() {
        assertThatThrownBy(() -> ChartRules.podSecurity("Restricted")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'Restricted'").hasMessageContaining("privileged, baseline, restricted");
    }
}
