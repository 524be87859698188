package dev.nimchart.tools.schema;


import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.tools.schema.SchemaDescriptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every key of values.schema.json carries the description of its {@code @param}/{@code @extra} line in values.yaml, as
 * readme-generator-for-helm's parser reads it, written by ci/readme-parameters.sh: a key added to the schema without
 * one, or a description edited by hand, fails.
 */
class SchemaDescriptionsTest {

    private static final Path VALUES = dev.nimchart.junit.RunSettings.get().chartDir().resolve("values.yaml");
    private static final Path SCHEMA = dev.nimchart.junit.RunSettings.get().chartDir().resolve("values.schema.json");
    private static Map<String, String> docs;

    @org.junit.jupiter.api.BeforeAll
    static void docs() {
        docs = SchemaDescriptions.descriptions(SchemaDescriptions.read(SchemaDescriptions.generatorDir(dev.nimchart.junit.RunSettings.get()), VALUES));
    }

    @Test
    void everySchemaKeyHasTheDescriptionOfItsParam() throws IOException {
        @SuppressWarnings("unchecked")
        Map<String, Object> schema = JsonMapper.shared().readValue(Files.readString(SCHEMA), LinkedHashMap.class);
        List<String> missing = new ArrayList<>();
        List<String> differing = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        SchemaDescriptions.forEachKey(schema, (path, property) -> {
            keys.add(path);
            Object description = property.get("description");
            if (!docs.containsKey(path)) {
                missing.add(path + " (no @param or @extra line in values.yaml)");
            } else if (description == null) {
                missing.add(path + " (no description: run ci/readme-parameters.sh)");
            } else if (!description.equals(docs.get(path))) {
                differing.add(path + ": \"" + description + "\" but values.yaml says \"" + docs.get(path) + "\"");
            }
        });
        assertThat(keys).as("keys found in the schema").hasSizeGreaterThan(150).contains("image.tag", "ingress.hosts[].host",
                "env[].valueFrom.secretKeyRef", "resources.limits.nvidia.com/gpu");
        assertThat(missing).as("schema keys without a description").isEmpty();
        assertThat(differing).as("schema descriptions that differ from values.yaml: run ci/readme-parameters.sh").isEmpty();
    }

    @Test
    void theSchemaFileIsWhatTheGeneratorWrites() throws IOException {
        String schema = Files.readString(SCHEMA);
        assertThat(SchemaDescriptions.describedSchema(schema, docs)).as("values.schema.json is stale: run ci/readme-parameters.sh")
                .isEqualTo(schema);
    }

    @Test
    void aSchemaKeyWithoutAParamIsReported() throws IOException {
        String schema = Files.readString(SCHEMA).replaceFirst("\"properties\": \\{\n    \"image\": \\{",
                "\"properties\": {\n    \"undocumentedKey\": {\"type\": \"string\"},\n    \"image\": {");
        assertThat(schema).contains("undocumentedKey");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> SchemaDescriptions.describedSchema(schema, docs))
                .hasMessageContaining("[undocumentedKey]");
    }
}
