package dev.nimchart.chart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.values.ExampleValuesFiles;
import dev.nimchart.objects.KeyPath;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.values.ValuesSchemaValidator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * values.schema.json checked by an independent validator (networknt) on the values Helm validates: the chart's
 * values.yaml merged with each file. Valid examples pass; every schema refusal Helm makes is made here too, at the
 * same key; files refused by a preflight rule instead pass the schema (the rule, not a typo, is what they break).
 */
class ValuesSchemaTest {

    private static final ValuesSchemaValidator SCHEMA = new ValuesSchemaValidator(ChartUnderTest.chartDir());
    private static final Pattern POINTER = Pattern.compile("^at '([^']*)'");

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.nimchart.chart.Examples#all")
    void everyExampleMatchesTheSchema(Path file) {
        assertThat(SCHEMA.validate(ChartUnderTest.values(file))).as(file.getFileName().toString()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.nimchart.values.ExampleValuesFiles#invalidExamples")
    void theSchemaRefusesExactlyWhatHelmsSchemaCheckRefuses(Path file) {
        List<String> problems = SCHEMA.validate(ChartUnderTest.values(file));
        Matcher pointer = POINTER.matcher(ExampleValuesFiles.expectedError(file));
        if (pointer.find()) {
            String key = KeyPath.fromJsonPointer(pointer.group(1));
            assertThat(problems).as("%s: refused at %s", file.getFileName(), key).anySatisfy(p -> assertThat(p).startsWith(key + ":"));
        } else {
            assertThat(problems).as("%s is refused by a preflight rule, not the schema", file.getFileName()).isEmpty();
        }
    }

    @Test
    void theSchemaIsSelfContainedAndStrict() throws IOException {
        String schema = Files.readString(ChartUnderTest.chartDir().resolve("values.schema.json"));
        assertThat(schema).contains("\"$schema\": \"https://json-schema.org/draft/2020-12/schema\"");
        Matcher refs = Pattern.compile("\"\\$ref\": \"([^\"]*)\"").matcher(schema);
        List<String> remote = new ArrayList<>();
        while (refs.find()) {
            if (!refs.group(1).startsWith("#")) {
                remote.add(refs.group(1));
            }
        }
        assertThat(remote).as("remote $refs are fetched at install time and fail offline").isEmpty();
        assertThat(SCHEMA.validate(java.util.Map.of("replicaCount", 1, "unknownKey", true)))
                .as("a misspelt top-level key").anySatisfy(p -> assertThat(p).contains("unknownKey"));
    }
}
