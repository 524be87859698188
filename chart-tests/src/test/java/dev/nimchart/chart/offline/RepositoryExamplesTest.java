package dev.nimchart.chart.offline;

import dev.nimchart.junit.DynamicChecks;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.RepositoryChart;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.values.ExampleValuesFiles;
import dev.nimchart.values.ValuesSchemaValidator;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * This repository's values files through the library's door, judged by the one judge a downstream team's
 * {@code ChartCheck} uses: every example installs (values schema by Helm and by an independent validator, render,
 * strict objects, standard labels) and every file of values-examples/invalid/ is refused as its expect-error line says
 * (schema errors at the same key by both validators, preflight rules from the preflight, no template crash). The fuzz
 * run is {@link ValuesFuzzTest}'s.
 */
class RepositoryExamplesTest {

    @TestFactory
    Stream<DynamicNode> everyExampleInstallsAndEveryRefusalIsRefusedAsItsFileSays() {
        return DynamicChecks.of(RepositoryChart.check().withFuzz(0, 0).offlineTests());
    }

    @Test
    void theRefusalCorpusCoversSchemaErrorsAndPreflightRules() {
        var invalid = dev.nimchart.chart.repository.Examples.invalid().toList();
        assertThat(invalid).hasSizeGreaterThanOrEqualTo(100);
        long schemaErrors = invalid.stream().filter(f -> ExampleValuesFiles.expectedError(f).startsWith("at '")).count();
        assertThat(schemaErrors).as("schema refusals").isGreaterThanOrEqualTo(15);
        assertThat(invalid.size() - schemaErrors).as("preflight refusals").isGreaterThanOrEqualTo(15);
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
        assertThat(new ValuesSchemaValidator(ChartUnderTest.chartDir()).validate(Map.of("replicaCount", 1, "unknownKey", true)))
                .as("a misspelt top-level key").anySatisfy(p -> assertThat(p).contains("unknownKey"));
    }
}
