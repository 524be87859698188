package dev.nimchart.values;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExampleValuesFilesTest {

    @TempDir
    Path root;

    private Path examples;
    private Path team;

    private static Path write(Path file, String text) throws Exception {
        Files.createDirectories(file.getParent());
        return Files.writeString(file, text);
    }

    @BeforeEach
    void createValuesDirs() throws Exception {
        examples = root.resolve("values-examples");
        team = root.resolve("team-values");
        write(examples.resolve("single-node.yaml"), "replicaCount: 1\n");
        write(examples.resolve("aws-efa.yml"), "multiNode: {enabled: true}\n");
        write(examples.resolve("README.md"), "not values\n");
        write(examples.resolve("invalid/zero-workers.yaml"), "# expect-error: multiNode.workers\nmultiNode: {workers: 0}\n");
        write(examples.resolve("invalid/nested/ignored.yaml"), "a: 1\n");
        write(team.resolve("gcp.yaml"), "a: 1\n");
        write(team.resolve("invalid/two-providers.yaml"), "#expect-error:   at most one provider  \n");
    }

    @Test
    void validFilesAreTheYamlFilesDirectlyInEachDirSortedByName() {
        List<Path> valid = new ExampleValuesFiles(List.of(examples, team)).valid();

        assertThat(valid).containsExactly(examples.resolve("aws-efa.yml"), team.resolve("gcp.yaml"), examples.resolve("single-node.yaml"));
    }

    @Test
    void invalidFilesAreTheYamlFilesInEachInvalidDir() {
        List<Path> invalid = new ExampleValuesFiles(List.of(examples, team)).invalid();

        assertThat(invalid).containsExactly(team.resolve("invalid/two-providers.yaml"), examples.resolve("invalid/zero-workers.yaml"));
    }

    @Test
    void dirWithoutInvalidSubdirHasNoInvalidFiles() throws Exception {
        Path plain = Files.createDirectories(root.resolve("plain"));

        assertThat(new ExampleValuesFiles(List.of(plain)).invalid()).isEmpty();
    }

    @Test
    void missingDirIsAnErrorNotAnEmptyList() {
        Path missing = root.resolve("typo");

        assertThatThrownBy(() -> new ExampleValuesFiles(List.of(examples, missing)).valid())
                .hasMessage("values directory does not exist: " + missing);
    }

    @Test
    void expectedErrorIsTheTrimmedTextOfTheFirstLine() {
        assertThat(ExampleValuesFiles.expectedError(examples.resolve("invalid/zero-workers.yaml"))).isEqualTo("multiNode.workers");
        assertThat(ExampleValuesFiles.expectedError(team.resolve("invalid/two-providers.yaml"))).isEqualTo("at most one provider");
    }

    @Test
    void expectedErrorFailsClearlyWithoutTheComment() throws Exception {
        Path file = write(root.resolve("invalid/no-comment.yaml"), "multiNode: {workers: 0}\n# expect-error: too late\n");

        assertThatThrownBy(() -> ExampleValuesFiles.expectedError(file))
                .hasMessage(file + ": the first line must be '# expect-error: <text of the expected error>'");
    }
}
