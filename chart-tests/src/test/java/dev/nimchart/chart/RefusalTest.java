package dev.nimchart.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.nimchart.ChartRefusedException;
import dev.nimchart.ExampleValuesFiles;
import dev.nimchart.NimChart;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every file in values-examples/invalid/ is refused by Helm itself, clearly, naming the key. */
class RefusalTest {

    /** A values key by its JSON pointer (schema errors) or its dotted path (preflight rules). */
    private static final Pattern NAMES_A_KEY = Pattern.compile(
            "at '/[A-Za-z]|additional properties '[A-Za-z]|(^|\\W)[a-z][A-Za-z]*(\\[\\d+])?\\.[A-Za-z{]|(^|\\W)env\\[\\d+]");

    @Test
    void theRefusalCorpusCoversSchemaErrorsAndPreflightRules() {
        var invalid = ExampleValuesFiles.invalidExamples().toList();
        assertThat(invalid).hasSizeGreaterThanOrEqualTo(12);
        long schemaErrors = invalid.stream().filter(f -> ExampleValuesFiles.expectedError(f).startsWith("at '")).count();
        assertThat(schemaErrors).as("schema refusals").isGreaterThanOrEqualTo(6);
        assertThat(invalid.size() - schemaErrors).as("preflight refusals").isGreaterThanOrEqualTo(6);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.nimchart.ExampleValuesFiles#invalidExamples")
    void helmRefusesTheFileNamingTheKey(Path file) {
        String expected = ExampleValuesFiles.expectedError(file);
        ChartRefusedException refusal = catchThrowableOfType(ChartRefusedException.class, () -> NimChart.render(file));
        assertThat(refusal).as("%s must be refused", file.getFileName()).isNotNull();
        String message = refusal.getMessage();
        assertThat(message).as(file.getFileName().toString()).contains(expected);
        assertThat(expected).as("%s: the expected text names a values key", file.getFileName()).containsPattern(NAMES_A_KEY);
        assertThat(message).as("%s: no template crash reaches the user", file.getFileName())
                .doesNotContain("nil pointer", "panic", "<nil>", "runtime error", "wrong type for value",
                        "error calling", "can't evaluate field");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.nimchart.ExampleValuesFiles#invalidExamples")
    void preflightRefusalsComeFromThePreflightAloneBeforeAnyObjectTemplate(Path file) {
        if (ExampleValuesFiles.expectedError(file).startsWith("at '")) {
            return; // a schema refusal: Helm stops before rendering any template
        }
        String message = catchThrowableOfType(ChartRefusedException.class, () -> NimChart.render(file)).getMessage();
        assertThat(message).as(file.getFileName().toString())
                .contains("nim-llm/templates/validate/preflight.yaml")
                .contains("nim-llm: ");
    }
}
