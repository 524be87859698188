package dev.nimchart.tools.bench;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One OpenAPI v2 definition turned into a standalone JSON schema (draft 4, as kubeconform compiles it) in the
 * "-standalone-strict" flavour of yannh/kubernetes-json-schema:
 * <ul>
 *   <li>every {@code $ref} to {@code #/definitions/...} is inlined (its sibling keys, e.g. a description, kept);
 *       a reference to a definition already being inlined on the same path (JSONSchemaProps inside
 *       JSONSchemaProps) becomes an empty schema that accepts anything, so recursion stops;</li>
 *   <li>every object schema that declares {@code properties} and no {@code additionalProperties} gets
 *       {@code additionalProperties: false}, the root included;</li>
 *   <li>IntOrString ({@code format: int-or-string}, or a CRD's {@code x-kubernetes-int-or-string}) accepts an integer
 *       or a string, and Quantity a number or a string, as almost every Kubernetes tool does;</li>
 *   <li>a {@code type} also admits {@code null}, except on the properties of an object schema that has a
 *       {@code required} list: where the upstream converter allows null.</li>
 * </ul>
 * Not thread-safe: one instance converts one definition at a time.
 */
final class StandaloneSchema {

    static final String INT_OR_STRING = "io.k8s.apimachinery.pkg.util.intstr.IntOrString";
    static final String QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity";
    static final String DRAFT_4 = "http://json-schema.org/draft-04/schema#";
    private static final String REF_PREFIX = "#/definitions/";
    private static final List<String> COMBINATORS = List.of("allOf", "anyOf", "oneOf");

    private final Map<String, Map<String, Object>> definitions;
    private final Deque<String> inlining = new ArrayDeque<>();

    StandaloneSchema(Map<String, Map<String, Object>> definitions) {
        this.definitions = definitions;
    }

    /** The standalone strict schema of the named definition. */
    Map<String, Object> of(String definition) {
        inlining.push(definition);
        try {
            Map<String, Object> converted = convert(definition(definition), false);
            converted.putIfAbsent("type", "object");
            converted.put("additionalProperties", false);
            Map<String, Object> root = new LinkedHashMap<>();
            root.put("$schema", DRAFT_4);
            root.putAll(converted);
            return root;
        } finally {
            inlining.clear();
        }
    }

    private Map<String, Object> definition(String name) {
        Map<String, Object> found = definitions.get(name);
        if (found == null) {
            throw new IllegalArgumentException("$ref to a definition the document does not have: " + name);
        }
        return found;
    }

    private Map<String, Object> convert(Map<String, Object> schema, boolean nullable) {
        Object ref = schema.get("$ref");
        return ref == null ? convertInline(schema, nullable) : inlineRef(ref.toString(), schema, nullable);
    }

    private Map<String, Object> inlineRef(String ref, Map<String, Object> schema, boolean nullable) {
        if (!ref.startsWith(REF_PREFIX)) {
            throw new IllegalArgumentException("only local references are supported, not " + ref);
        }
        String name = ref.substring(REF_PREFIX.length());
        Map<String, Object> inlined;
        if (name.equals(INT_OR_STRING)) {
            inlined = described(definition(name), typeValue(List.of("integer", "string"), nullable));
        } else if (name.equals(QUANTITY)) {
            inlined = described(definition(name), typeValue(List.of("number", "string"), nullable));
        } else if (inlining.contains(name)) {
            inlined = new LinkedHashMap<>(); // recursion cut: anything goes below this point
        } else {
            inlining.push(name);
            try {
                inlined = convert(definition(name), nullable);
            } finally {
                inlining.pop();
            }
        }
        Map<String, Object> siblings = new LinkedHashMap<>(schema);
        siblings.remove("$ref");
        inlined.putAll(convertInline(siblings, nullable));
        return inlined;
    }

    private Map<String, Object> convertInline(Map<String, Object> schema, boolean nullable) {
        Map<String, Object> out = new LinkedHashMap<>();
        boolean hasRequired = schema.get("required") instanceof List<?> required && !required.isEmpty();
        for (Map.Entry<String, Object> entry : schema.entrySet()) {
            String key = entry.getKey();
            Object value = entry.getValue();
            if (key.equals("properties") && value instanceof Map<?, ?> properties) {
                Map<String, Object> converted = new LinkedHashMap<>();
                properties.forEach((name, property) -> converted.put(name.toString(), convert(map(property), !hasRequired)));
                out.put(key, converted);
            } else if ((key.equals("items") || key.equals("additionalProperties")) && value instanceof Map<?, ?> item) {
                out.put(key, convert(map(item), true));
            } else if (key.equals("items") && value instanceof List<?> tuple) {
                out.put(key, tuple.stream().map(item -> convert(map(item), true)).toList());
            } else if (COMBINATORS.contains(key) && value instanceof List<?> branches) {
                out.put(key, branches.stream().map(branch -> convert(map(branch), false)).toList());
            } else if (key.equals("not") && value instanceof Map<?, ?> not) {
                out.put(key, convert(map(not), false));
            } else {
                out.put(key, value);
            }
        }
        List<String> types = types(schema);
        if (!types.isEmpty()) {
            out.put("type", typeValue(types, nullable));
        }
        if (out.containsKey("properties") && !out.containsKey("additionalProperties")) {
            out.put("additionalProperties", false);
        }
        return out;
    }

    /** The schema's types, with int-or-string spelled out; empty when it does not constrain the type. */
    private static List<String> types(Map<String, Object> schema) {
        if ("int-or-string".equals(schema.get("format")) || Boolean.TRUE.equals(schema.get("x-kubernetes-int-or-string"))) {
            return List.of("integer", "string");
        }
        Object type = schema.get("type");
        if (type instanceof String single) {
            return List.of(single);
        }
        if (type instanceof List<?> several) {
            return several.stream().map(Object::toString).toList();
        }
        return List.of();
    }

    /** The definition's description, if any, with this type instead of the definition's own. */
    private static Map<String, Object> described(Map<String, Object> definition, Object type) {
        Map<String, Object> schema = new LinkedHashMap<>();
        if (definition.get("description") != null) {
            schema.put("description", definition.get("description"));
        }
        schema.put("type", type);
        return schema;
    }

    private static Object typeValue(List<String> types, boolean nullable) {
        List<String> value = new ArrayList<>(types);
        if (nullable && !value.contains("null")) {
            value.add("null");
        }
        return value.size() == 1 ? value.get(0) : value;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        if (value instanceof Map<?, ?> map) {
            return (Map<String, Object>) map;
        }
        throw new IllegalArgumentException("expected a schema object, found " + value);
    }
}
