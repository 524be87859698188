package dev.nimchart.judge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.render.ChartYaml;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The expect-error rule on Helm's refusals as the offline judge and {@code helm install} on a cluster see them. */
class RefusalRuleTest {

    private static final String REQUIRED_IN_DEPLOYMENT = "Error: execution error at (web/templates/deployment.yaml:48:27): "
            + "tls.secretName is required when tls.enabled is true";

    private ChartYaml chart;
    private Path file;

    @BeforeEach
    void chartAndRefusedFile(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("Chart.yaml"), "apiVersion: v2\nname: web\nversion: 0.1.0\n");
        chart = ChartYaml.read(dir);
        file = dir.resolve("tls-without-secret.yaml");
        Files.writeString(file, "# expect-error: tls.secretName is required when tls.enabled is true\ntls:\n  enabled: true\n");
    }

    @Test
    void byDefaultARuleOfAnyTemplateRefuses() {
        RefusalRule rule = new RefusalRule(chart, Optional.empty());

        assertThat(rule.problem(file, REQUIRED_IN_DEPLOYMENT)).isEmpty();
        assertThat(rule.byChartRule(REQUIRED_IN_DEPLOYMENT)).isTrue();
    }

    @Test
    void aPreflightTemplateHoldsEveryRuleToIt() {
        RefusalRule rule = new RefusalRule(chart, Optional.of("validate/preflight.yaml"));

        assertThat(rule.problem(file, REQUIRED_IN_DEPLOYMENT)).hasValueSatisfying(p -> assertThat(p)
                .contains("did not come from web/templates/validate/preflight.yaml", "move the rule there"));
        assertThat(rule.problem(file, "Error: execution error at (web/templates/validate/preflight.yaml:7:4): \n\n"
                + "web: tls.secretName is required when tls.enabled is true\n")).isEmpty();
    }

    @Test
    void aCrashTextARefusalFromNoTemplateAndTheSchemaStillFail() {
        RefusalRule rule = new RefusalRule(chart, Optional.empty());

        assertThat(rule.problem(file, REQUIRED_IN_DEPLOYMENT + " (nil pointer evaluating interface {}.secretName)"))
                .hasValueSatisfying(p -> assertThat(p).contains("a template crash reached the user [nil pointer]"));
        assertThat(rule.problem(file, "Error: YAML parse error on web/templates/deployment.yaml: "
                + "tls.secretName is required when tls.enabled is true"))
                .hasValueSatisfying(p -> assertThat(p).contains("did not come from a fail or required in web's templates"));
        assertThat(rule.problem(file, "Error: values don't meet the specifications of the schema(s) in the following chart(s):\n"
                + "web:\n- at '/tls': tls.secretName is required when tls.enabled is true\n"))
                .hasValueSatisfying(p -> assertThat(p).contains("values.schema.json refused it"));
    }

    @Test
    void theExpectErrorLineMustBeThereAndNameAKey(@TempDir Path dir) throws IOException {
        RefusalRule rule = new RefusalRule(chart, Optional.empty());
        Path noKey = Files.writeString(dir.resolve("no-key.yaml"), "# expect-error: something is wrong\nx: 1\n");
        Path noLine = Files.writeString(dir.resolve("no-line.yaml"), "x: 1\n");

        assertThat(rule.problem(noKey, "Error: execution error at (web/templates/a.yaml:1:2): something is wrong"))
                .hasValueSatisfying(p -> assertThat(p).contains("names no values key"));
        assertThat(rule.problem(noLine, REQUIRED_IN_DEPLOYMENT))
                .hasValueSatisfying(p -> assertThat(p).contains("first line must be '# expect-error:"));
        assertThat(rule.problem(file, "Error: execution error at (web/templates/a.yaml:1:2): tls.enabled is on"))
                .hasValueSatisfying(p -> assertThat(p).contains("not with the expect-error text"));
    }
}
