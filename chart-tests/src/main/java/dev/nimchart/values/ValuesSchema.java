package dev.nimchart.values;

import dev.nimchart.objects.KeyPath;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * A chart's values.schema.json read as plain maps, for walking it: local {@code $ref}s resolved, and every key path
 * the schema describes listed. Free-form objects (no {@code properties}, no {@code additionalProperties} schema) and
 * Kubernetes objects (a {@code $ref} to an embedded {@code io.k8s.*} definition), which the chart passes to Kubernetes
 * as they are, count as leaves: a value for them is made whole, so its required fields are there.
 */
public final class ValuesSchema {

    /** A key path the schema describes ({@code multiNode.leaderWorkerSet.enabled}) with its (resolved) schema. */
    public record Entry(String path, List<String> keys, Map<String, Object> schema) {
    }

    private final Map<String, Object> root;
    /** Whether keywords beside a {@code $ref} apply: from draft 2019-09 on; drafts 04 to 07 ignore them. */
    private final boolean refSiblingsApply;

    private ValuesSchema(Map<String, Object> root) {
        this.root = root;
        this.refSiblingsApply = !(root.get("$schema") instanceof String dialect
                && dialect.matches("https?://json-schema\\.org/draft-0[3-7]/schema#?"));
    }

    public static ValuesSchema load(Path chartDir) {
        try {
            String text = Files.readString(chartDir.resolve("values.schema.json"));
            return new ValuesSchema(JsonMapper.shared().readValue(text, new TypeReference<Map<String, Object>>() { }));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The whole schema (resolved at the top). */
    public Map<String, Object> root() {
        return root;
    }

    /**
     * {@code schema} with a local {@code $ref} followed (transitively); the keywords beside it apply too where the
     * schema's dialect says so (2019-09 and 2020-12), and are ignored in drafts 04 to 07.
     */
    @SuppressWarnings("unchecked")
    public Map<String, Object> resolve(Map<String, Object> schema) {
        Map<String, Object> node = schema;
        Map<String, Object> siblings = new java.util.LinkedHashMap<>();
        while (node.get("$ref") instanceof String ref) {
            // Keywords beside a $ref apply too (JSON Schema 2020-12), e.g. the if/then of a Kubernetes rule.
            node.forEach((k, v) -> {
                if (!refSiblingsApply) {
                    return;
                }
                if (!k.equals("$ref") && !k.equals("$comment")) {
                    siblings.putIfAbsent(k, v);
                }
            });
            if (!ref.startsWith("#/")) {
                throw new IllegalStateException("only local $refs are supported: " + ref);
            }
            Object target = root;
            for (String part : ref.substring(2).split("/")) {
                target = ((Map<String, Object>) target).get(part.replace("~1", "/").replace("~0", "~"));
            }
            if (!(target instanceof Map)) {
                throw new IllegalStateException("unresolvable $ref " + ref);
            }
            node = (Map<String, Object>) target;
        }
        if (siblings.isEmpty()) {
            return node;
        }
        Map<String, Object> merged = new java.util.LinkedHashMap<>(node);
        siblings.forEach(merged::putIfAbsent);
        return merged;
    }

    /** The declared properties of an object schema (empty when none). */
    @SuppressWarnings("unchecked")
    public Map<String, Object> properties(Map<String, Object> schema) {
        Object properties = resolve(schema).get("properties");
        return properties instanceof Map ? (Map<String, Object>) properties : Map.of();
    }

    /** The schema of the value of {@code key} in an object: its property, a matching patternProperty, else additionalProperties. */
    @SuppressWarnings("unchecked")
    public Map<String, Object> valueSchema(Map<String, Object> objectSchema, String key) {
        Map<String, Object> s = resolve(objectSchema);
        if (properties(s).get(key) instanceof Map<?, ?> property) {
            return (Map<String, Object>) property;
        }
        if (s.get("patternProperties") instanceof Map<?, ?> patterns) {
            for (Map.Entry<?, ?> e : patterns.entrySet()) {
                if (Pattern.compile((String) e.getKey()).matcher(key).find()) {
                    return (Map<String, Object>) e.getValue();
                }
            }
        }
        return s.get("additionalProperties") instanceof Map<?, ?> additional ? (Map<String, Object>) additional : null;
    }

    /** Every key path under named properties, depth first in schema order (list items and map entries excluded). */
    public List<Entry> entries() {
        List<Entry> entries = new ArrayList<>();
        collect(root, "", List.of(), entries);
        return entries;
    }

    /** The schema of a named-property path, or null when the schema does not describe it. */
    @SuppressWarnings("unchecked")
    public Map<String, Object> at(List<String> keys) {
        Map<String, Object> node = root;
        for (String key : keys) {
            Object child = properties(node).get(key);
            if (!(child instanceof Map)) {
                return null;
            }
            node = resolve((Map<String, Object>) child);
        }
        return node;
    }

    /** Whether the node refers to an embedded Kubernetes definition (ci/kubernetes-schemas.sh). */
    public static boolean isKubernetesObject(Map<String, Object> node) {
        return node.get("$ref") instanceof String ref && ref.startsWith("#/$defs/io.k8s.");
    }

    @SuppressWarnings("unchecked")
    private void collect(Map<String, Object> schema, String path, List<String> keys, List<Entry> out) {
        properties(schema).forEach((key, child) -> {
            Map<String, Object> resolved = resolve((Map<String, Object>) child);
            List<String> childKeys = new ArrayList<>(keys);
            childKeys.add(key);
            String childPath = KeyPath.child(path, key);
            out.add(new Entry(childPath, List.copyOf(childKeys), resolved));
            if (!isKubernetesObject((Map<String, Object>) child)) {
                collect(resolved, childPath, childKeys, out);
            }
        });
    }
}
