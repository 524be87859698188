package dev.nimchart.fuzz;

import dev.nimchart.values.ValuesSchema;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which keys of a values schema a set of documents reached: the schema's keys are its named-property paths
 * ({@link ValuesSchema#entries()}: list items, map entries and the inside of embedded Kubernetes objects are not keys of
 * their own), and a document reaches a key when it holds a value at that path (null included, as Helm deletes a
 * default with it). Add documents with {@link #add(Map)}; read {@link #reached()}, {@link #notReached()} and
 * {@link #ratio()}.
 */
public final class SchemaCoverage {

    private final List<String> keys;
    private final List<List<String>> paths;
    private final Set<String> reached = new LinkedHashSet<>();

    public SchemaCoverage(ValuesSchema schema) {
        this.keys = schema.entries().stream().map(ValuesSchema.Entry::path).toList();
        this.paths = schema.entries().stream().map(ValuesSchema.Entry::keys).toList();
    }

    /** Records the keys the document holds. */
    public void add(Map<String, Object> values) {
        for (int i = 0; i < keys.size(); i++) {
            String key = keys.get(i);
            if (!reached.contains(key) && holds(values, paths.get(i))) {
                reached.add(key);
            }
        }
    }

    public int total() {
        return keys.size();
    }

    public Set<String> reached() {
        return Set.copyOf(reached);
    }

    /** The schema's keys no document held, in schema order. */
    public List<String> notReached() {
        List<String> out = new ArrayList<>();
        keys.forEach(k -> {
            if (!reached.contains(k)) {
                out.add(k);
            }
        });
        return out;
    }

    public double ratio() {
        return keys.isEmpty() ? 1.0 : reached.size() / (double) keys.size();
    }

    /** "reached/total keys (p%)". */
    public String summary() {
        return "%d/%d keys of the values schema set at least once (%.1f%%)".formatted(reached.size(), keys.size(), 100 * ratio());
    }

    private static boolean holds(Map<String, Object> values, List<String> path) {
        Object node = values;
        for (String part : path) {
            if (!(node instanceof Map<?, ?> m) || !m.containsKey(part)) {
                return false;
            }
            node = m.get(part);
        }
        return true;
    }
}
