package dev.nimchart.values;

import dev.nimchart.objects.StrictYaml;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.error.YAMLException;

/** Computes the values Helm hands to the templates and to values.schema.json, with Helm's merge rules. */
public final class ValuesMerger {

    private ValuesMerger() {
    }

    /**
     * Helm's coalescing of user values over chart defaults: maps merge recursively, any other override replaces
     * (lists whole), and a null override deletes the default. A null for a key the defaults do not have stays
     * null, as in Helm, so that values.schema.json sees it. Neither input is modified.
     */
    public static Map<String, Object> merge(Map<String, Object> defaults, Map<String, Object> overrides) {
        Map<String, Object> result = copy(defaults);
        overrides.forEach((key, override) -> {
            Object current = result.get(key);
            if (override == null && result.containsKey(key)) {
                result.remove(key);
            } else if (override instanceof Map && current instanceof Map) {
                result.put(key, merge(asMap(current), asMap(override)));
            } else {
                result.put(key, copyValue(override));
            }
        });
        return result;
    }

    /** A YAML file's top-level mapping (empty for an empty file); duplicate keys are refused. */
    public static Map<String, Object> loadYaml(Path file) {
        try (Reader reader = Files.newBufferedReader(file)) {
            Object loaded = StrictYaml.loader().load(reader);
            if (loaded == null) {
                return new LinkedHashMap<>();
            }
            if (!(loaded instanceof Map)) {
                throw new IllegalArgumentException(file + ": top level is not a YAML mapping");
            }
            return asMap(stringKeys(loaded));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (YAMLException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Every mapping key as the text Helm reads it: Helm turns values YAML into JSON before it uses it, so a key YAML
     * reads as a number or a boolean ({@code 8080:} of a port map, {@code true:}) is that number's or boolean's text.
     */
    @SuppressWarnings("unchecked")
    static Object stringKeys(Object node) {
        if (node instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put(String.valueOf(k), stringKeys(v)));
            return out;
        }
        if (node instanceof java.util.List<?> list) {
            return new java.util.ArrayList<>(list.stream().map(ValuesMerger::stringKeys).toList());
        }
        return node;
    }

    /**
     * The values Helm computes for {@code helm template -f file1 -f file2 ...}: like Helm, the files are first
     * layered over each other (a later file's null only replaces), then the result is coalesced over the chart's
     * values.yaml with {@link #merge}.
     */
    public static Map<String, Object> mergedValues(Path chartDir, List<Path> valuesFiles) {
        Map<String, Object> userValues = new LinkedHashMap<>();
        for (Path file : valuesFiles) {
            userValues = layer(userValues, loadYaml(file));
        }
        return merge(loadYaml(chartDir.resolve("values.yaml")), userValues);
    }

    /** Helm's merge of several -f files: maps merge recursively, everything else, null included, replaces. */
    private static Map<String, Object> layer(Map<String, Object> base, Map<String, Object> top) {
        Map<String, Object> result = copy(base);
        top.forEach((key, value) -> {
            Object current = result.get(key);
            result.put(key, value instanceof Map && current instanceof Map
                    ? layer(asMap(current), asMap(value))
                    : copyValue(value));
        });
        return result;
    }

    /** A deep copy of maps and lists (scalars are shared). */
    public static Map<String, Object> copy(Map<String, Object> map) {
        Map<String, Object> copy = new LinkedHashMap<>();
        map.forEach((key, value) -> copy.put(key, copyValue(value)));
        return copy;
    }

    private static Object copyValue(Object value) {
        if (value instanceof Map) {
            return copy(asMap(value));
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>();
            list.forEach(element -> copy.add(copyValue(element)));
            return copy;
        }
        return value;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object value) {
        return (Map<String, Object>) value;
    }
}
