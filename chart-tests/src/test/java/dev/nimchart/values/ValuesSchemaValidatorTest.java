package dev.nimchart.values;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.render.FixtureChart;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ValuesSchemaValidatorTest {

    private final ValuesSchemaValidator validator = new ValuesSchemaValidator(FixtureChart.dir());

    private List<String> validate(Path dir, String valuesYaml) throws Exception {
        Path file = Files.writeString(dir.resolve("values.yaml"), valuesYaml);
        return validator.validate(ValuesMerger.mergedValues(FixtureChart.dir(), List.of(file)));
    }

    @Test
    void chartDefaultsAreValid(@TempDir Path dir) throws Exception {
        assertThat(validate(dir, "")).isEmpty();
    }

    @Test
    void messageStartsWithTheDottedKeyPath(@TempDir Path dir) throws Exception {
        assertThat(validate(dir, "multiNode:\n  workers: 0\n")).singleElement().asString().startsWith("multiNode.workers: ");
    }

    @Test
    void keyWithDotsIsBracketed(@TempDir Path dir) throws Exception {
        assertThat(validate(dir, "labels:\n  app.kubernetes.io/part-of: 5\n"))
                .singleElement().asString().startsWith("labels[app.kubernetes.io/part-of]: ");
    }

    @Test
    void unknownTopLevelKeyIsReportedAtTheRootNamingTheKey(@TempDir Path dir) throws Exception {
        assertThat(validate(dir, "replicas: 2\n")).singleElement().asString().startsWith("(root): ").contains("replicas");
    }

    @Test
    void nullForAnUndefinedKeyIsCaughtLikeHelmDoes(@TempDir Path dir) throws Exception {
        assertThat(validate(dir, "image:\n  digest: null\n")).singleElement().asString().startsWith("image: ").contains("digest");
    }
}
