package dev.nimchart.values;

import dev.nimchart.objects.KeyPath;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.InvalidSchemaException;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.NodePath;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * Checks values against a chart's values.schema.json and its subcharts' as Helm does before rendering: each schema
 * governs the part of the merged values its chart receives (a subchart's under its key or alias, for the subcharts the
 * values switch on), in the dialect its {@code $schema} names (draft 2020-12 without one, as Helm; draft-07 and
 * draft-04 keep their own rules: keywords beside a {@code $ref} are ignored, {@code items} may be a list), and
 * self-contained. A chart without a schema accepts any values, as Helm does.
 */
public final class ValuesSchemaValidator {

    private final ChartTree chart;
    /** The compiled schema of each chart of the tree that has one. */
    private final Map<ChartTree, Schema> schemas = new IdentityHashMap<>();

    public ValuesSchemaValidator(Path chartDir) {
        this(ChartTree.load(chartDir));
    }

    public ValuesSchemaValidator(ChartTree chart) {
        this.chart = chart;
        for (ChartTree.Part part : chart.parts()) {
            Path file = part.chart().dir().resolve("values.schema.json");
            if (Files.isRegularFile(file)) {
                schemas.put(part.chart(), compile(file));
            }
        }
    }

    private static Schema compile(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        text = withLatestDialectNamed(text);
        try {
            return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                    .getSchema(SchemaLocation.of(file.toUri().toString()), text, InputFormat.JSON);
        } catch (InvalidSchemaException e) {
            throw new IllegalArgumentException(file + ": the independent validator cannot load the dialect its $schema"
                    + " names, " + declaredDialect(text) + " (" + e.getMessage() + "); Helm fetches such a dialect over the network at every render."
                    + " Declare a published draft (http://json-schema.org/draft-07/schema#, draft 2019-09 or"
                    + " https://json-schema.org/draft/2020-12/schema), or none for 2020-12", e);
        }
    }

    /** {@code http(s)://json-schema.org/schema}, with or without an empty fragment: the latest published draft's alias. */
    private static final java.util.regex.Pattern LATEST_DIALECT = java.util.regex.Pattern.compile("https?://json-schema\\.org/schema#?");

    /**
     * The schema text with a {@code $schema} of {@link #LATEST_DIALECT} (bitnami's charts declare
     * {@code http://json-schema.org/schema#}) replaced by draft 2020-12's URI: Helm's validator (santhosh-tekuri/jsonschema)
     * reads that alias as its latest draft, 2020-12, without fetching anything; the independent validator knows only the
     * drafts' own URIs. Any other text is returned as it is.
     */
    static String withLatestDialectNamed(String text) {
        Object root;
        try {
            root = JsonMapper.shared().readValue(text, Object.class);
        } catch (RuntimeException e) {
            return text; // not JSON: the validator says so
        }
        if (root instanceof Map<?, ?> map && map.get("$schema") instanceof String dialect && LATEST_DIALECT.matcher(dialect.strip()).matches()) {
            @SuppressWarnings("unchecked")
            Map<String, Object> copy = new java.util.LinkedHashMap<>((Map<String, Object>) map);
            copy.put("$schema", "https://json-schema.org/draft/2020-12/schema");
            return JsonMapper.shared().writeValueAsString(copy);
        }
        return text;
    }

    /** The schema's {@code $schema}, or "none". */
    private static String declaredDialect(String text) {
        try {
            return JsonMapper.shared().readValue(text, Object.class) instanceof Map<?, ?> map && map.get("$schema") instanceof String d ? d : "none";
        } catch (RuntimeException e) {
            return "none";
        }
    }

    /** Whether the chart or a subchart has a values.schema.json (without any, every values document passes, as in Helm). */
    public boolean present() {
        return !schemas.isEmpty();
    }

    /**
     * The schemas' complaints about these (merged) values, each starting with the dotted key path of the offending
     * value from the top of the values, e.g. {@code multiNode.workers: must have a minimum value of 1} or, for the
     * schema of a subchart under {@code cache}, {@code cache.replicas: ...}; empty when the values are valid. Which
     * subcharts govern a part is decided on these values as {@link ChartTree#enabled} decides it (a user's null that
     * deleted a condition's default would count as that default here).
     */
    public List<String> validate(Map<String, Object> values) {
        if (schemas.isEmpty()) {
            return List.of();
        }
        List<String> problems = new ArrayList<>();
        for (ChartTree.Part part : schemas.size() == 1 && schemas.containsKey(chart)
                ? List.of(new ChartTree.Part(List.of(), chart)) : chart.enabled(values)) {
            Schema schema = schemas.get(part.chart());
            if (schema == null) {
                continue;
            }
            String prefix = "";
            for (String key : part.keys()) {
                prefix = KeyPath.child(prefix, key);
            }
            for (Error error : schema.validate(JsonMapper.shared().valueToTree(at(values, part.keys())))) {
                problems.add(describe(prefix, error));
            }
        }
        return problems;
    }

    private static Object at(Map<String, Object> values, List<String> keys) {
        Object node = values;
        for (String key : keys) {
            node = node instanceof Map<?, ?> map ? map.get(key) : null;
        }
        return node;
    }

    private static String describe(String prefix, Error error) {
        return keyPath(prefix, error.getInstanceLocation()) + ": " + error.getMessage();
    }

    private static String keyPath(String prefix, NodePath location) {
        String path = prefix;
        for (int i = 0; i < location.getNameCount(); i++) {
            Object element = location.getElement(i);
            path = element instanceof Integer index ? KeyPath.element(path, index) : KeyPath.child(path, (String) element);
        }
        return path.isEmpty() ? "(root)" : path;
    }
}
