package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.Example;
import dev.nimchart.chart.repository.Examples;
import dev.nimchart.chart.repository.PodSecurityExceptions;
import dev.nimchart.values.DeclaredPodSecurity;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every example that needs a namespace looser than restricted says so in its header ({@code # pod-security:
 * privileged (why)}), and no other example does: the level the file declares, which {@code ci/check-chart.sh} and any
 * {@code ChartRules.podSecurity(level)} caller apply, is the level the README's table of documented exceptions
 * (docs/tiers.md, "Pod Security") gives the features the file enables, as {@link PodSecurityExceptions} derives it.
 */
class PodSecurityDeclarationTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.ALL)
    void theDeclaredLevelIsTheDocumentedOne(Path file) {
        Example example = Example.of(file);
        String documented = PodSecurityExceptions.level(example);
        assertThat(DeclaredPodSecurity.of(file).orElse("restricted"))
                .as("%s enables what fails %s of restricted: its header must %s", file.getFileName(),
                        PodSecurityExceptions.expectedChecks(example),
                        documented.equals("restricted") ? "declare no looser level" : "say '# pod-security: " + documented + " (why)'")
                .isEqualTo(documented);
    }
}
