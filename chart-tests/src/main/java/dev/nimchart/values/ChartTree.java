package dev.nimchart.values;

import dev.nimchart.objects.StrictYaml;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A chart and the subcharts vendored in its {@code charts/} directory, as Helm loads them: each subchart under its
 * values key (the {@code alias} Chart.yaml gives it, else its name), with the {@code condition} and {@code tags} that
 * switch it on, and its own values.yaml and values.schema.json. A chart with no subcharts is a tree of one.
 */
public final class ChartTree {

    /** A subchart as its parent declares it: the key its values live under, and what switches it on. */
    public record Subchart(String key, ChartTree chart, List<String> conditions, List<String> tags) {
    }

    /** A chart of the tree Helm renders for some values, and the key path of the values it governs (empty: the top). */
    public record Part(List<String> keys, ChartTree chart) {
    }

    private final Path dir;
    private final String name;
    private final Map<String, Object> defaults;
    private final List<Subchart> subcharts;
    private final boolean declaresDependencies;

    private ChartTree(Path dir, String name, Map<String, Object> defaults, List<Subchart> subcharts, boolean declaresDependencies) {
        this.declaresDependencies = declaresDependencies;
        this.dir = dir;
        this.name = name;
        this.defaults = defaults;
        this.subcharts = subcharts;
    }

    /** The chart in this directory and, recursively, the subcharts in its {@code charts/}. */
    public static ChartTree load(Path chartDir) {
        return load(chartDir, null);
    }

    private static ChartTree load(Path chartDir, String alias) {
        Map<String, Object> chartYaml = yaml(chartDir.resolve("Chart.yaml"));
        String name = String.valueOf(chartYaml.get("name"));
        Path valuesFile = chartDir.resolve("values.yaml");
        Map<String, Object> defaults = Files.isRegularFile(valuesFile) ? ValuesMerger.loadYaml(valuesFile) : new LinkedHashMap<>();
        Map<String, Path> vendored = vendored(chartDir);
        List<Subchart> subcharts = new ArrayList<>();
        List<Map<String, Object>> declared = dependencies(chartYaml);
        // As Helm's processDependencyEnabled: a vendored chart Chart.yaml does not declare keeps its own name, with
        // nothing to switch it off; each declared dependency is the vendored chart of its name, under its alias.
        vendored.forEach((chartName, dir) -> {
            if (declared.stream().noneMatch(d -> chartName.equals(d.get("name")))) {
                subcharts.add(new Subchart(chartName, load(dir, null), List.of(), List.of()));
            }
        });
        for (Map<String, Object> dependency : declared) {
            String dependencyName = String.valueOf(dependency.get("name"));
            Path dir = vendored.get(dependencyName);
            if (dir == null) {
                throw new IllegalArgumentException(chartDir.resolve("Chart.yaml") + " names the dependency " + dependencyName
                        + ", but " + chartDir.resolve("charts") + " holds no chart of that name (Helm refuses the chart too):"
                        + " vendor it there (helm dependency build, then unpack the archive)");
            }
            String key = dependency.get("alias") instanceof String a && !a.isEmpty() ? a : dependencyName;
            List<String> conditions = dependency.get("condition") instanceof String c
                    ? List.of(c.strip().split(",", -1)) : List.of();
            List<String> tags = dependency.get("tags") instanceof List<?> t ? t.stream().map(String::valueOf).toList() : List.of();
            subcharts.add(new Subchart(key, load(dir, key), conditions, tags));
        }
        return new ChartTree(chartDir, alias != null ? alias : name, defaults, List.copyOf(subcharts), !declared.isEmpty());
    }

    /** The chart's directory. */
    public Path dir() {
        return dir;
    }

    /** The name Helm gives the chart in messages: its alias for an aliased subchart, else its Chart.yaml name. */
    public String name() {
        return name;
    }

    /** Its values.yaml (empty when it has none). */
    public Map<String, Object> defaults() {
        return defaults;
    }

    /** Whether its Chart.yaml lists {@code dependencies:} (Helm then pre-coalesces its defaults with theirs). */
    public boolean declaresDependencies() {
        return declaresDependencies;
    }

    /** Its subcharts, in Helm's order: the undeclared vendored ones first, then Chart.yaml's dependencies. */
    public List<Subchart> subcharts() {
        return subcharts;
    }

    /**
     * The charts Helm renders for these values, this one first, each with the key path of the values it governs: as
     * Helm's ProcessDependencies, a subchart's tags ({@code tags:} of the values) and then its conditions (the first
     * that holds a boolean wins) are looked up in the values coalesced with every subchart's defaults; a subchart
     * switched off takes its own subcharts with it.
     */
    public List<Part> enabled(Map<String, Object> values) {
        Map<String, Object> all = ValuesMerger.coalesce(this, values, keys -> true);
        Map<?, ?> tags = all.get("tags") instanceof Map<?, ?> t ? t : Map.of();
        List<Part> parts = new ArrayList<>();
        parts.add(new Part(List.of(), this));
        collectEnabled(List.of(), all, tags, parts);
        return parts;
    }

    private void collectEnabled(List<String> path, Map<String, Object> all, Map<?, ?> tags, List<Part> out) {
        for (Subchart sub : subcharts) {
            if (switchedOn(sub, path, all, tags)) {
                List<String> keys = new ArrayList<>(path);
                keys.add(sub.key());
                out.add(new Part(List.copyOf(keys), sub.chart()));
                sub.chart().collectEnabled(List.copyOf(keys), all, tags, out);
            }
        }
    }

    private static boolean switchedOn(Subchart sub, List<String> path, Map<String, Object> all, Map<?, ?> tags) {
        boolean hasTrue = false;
        boolean hasFalse = false;
        for (String tag : sub.tags()) {
            if (tags.get(tag) instanceof Boolean b) {
                hasTrue |= b;
                hasFalse |= !b;
            }
        }
        boolean on = hasTrue || !hasFalse;
        for (String condition : sub.conditions()) {
            if (!condition.isEmpty() && pathValue(all, path, condition) instanceof Boolean b) {
                return b;
            }
        }
        return on;
    }

    /** The value at a dotted path ({@code cache.enabled}) below the key path {@code prefix}, or null. */
    private static Object pathValue(Map<String, Object> values, List<String> prefix, String dotted) {
        List<String> keys = new ArrayList<>(prefix);
        keys.addAll(List.of(dotted.split("\\.", -1)));
        Object node = values;
        for (String key : keys) {
            if (!(node instanceof Map<?, ?> map)) {
                return null;
            }
            node = map.get(key);
        }
        return node;
    }

    /**
     * The key path of the values a chart of this tree governs, found by the name Helm prints for it in a schema
     * refusal ({@code cache:} above its errors): this chart first, then its subcharts depth first.
     */
    public Optional<List<String>> keysOf(String helmName) {
        return parts().stream().filter(p -> p.chart().name().equals(helmName)).map(Part::keys).findFirst();
    }

    /** Every chart of the tree with the key path of its values, this one first (subcharts however their conditions fall). */
    public List<Part> parts() {
        List<Part> out = new ArrayList<>(List.of(new Part(List.of(), this)));
        for (Subchart sub : subcharts) {
            for (Part part : sub.chart().parts()) {
                List<String> keys = new ArrayList<>(List.of(sub.key()));
                keys.addAll(part.keys());
                out.add(new Part(List.copyOf(keys), part.chart()));
            }
        }
        return out;
    }

    /** The charts in {@code charts/} by their Chart.yaml name; a packaged one ({@code .tgz}) is refused, naming the fix. */
    private static Map<String, Path> vendored(Path chartDir) {
        Path charts = chartDir.resolve("charts");
        Map<String, Path> out = new LinkedHashMap<>();
        if (!Files.isDirectory(charts)) {
            return out;
        }
        try (Stream<Path> entries = Files.list(charts)) {
            for (Path entry : entries.sorted().toList()) {
                if (entry.getFileName().toString().endsWith(".tgz")) {
                    throw new IllegalArgumentException(entry + " is a packaged subchart: the harness reads vendored subcharts"
                            + " as directories (unpack it there: tar -xzf " + entry.getFileName() + " -C " + charts + ", then"
                            + " delete the archive)");
                }
                if (Files.isRegularFile(entry.resolve("Chart.yaml"))) {
                    out.put(String.valueOf(yaml(entry.resolve("Chart.yaml")).get("name")), entry);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + charts, e);
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> dependencies(Map<String, Object> chartYaml) {
        if (!(chartYaml.get("dependencies") instanceof List<?> list)) {
            return List.of();
        }
        return list.stream().filter(Map.class::isInstance).map(d -> (Map<String, Object>) d).toList();
    }

    private static Map<String, Object> yaml(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(file.getParent() + " is not a Helm chart: it has no Chart.yaml");
        }
        try {
            Object doc = StrictYaml.loader().load(Files.readString(file));
            if (!(doc instanceof Map<?, ?>)) {
                throw new IllegalArgumentException(file + " is not a YAML mapping");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> map = (Map<String, Object>) doc;
            return map;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
