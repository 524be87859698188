package dev.nimchart.tools.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nimchart.tools.schema.SchemaDescriptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The parameters tables of docs/parameters.md and of the chart's README are what readme-generator-for-helm writes from values.yaml today, and the generator
 * holds values.yaml to its rules: a key without an {@code @param} (or a parent with a modifier) and an {@code @param}
 * for no key are refused.
 */
class ReadmeParametersTest {

    private static final Path VALUES = dev.nimchart.junit.RunSettings.get().chartDir().resolve("values.yaml");
    private static final Path README = dev.nimchart.junit.RunSettings.get().chartDir().resolve("../../docs/parameters.md").normalize();
    /** What {@code helm show readme} and Artifact Hub show. */
    private static final Path CHART_README = dev.nimchart.junit.RunSettings.get().chartDir().resolve("README.md");

    private static Path generator;

    @TempDir
    Path work;

    @BeforeAll
    static void generator() {
        generator = SchemaDescriptions.generatorDir(dev.nimchart.junit.RunSettings.get());
    }

    @Test
    void theReadmeParametersTablesAreWhatTheGeneratorWrites() throws IOException {
        for (Path readme : List.of(README, CHART_README)) {
            String committed = Files.readString(readme);
            assertThat(SchemaDescriptions.generatedReadme(generator, readme, VALUES)).as("%s is stale: run ci/readme-parameters.sh", readme)
                    .isEqualTo(committed);
            assertThat(committed).as("%s holds the table", readme).containsPattern("\\| `image\\.repository` +\\|");
        }
    }

    @Test
    void theGeneratorRefusesAnUndocumentedKeyAndADocumentedKeyThatDoesNotExist() throws IOException {
        Path values = work.resolve("values.yaml");
        Files.writeString(values, Files.readString(VALUES) + "\nundocumentedKey: 1\n## @param documentedButAbsent A key values.yaml lacks.\n");
        assertThatThrownBy(() -> SchemaDescriptions.read(generator, values))
                .hasMessageContaining("Missing metadata for key: undocumentedKey")
                .hasMessageContaining("Metadata provided for non existing key: documentedButAbsent");
    }

    @Test
    void eachKeyIsDocumentedOnce() {
        List<String> keys = SchemaDescriptions.read(generator, VALUES).stream().map(SchemaDescriptions.Param::name).toList();
        assertThat(keys).as("@param/@extra keys").hasSizeGreaterThan(250).doesNotHaveDuplicates();
    }
}
