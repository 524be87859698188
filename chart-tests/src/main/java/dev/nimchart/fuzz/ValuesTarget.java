package dev.nimchart.fuzz;

import dev.nimchart.objects.KeyPath;
import dev.nimchart.values.ValuesSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A place in a values document a mutation can hit: its keys (strings, and list indexes), its dotted path, and the
 * schema that describes it.
 */
record ValuesTarget(List<Object> keys, String path, Map<String, Object> schema) {

    /**
     * The root, every key path the schema names, and every list item and map entry the document holds where the
     * schema describes them, inside the Kubernetes objects the chart passes through included (their schemas are the
     * embedded Kubernetes definitions, so a misspelt field there must be refused like any other).
     */
    static List<ValuesTarget> all(ValuesSchema schema, Map<String, Object> doc) {
        List<ValuesTarget> targets = new ArrayList<>();
        targets.add(new ValuesTarget(List.of(), "", schema.root()));
        for (ValuesSchema.Entry e : schema.entries()) {
            targets.add(new ValuesTarget(List.copyOf(e.keys()), e.path(), e.schema()));
        }
        walk(schema, doc, schema.root(), List.of(), "", "", targets);
        return targets;
    }

    @SuppressWarnings("unchecked")
    private static void walk(ValuesSchema schema, Object value, Map<String, Object> node, List<Object> keys, String path,
                             String genericPath, List<ValuesTarget> out) {
        Map<String, Object> s = schema.resolve(node);
        if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> {
                String key = String.valueOf(k);
                Map<String, Object> child = schema.valueSchema(s, key);
                if (child != null) {
                    add(schema, v, child, append(keys, key), KeyPath.child(path, key), KeyPath.child(genericPath, key), out);
                }
            });
        } else if (value instanceof List<?> list && s.get("items") instanceof Map<?, ?> items) {
            for (int i = 0; i < list.size(); i++) {
                add(schema, list.get(i), (Map<String, Object>) items, append(keys, i), KeyPath.element(path, i),
                        genericPath + "[]", out);
            }
        }
    }

    /** A target inside a list or a map, and what is inside it. */
    private static void add(ValuesSchema schema, Object value, Map<String, Object> node, List<Object> keys, String path,
                            String genericPath, List<ValuesTarget> out) {
        out.add(new ValuesTarget(keys, path, schema.resolve(node)));
        walk(schema, value, node, keys, path, genericPath, out);
    }

    private static List<Object> append(List<Object> keys, Object key) {
        List<Object> out = new ArrayList<>(keys);
        out.add(key);
        return List.copyOf(out);
    }

    /** The target of a (possibly unknown) key inside this object; its schema is empty. */
    ValuesTarget child(String key) {
        return new ValuesTarget(append(keys, key), KeyPath.child(path, key), Map.of());
    }

    /** Whether the chart's values.yaml has a value here (a null in user values deletes it). */
    boolean isDefaultIn(Map<String, Object> defaults) {
        Object node = defaults;
        for (Object key : keys) {
            if (!(node instanceof Map<?, ?> map) || !(key instanceof String) || !map.containsKey(key)) {
                return false;
            }
            node = map.get(key);
        }
        return !keys.isEmpty();
    }

    /**
     * Sets the value in the document, creating the maps on the way, and describes it as {@code path: value}.
     * Returns null (and changes nothing) for the root, and when a list index on the way is not in the document.
     */
    @SuppressWarnings("unchecked")
    String setIn(Map<String, Object> doc, Object value) {
        if (keys.isEmpty()) {
            return null; // the document itself: a values file is always a map
        }
        Object node = doc;
        for (int i = 0; i < keys.size(); i++) {
            Object key = keys.get(i);
            boolean last = i == keys.size() - 1;
            if (node instanceof Map<?, ?>) {
                Map<String, Object> map = (Map<String, Object>) node;
                if (last) {
                    map.put((String) key, value);
                } else {
                    if (!(map.get(key) instanceof Map) && !(map.get(key) instanceof List)) {
                        map.put((String) key, new LinkedHashMap<>());
                    }
                    node = map.get(key);
                }
            } else if (node instanceof List<?> && key instanceof Integer index && index < ((List<?>) node).size()) {
                List<Object> list = (List<Object>) node;
                if (last) {
                    list.set(index, value);
                } else {
                    node = list.get(index);
                }
            } else {
                return null;
            }
        }
        return (path.isEmpty() ? "(root)" : path) + ": " + (value instanceof String text ? "\"" + text + "\"" : value);
    }
}
