package dev.nimchart.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.nimchart.render.ChartRefusedException;
import dev.nimchart.values.ExampleValuesFiles;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.render.RefusalMessage;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every file in values-examples/invalid/ is refused by Helm itself, clearly, naming the key. */
class RefusalTest {

    @Test
    void theRefusalCorpusCoversSchemaErrorsAndPreflightRules() {
        var invalid = ExampleValuesFiles.invalidExamples().toList();
        assertThat(invalid).hasSizeGreaterThanOrEqualTo(100);
        long schemaErrors = invalid.stream().filter(f -> ExampleValuesFiles.expectedError(f).startsWith("at '")).count();
        assertThat(schemaErrors).as("schema refusals").isGreaterThanOrEqualTo(15);
        assertThat(invalid.size() - schemaErrors).as("preflight refusals").isGreaterThanOrEqualTo(15);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.nimchart.values.ExampleValuesFiles#invalidExamples")
    void helmRefusesTheFileNamingTheKey(Path file) {
        String expected = ExampleValuesFiles.expectedError(file);
        ChartRefusedException refusal = catchThrowableOfType(ChartRefusedException.class, () -> ChartUnderTest.render(file));
        assertThat(refusal).as("%s must be refused", file.getFileName()).isNotNull();
        String message = refusal.getMessage();
        assertThat(message).as(file.getFileName().toString()).contains(expected);
        assertThat(expected).as("%s: the expected text names a values key", file.getFileName()).containsPattern(RefusalMessage.NAMES_A_KEY);
        assertThat(RefusalMessage.crashMarkers(message)).as("%s: no template crash reaches the user", file.getFileName())
                .isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.nimchart.values.ExampleValuesFiles#invalidExamples")
    void eachRefusalComesFromTheSchemaOrFromThePreflightBeforeAnyObjectTemplate(Path file) {
        String message = catchThrowableOfType(ChartRefusedException.class, () -> ChartUnderTest.render(file)).getMessage();
        boolean schemaError = ExampleValuesFiles.expectedError(file).startsWith("at '");
        assertThat(schemaError ? RefusalMessage.fromSchema(message) : RefusalMessage.fromPreflight(message, ChartUnderTest.chart()))
                .as("%s: refused by the %s: %s", file.getFileName(), schemaError ? "schema" : "preflight", message).isTrue();
    }
}
