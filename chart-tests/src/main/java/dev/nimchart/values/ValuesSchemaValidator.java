package dev.nimchart.values;

import dev.nimchart.objects.KeyPath;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.NodePath;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * Checks values against a chart's values.schema.json (draft 2020-12 unless the schema names its dialect, self-contained),
 * as Helm does before rendering. A chart without one accepts any values, as Helm does.
 */
public final class ValuesSchemaValidator {

    private final Schema schema;

    public ValuesSchemaValidator(Path chartDir) {
        Path file = chartDir.resolve("values.schema.json");
        if (!Files.isRegularFile(file)) {
            this.schema = null;
            return;
        }
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                .getSchema(SchemaLocation.of(file.toUri().toString()), text, InputFormat.JSON);
    }

    /** Whether the chart has a values.schema.json (without one, every values document passes, as in Helm). */
    public boolean present() {
        return schema != null;
    }

    /**
     * The schema's complaints about these (merged) values, each starting with the dotted key path of the offending
     * value, e.g. {@code multiNode.workers: must have a minimum value of 1}; empty when the values are valid.
     */
    public List<String> validate(Map<String, Object> values) {
        if (schema == null) {
            return List.of();
        }
        return schema.validate(JsonMapper.shared().valueToTree(values)).stream()
                .map(ValuesSchemaValidator::describe)
                .toList();
    }

    private static String describe(Error error) {
        return keyPath(error.getInstanceLocation()) + ": " + error.getMessage();
    }

    private static String keyPath(NodePath location) {
        String path = "";
        for (int i = 0; i < location.getNameCount(); i++) {
            Object element = location.getElement(i);
            path = element instanceof Integer index ? KeyPath.element(path, index) : KeyPath.child(path, (String) element);
        }
        return path.isEmpty() ? "(root)" : path;
    }
}
