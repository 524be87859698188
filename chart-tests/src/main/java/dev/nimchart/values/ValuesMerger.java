package dev.nimchart.values;

import dev.nimchart.objects.StrictYaml;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
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
     * values.yaml with {@link #merge}, and over its subcharts' with {@link #coalesce(ChartTree, Map)}.
     */
    public static Map<String, Object> mergedValues(Path chartDir, List<Path> valuesFiles) {
        return mergedValues(ChartTree.load(chartDir), valuesFiles);
    }

    /** As {@link #mergedValues(Path, List)} for a chart already loaded with its subcharts. */
    public static Map<String, Object> mergedValues(ChartTree chart, List<Path> valuesFiles) {
        Map<String, Object> userValues = new LinkedHashMap<>();
        for (Path file : valuesFiles) {
            userValues = layer(userValues, loadYaml(file));
        }
        return coalesce(chart, userValues);
    }

    /**
     * Helm's coalescing of user values (the -f files already layered) over a chart and the subcharts these values
     * switch on ({@link ChartTree#enabled}): the chart's values.yaml as {@link #merge}; then each subchart's values
     * under its key (alias or name), the parent's and the user's winning over the subchart's values.yaml, a null
     * deleting a subchart default too, and the parent's {@code global:} copied down over the subchart's own.
     */
    public static Map<String, Object> coalesce(ChartTree chart, Map<String, Object> userValues) {
        Set<List<String>> enabled = new HashSet<>();
        chart.enabled(userValues).forEach(part -> enabled.add(part.keys()));
        return coalesce(chart, userValues, enabled::contains);
    }

    /** Helm's CoalesceValues with the subcharts at the key paths {@code enabled} accepts. */
    static Map<String, Object> coalesce(ChartTree chart, Map<String, Object> values, Predicate<List<String>> enabled) {
        return coalesce(chart, values, enabled, List.of());
    }

    private static Map<String, Object> coalesce(ChartTree chart, Map<String, Object> values,
            Predicate<List<String>> enabled, List<String> path) {
        // Helm's processImportValues: a chart that declares dependencies gets as its defaults its values.yaml already
        // coalesced with its subcharts' (globals copied down included), so a user's null on a parent's global does not
        // reach the copy of it under a subchart's key.
        Map<String, Object> defaults = chart.declaresDependencies()
                ? coalesceOver(chart, chart.defaults(), Map.of(), enabled, path) : chart.defaults();
        return coalesceOver(chart, defaults, values, enabled, path);
    }

    private static Map<String, Object> coalesceOver(ChartTree chart, Map<String, Object> defaults, Map<String, Object> values,
            Predicate<List<String>> enabled, List<String> path) {
        Map<String, Object> result = merge(defaults, values);
        for (ChartTree.Subchart sub : chart.subcharts()) {
            List<String> keys = new ArrayList<>(path);
            keys.add(sub.key());
            if (!enabled.test(keys)) {
                continue;
            }
            String key = sub.key();
            // Under a subchart's key Helm coalesces the parent's values.yaml in merge mode: a user's null stays, to
            // delete the subchart's own default below (Helm's childChartMergeTrue).
            Object subValues = values.get(key) instanceof Map<?, ?> user && defaults.get(key) instanceof Map<?, ?> parent
                    ? layer(asMap(parent), asMap(user)) : result.get(key);
            if (subValues == null) {
                subValues = new LinkedHashMap<String, Object>();
            }
            if (!(subValues instanceof Map)) {
                // Helm refuses it so, before any schema runs: "type mismatch on cache: %!t(string=three)".
                throw new IllegalArgumentException("type mismatch on " + key + ": the values of the subchart under " + key
                        + " must be a map, not " + subValues);
            }
            Map<String, Object> own = copy(asMap(subValues));
            // Helm's coalesceGlobals: the parent's globals over the subchart's (see globals below); where either is there
            // but no map, Helm skips the globals ("skipping globals because ... is not a table").
            boolean subGlobalsMap = !own.containsKey("global") || own.get("global") instanceof Map;
            boolean parentGlobalsMap = !result.containsKey("global") || result.get("global") instanceof Map;
            if (subGlobalsMap && parentGlobalsMap) {
                Map<String, Object> parentGlobals = result.get("global") instanceof Map<?, ?> g ? asMap(g) : Map.of();
                Map<String, Object> subGlobals = own.get("global") instanceof Map<?, ?> g ? asMap(g) : Map.of();
                own.put("global", globals(subGlobals, parentGlobals));
            }
            result.put(key, coalesce(sub.chart(), own, enabled, List.copyOf(keys)));
        }
        return result;
    }

    /**
     * Helm's coalesceGlobals: each of the parent's globals over the subchart's, maps merged (the parent's winning) or
     * added; but where one side holds a map and the other no map, the subchart keeps its own ("cannot merge map onto
     * non-map", "key ... is table. Skipping").
     */
    private static Map<String, Object> globals(Map<String, Object> sub, Map<String, Object> parent) {
        Map<String, Object> result = copy(sub);
        parent.forEach((key, value) -> {
            boolean parentMap = value instanceof Map;
            boolean subMap = result.get(key) instanceof Map;
            if (!result.containsKey(key) || parentMap == subMap) {
                result.put(key, parentMap && subMap ? layer(asMap(result.get(key)), asMap(value)) : copyValue(value));
            }
        });
        return result;
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
