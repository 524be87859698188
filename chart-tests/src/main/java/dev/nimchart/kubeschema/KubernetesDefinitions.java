package dev.nimchart.kubeschema;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Kubernetes object schemas from the API server's OpenAPI v3 documents ({@code api/openapi-spec/v3/*.json} of the
 * k8s.io/kubernetes module), turned into JSON Schema 2020-12 definitions for a values schema's {@code $defs}:
 * <ul>
 *   <li>named by their OpenAPI component name ({@code io.k8s.api.core.v1.Affinity}), each {@code $ref} pointing at
 *       {@code #/$defs/<name>}, so the block is self-contained (recursion needs no inlining);</li>
 *   <li>strict as {@code kubeconform -strict}: an object with fixed fields ({@code properties}) allows no other key;
 *       a map ({@code additionalProperties} schema) and a free-form object ({@code RawExtension}) stay as Kubernetes
 *       declares them;</li>
 *   <li>IntOrString takes an integer or a string, Quantity a number or a string in the Kubernetes quantity grammar, as
 *       the API server decodes them; {@code format}s are dropped (int32, date-time: neither validator of Helm's and
 *       the harness's asserts them alike);</li>
 *   <li>descriptions, defaults and {@code x-kubernetes-*} extensions are dropped (Helm never applies a schema
 *       default, and the values keys carry their own descriptions);</li>
 *   <li>the few one-of rules of the Go types that OpenAPI cannot say are added as property counts ({@link #UNIONS}).</li>
 * </ul>
 * A name with the suffix {@value #WITHOUT_NAME} is the definition without its {@code name} property, for the map forms
 * of values where the map key is the name ({@code extraVolumes: {cache: {nfs: ...}}}).
 */
public final class KubernetesDefinitions {

    /** Where a local reference points, in the OpenAPI document and in the values schema. */
    static final String OPENAPI_REF = "#/components/schemas/";
    public static final String DEFS_REF = "#/$defs/";
    /** Prefix of every definition this class writes (and of no hand-written one). */
    public static final String PREFIX = "io.k8s.";
    public static final String WITHOUT_NAME = "-without-name";

    static final String INT_OR_STRING = "io.k8s.apimachinery.pkg.util.intstr.IntOrString";
    static final String QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity";
    /**
     * The grammar of resource.ParseQuantity (a decimal number, then a binary or decimal SI suffix or an exponent),
     * without a minus sign: every quantity a pod or an autoscaler takes must be at least 0 (resources, emptyDir sizes,
     * metric targets), and the API server refuses a negative one only for the kinds it validates.
     */
    static final String QUANTITY_PATTERN =
            "^[+]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)(Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?$";

    /**
     * One-of rules of the Go types (validation.go), as property counts: a Volume is a name and at most one source (none
     * means an emptyDir); an EnvVarSource and a VolumeProjection name exactly one source.
     */
    static final Map<String, int[]> UNIONS = Map.of(
            "io.k8s.api.core.v1.Volume", new int[] {1, 2},
            "io.k8s.api.core.v1.EnvVarSource", new int[] {1, 1},
            "io.k8s.api.core.v1.VolumeProjection", new int[] {1, 1});

    /** Rules of Kubernetes' validation code that OpenAPI cannot say, per definition, added as allOf (a resource file). */
    static final Map<String, List<Object>> RULES = rules();

    /** The definitions that carry rules of Kubernetes' validation code beyond their fields' types (kubernetes-rules.json). */
    public static java.util.Set<String> ruledDefinitions() {
        return RULES.keySet();
    }

    private static final List<String> KEPT = List.of("type", "properties", "additionalProperties", "items", "required",
            "enum", "$ref", "allOf", "oneOf", "anyOf");

    private final Map<String, Map<String, Object>> components = new TreeMap<>();
    private KubernetesEnums enums = KubernetesEnums.none();

    /**
     * @param openApiV3 OpenAPI v3 documents; a component several define (the meta/v1 types) must be the same in each;
     *                  a {@code .go} file among them is the module's generated OpenAPI definitions, read for the
     *                  allowed values of enum fields ({@link KubernetesEnums})
     */
    public KubernetesDefinitions(List<Path> openApiV3) {
        for (Path file : openApiV3) {
            if (file.toString().endsWith(".go")) {
                enums = KubernetesEnums.read(file);
                continue;
            }
            Map<String, Object> doc;
            try {
                doc = JsonMapper.shared().readValue(Files.readString(file), new TypeReference<Map<String, Object>>() { });
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file, e);
            }
            if (!(doc.get("components") instanceof Map<?, ?> c) || !(c.get("schemas") instanceof Map<?, ?> schemas)) {
                throw new IllegalArgumentException(file + " is not an OpenAPI v3 document (no components.schemas)");
            }
            schemas.forEach((name, schema) -> {
                Map<String, Object> known = components.putIfAbsent(name.toString(), map(schema));
                if (known != null && !known.equals(schema)) {
                    throw new IllegalArgumentException(file + " defines " + name + " differently from an earlier document");
                }
            });
        }
    }

    /** The definitions these names need, transitively (the names included), converted, sorted by name. */
    public Map<String, Object> closure(Iterable<String> roots) {
        Map<String, Object> out = new TreeMap<>();
        Deque<String> todo = new ArrayDeque<>();
        roots.forEach(todo::add);
        while (!todo.isEmpty()) {
            String name = todo.pop();
            if (out.containsKey(name)) {
                continue;
            }
            Map<String, Object> converted = definition(name);
            out.put(name, converted);
            references(converted, todo);
        }
        return out;
    }

    /** One definition, converted; {@code <name>-without-name} is {@code <name>} without its name property. */
    Map<String, Object> definition(String name) {
        if (name.endsWith(WITHOUT_NAME)) {
            Map<String, Object> named = definition(name.substring(0, name.length() - WITHOUT_NAME.length()));
            Map<String, Object> out = new LinkedHashMap<>(named);
            Map<String, Object> properties = new LinkedHashMap<>(map(named.get("properties")));
            if (properties.remove("name") == null) {
                throw new IllegalArgumentException(name + ": the definition has no name property");
            }
            out.put("properties", properties);
            if (named.get("required") instanceof List<?> required) {
                List<Object> rest = new ArrayList<>(required);
                rest.remove("name");
                if (rest.isEmpty()) {
                    out.remove("required");
                } else {
                    out.put("required", rest);
                }
            }
            shift(out, "minProperties", -1);
            shift(out, "maxProperties", -1);
            if (Integer.valueOf(0).equals(out.get("minProperties"))) {
                out.remove("minProperties");
            }
            return out;
        }
        if (name.equals(INT_OR_STRING)) {
            return ordered("type", List.of("integer", "string"));
        }
        if (name.equals(QUANTITY)) {
            // Helm reads every values number as a float and prints a fractional one of a million or more in exponent
            // form (1.5000005e+06); such a quantity must be written as a string.
            return ordered("type", List.of("number", "string"), "pattern", QUANTITY_PATTERN, "minimum", 0,
                    "if", ordered("type", "number", "not", ordered("type", "integer")), "then", ordered("maximum", 999999));
        }
        Map<String, Object> schema = components.get(name);
        if (schema == null) {
            throw new IllegalArgumentException("no definition " + name + " in the OpenAPI documents");
        }
        Map<String, Object> converted = convert(schema);
        addEnums(name, converted);
        int[] counts = UNIONS.get(name);
        if (counts != null) {
            converted.put("minProperties", counts[0]);
            converted.put("maxProperties", counts[1]);
        }
        List<Object> all = new ArrayList<>(converted.get("allOf") instanceof List<?> l ? l : List.of());
        for (Object rule : RULES.getOrDefault(name, List.of())) {
            if (!mergeIntoFields(name, converted, map(rule))) {
                all.add(rule);
            }
        }
        if (!all.isEmpty()) {
            converted.put("allOf", all);
        }
        return converted;
    }

    private Map<String, Object> convert(Map<String, Object> schema) {
        // allOf: [{$ref}] is how OpenAPI v3 gives a reference a description or a default: the reference alone is left.
        if (schema.get("allOf") instanceof List<?> all && all.size() == 1 && map(all.get(0)).get("$ref") != null
                && schema.keySet().stream().allMatch(k -> k.equals("allOf") || !KEPT.contains(k))) {
            return convert(map(all.get(0)));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        if (schema.get("$ref") instanceof String ref) {
            if (!ref.startsWith(OPENAPI_REF)) {
                throw new IllegalArgumentException("not a local component reference: " + ref);
            }
            out.put("$ref", DEFS_REF + ref.substring(OPENAPI_REF.length()));
        }
        Object type = schema.get("type");
        if (type == null && schema.containsKey("properties")) {
            type = "object";
        }
        if (type != null) {
            out.put("type", type);
        }
        if (schema.get("properties") instanceof Map<?, ?> properties) {
            Map<String, Object> converted = new LinkedHashMap<>();
            new TreeMap<>(map(properties)).forEach((k, v) -> converted.put(k, convert(map(v))));
            out.put("properties", converted);
            out.put("additionalProperties", false);
        } else if (schema.get("additionalProperties") instanceof Map<?, ?> additional) {
            out.put("additionalProperties", convert(map(additional)));
        }
        if (schema.get("items") instanceof Map<?, ?> items) {
            out.put("items", convert(map(items)));
        }
        if (schema.get("required") instanceof List<?> required && !required.isEmpty()) {
            out.put("required", List.copyOf(required));
        }
        if (schema.get("enum") instanceof List<?> values) {
            out.put("enum", List.copyOf(values));
        }
        for (String combinator : List.of("allOf", "oneOf", "anyOf")) {
            if (schema.get(combinator) instanceof List<?> branches) {
                out.put(combinator, branches.stream().map(b -> (Object) convert(map(b))).toList());
            }
        }
        return out;
    }

    /**
     * A rule of only {@code properties} and {@code required} narrows the definition's own fields (each property's keywords
     * added to the field's schema, with the rule's comment), so every reader of the field sees it; false for any other
     * rule (an if/then), which goes to allOf.
     */
    private static boolean mergeIntoFields(String name, Map<String, Object> converted, Map<String, Object> rule) {
        if (!List.of("$comment", "properties", "required").containsAll(rule.keySet())) {
            return false;
        }
        Map<String, Object> fields = map(converted.get("properties"));
        map(rule.getOrDefault("properties", Map.of())).forEach((field, keywords) -> {
            if (!(fields.get(field) instanceof Map<?, ?> f)) {
                throw new IllegalArgumentException(name + ": a rule narrows " + field + ", which is no field of it");
            }
            Map<String, Object> narrowed = narrowed(name + "." + field, map(f), map(keywords));
            if (rule.get("$comment") instanceof String comment) {
                narrowed.put("$comment", comment);
            }
            fields.put(field, narrowed);
        });
        if (rule.get("required") instanceof List<?> required) {
            List<Object> all = new ArrayList<>(converted.get("required") instanceof List<?> r ? r : List.of());
            required.stream().filter(r -> !all.contains(r)).forEach(all::add);
            converted.put("required", all);
        }
        return true;
    }

    /** A field's schema with a rule's keywords added, into nested schemas ({@code items}) too; a keyword never replaced. */
    private static Map<String, Object> narrowed(String where, Map<String, Object> schema, Map<String, Object> keywords) {
        Map<String, Object> out = new LinkedHashMap<>(schema);
        keywords.forEach((k, v) -> {
            if (k.equals("propertyNames") && out.get("additionalProperties") instanceof Map<?, ?> values
                    && map(v).get("pattern") instanceof String pattern) {
                // A map whose keys follow a pattern, said so that a refusal names the map and the key (Helm prints a
                // propertyNames failure without its location): the values' schema under that pattern, no other key.
                out.put("patternProperties", Map.of(pattern, values));
                out.put("additionalProperties", false);
            } else if (out.get(k) instanceof Map<?, ?> inner && v instanceof Map<?, ?> more) {
                out.put(k, narrowed(where + "." + k, map(inner), map(more)));
            } else if (out.containsKey(k)) {
                throw new IllegalArgumentException(where + " already has " + k);
            } else {
                out.put(k, v);
            }
        });
        return out;
    }

    /** The allowed values of the component's enum fields, on the property or on its array items. */
    private void addEnums(String name, Map<String, Object> converted) {
        enums.of(name).forEach((property, values) -> {
            boolean items = property.endsWith(KubernetesEnums.ITEMS);
            String key = items ? property.substring(0, property.length() - KubernetesEnums.ITEMS.length()) : property;
            if (!(converted.get("properties") instanceof Map<?, ?> properties) || !(properties.get(key) instanceof Map<?, ?> p)) {
                throw new IllegalArgumentException(name + " has an enum on " + property + " but no such property");
            }
            Map<String, Object> target = map(p);
            if (items) {
                target = map(target.get("items"));
            }
            target.put("enum", values);
        });
    }

    private static void references(Object node, Deque<String> todo) {
        if (node instanceof Map<?, ?> m) {
            if (m.get("$ref") instanceof String ref && ref.startsWith(DEFS_REF)) {
                todo.add(ref.substring(DEFS_REF.length()));
            }
            m.values().forEach(v -> references(v, todo));
        } else if (node instanceof List<?> list) {
            list.forEach(v -> references(v, todo));
        }
    }

    private static void shift(Map<String, Object> schema, String key, int by) {
        if (schema.get(key) instanceof Integer n) {
            schema.put(key, n + by);
        }
    }

    private static Map<String, Object> ordered(Object... keysAndValues) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            out.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return out;
    }

    private static Map<String, List<Object>> rules() {
        String resource = "kubernetes-rules.json";
        try (var in = KubernetesDefinitions.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the classpath");
            }
            Map<String, Object> all = JsonMapper.shared().readValue(in, new TypeReference<Map<String, Object>>() { });
            Map<String, List<Object>> out = new TreeMap<>();
            all.forEach((name, rules) -> {
                if (name.startsWith(PREFIX)) {
                    out.put(name, List.copyOf((List<?>) rules));
                }
            });
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object value) {
        if (value instanceof Map<?, ?> m) {
            return (Map<String, Object>) m;
        }
        throw new IllegalArgumentException("expected a schema object, found " + value);
    }
}
