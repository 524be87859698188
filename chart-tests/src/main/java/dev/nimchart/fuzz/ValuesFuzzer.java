package dev.nimchart.fuzz;

import dev.nimchart.objects.KeyPath;
import dev.nimchart.values.ChartTree;
import dev.nimchart.values.ValuesMerger;
import dev.nimchart.values.ValuesSchema;
import dev.nimchart.values.ValuesSchemaValidator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Generates values documents from a chart's values.schema.json and its subcharts': the chart's own starting
 * {@link FuzzScenario} (none unless its rules give one: {@link FuzzScenarios}), a few keys drawn at random from the
 * schemas and set to values they accept (a subchart's keys under its key or alias), and, for a "near-valid" document,
 * one {@link ValuesMutator} mistake, in the values of the chart or of a subchart the document switches on. Without a
 * scenario, every key a document holds is one a schema describes, or the misspelt key of its mistake. Document
 * {@code n} of a seed is always the same document, whatever was generated before it.
 */
public final class ValuesFuzzer {

    /** Share of near-valid documents, in percent. */
    static final int NEAR_VALID_PERCENT = 40;
    /** Marks an overlay that holds a pass-through Kubernetes object made from its Kubernetes definition. */
    public static final String FROM_KUBERNETES_SCHEMA = "(Kubernetes object from its schema)";
    private static final int MAX_OVERLAYS = 4;

    /**
     * A chart of the tree with a schema: where its values sit in a document, its schema, its defaults, and what main's
     * per-schema reading finds in that schema (its pass-through keys and samples, its Kubernetes-ruled keys).
     */
    private record Governed(List<String> keys, ValuesSchema schema, Map<String, Object> defaults, OpaqueSamples opaque,
            List<List<String>> ruledKeys) {

        static Governed of(List<String> keys, ValuesSchema schema, Map<String, Object> defaults) {
            return new Governed(keys, schema, defaults, OpaqueSamples.of(schema), ValuesMutator.ruledKeys(schema));
        }
    }

    /** A key path a schema describes, with the chart it belongs to. */
    private record Key(Governed chart, ValuesSchema.Entry entry) {

        List<String> keys() {
            List<String> all = new ArrayList<>(chart.keys());
            all.addAll(entry.keys());
            return all;
        }

        String path() {
            return prefixed(chart.keys(), entry.path());
        }
    }

    private final long seed;
    private final ChartTree tree;
    private final List<Governed> charts = new ArrayList<>();
    private final List<Key> entries = new ArrayList<>();
    private final List<Key> passThrough;
    private final List<Key> preferred;
    private final ValuesSchemaValidator validator;
    private final FuzzScenarios scenarios;

    /** Documents that start from the chart's own scenarios ({@link FuzzScenarios#NONE}: empty, no scenario of the chart). */
    public ValuesFuzzer(Path chartDir, long seed, FuzzScenarios scenarios) {
        this.seed = seed;
        this.scenarios = scenarios;
        this.tree = ChartTree.load(chartDir);
        // The chart's own schema first (a chart without one has no fuzz documents), then each subchart's.
        charts.add(Governed.of(List.of(), ValuesSchema.load(chartDir), tree.defaults()));
        for (ChartTree.Part part : tree.parts().subList(1, tree.parts().size())) {
            if (Files.isRegularFile(part.chart().dir().resolve("values.schema.json"))) {
                charts.add(Governed.of(part.keys(), ValuesSchema.load(part.chart().dir()), part.chart().defaults()));
            }
        }
        charts.forEach(c -> c.schema().entries().forEach(e -> entries.add(new Key(c, e))));
        this.passThrough = entries.stream().filter(k -> k.chart().opaque().holdsPassThrough(k.entry().path())).toList();
        List<String> prefer = scenarios.preferredKeys();
        this.preferred = entries.stream().filter(k -> prefer.stream().anyMatch(p -> k.path().equals(p) || k.path().startsWith(p + ".")))
                .toList();
        this.validator = new ValuesSchemaValidator(tree);
    }

    /** Document number {@code index} of this fuzzer's seed. */
    public FuzzDocument document(int index) {
        Random random = new Random(mix(seed, index));
        Map<Governed, SchemaSampler> samplers = new IdentityHashMap<>();
        charts.forEach(c -> samplers.put(c, new SchemaSampler(c.schema(), c.opaque(), random)));
        FuzzScenario scenario = scenarios.draw(random);
        Map<String, Object> values = ValuesMerger.copy(scenario.values());
        List<String> overlays = new ArrayList<>();
        int count = entries.isEmpty() ? 0 : random.nextInt(MAX_OVERLAYS + 1);
        for (int i = 0; i < count; i++) {
            // One document in three sets a pass-through Kubernetes object (affinity, tolerations, ...) first, where a
            // schema has one.
            List<Key> pool = i == 0 && random.nextInt(3) == 0 && !passThrough.isEmpty() ? passThrough : entries;
            // Otherwise, one document in two, its first overlay is a key the chart's scenarios prefer.
            if (pool == entries && i == 0 && !preferred.isEmpty() && random.nextBoolean()) {
                pool = preferred;
            }
            Key entry = pool.get(random.nextInt(pool.size()));
            SchemaSampler sampler = samplers.get(entry.chart());
            int fromKubernetes = sampler.kubernetesSamples();
            Object value = sampler.valid(entry.entry().schema(), entry.entry().path());
            Map<String, Object> before = ValuesMerger.copy(values);
            overlay(values, entry.keys(), value);
            // A field of a pass-through object set alone can break a rule of Kubernetes' validation code together with
            // the chart's defaults (privileged: true under allowPrivilegeEscalation: false): such an overlay is dropped.
            if (entry.chart().opaque().holdsPassThrough(entry.entry().path())
                    && !validator.validate(ValuesMerger.coalesce(tree, values)).isEmpty()) {
                values = before;
                continue;
            }
            overlays.add(entry.path() + (sampler.kubernetesSamples() > fromKubernetes ? " " + FROM_KUBERNETES_SCHEMA : ""));
        }
        String mutation = null;
        boolean insidePassThrough = false;
        if (random.nextInt(100) < NEAR_VALID_PERCENT) {
            // The mistake goes into the values of the chart or of a subchart the document switches on.
            Set<List<String>> enabled = new HashSet<>();
            tree.enabled(values).forEach(p -> enabled.add(p.keys()));
            List<Governed> targets = charts.stream().filter(c -> enabled.contains(c.keys())).toList();
            Governed target = targets.size() == 1 ? targets.get(0) : targets.get(random.nextInt(targets.size()));
            Map<String, Object> before = ValuesMerger.copy(values);
            String mistake = new ValuesMutator(target.schema(), target.ruledKeys(), target.opaque(), samplers.get(target),
                    target.defaults(), random).mutate(subDocument(values, target.keys()));
            if (mistake == null || !subchartKeysHoldMaps(values)) {
                // No mistake applies, or Helm refuses a subchart's key that holds no map before any schema runs ("type
                // mismatch on cache"): no chart's schema can refuse that mistake, so the document stays valid instead.
                values = before;
            } else {
                mutation = underKeys(target.keys(), mistake);
                insidePassThrough = target.opaque().passesThrough(FuzzDocument.pathOf(mistake));
            }
        }
        return new FuzzDocument(seed, index, scenario, overlays, mutation, insidePassThrough, values);
    }

    /** Whether every subchart's key in the document holds a map, or nothing. */
    private boolean subchartKeysHoldMaps(Map<String, Object> values) {
        for (ChartTree.Part part : tree.parts().subList(1, tree.parts().size())) {
            Object node = values;
            for (String key : part.keys()) {
                if (!(node instanceof Map<?, ?> map)) {
                    break;
                }
                node = map.get(key);
            }
            if (node != null && !(node instanceof Map)) {
                return false;
            }
        }
        return true;
    }

    /** The map at a key path of the document, made (as a copy, so nothing else shares it) where missing. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> subDocument(Map<String, Object> doc, List<String> keys) {
        Map<String, Object> node = doc;
        for (String key : keys) {
            Map<String, Object> child = node.get(key) instanceof Map<?, ?> m ? new LinkedHashMap<>((Map<String, Object>) m) : new LinkedHashMap<>();
            node.put(key, child);
            node = child;
        }
        return node;
    }

    /** A mutation's description ({@code KIND at path: value}) with the path from the top of the document. */
    private static String underKeys(List<String> keys, String mutation) {
        if (keys.isEmpty()) {
            return mutation;
        }
        int at = mutation.indexOf(" at ") + 4;
        int colon = mutation.indexOf(": ", at);
        String path = mutation.substring(at, colon);
        return mutation.substring(0, at) + prefixed(keys, path.equals("(root)") ? "" : path) + mutation.substring(colon);
    }

    /** A key path below the key path of a subchart's values ({@code cache} + {@code replicas}). */
    private static String prefixed(List<String> keys, String path) {
        String prefix = "";
        for (String key : keys) {
            prefix = KeyPath.child(prefix, key);
        }
        return prefix.isEmpty() ? path : path.isEmpty() ? prefix : path.startsWith("[") ? prefix + path : prefix + "." + path;
    }

    /** Sets a value at a key path; a map merges into a map already there (the new keys win). */
    @SuppressWarnings("unchecked")
    private static void overlay(Map<String, Object> doc, List<String> keys, Object value) {
        Map<String, Object> node = doc;
        for (String key : keys.subList(0, keys.size() - 1)) {
            Object child = node.get(key);
            Map<String, Object> copy = child instanceof Map ? new LinkedHashMap<>((Map<String, Object>) child) : new LinkedHashMap<>();
            node.put(key, copy);
            node = copy;
        }
        String last = keys.get(keys.size() - 1);
        if (value instanceof Map && node.get(last) instanceof Map) {
            Map<String, Object> merged = new LinkedHashMap<>((Map<String, Object>) node.get(last));
            merged.putAll((Map<String, Object>) value);
            node.put(last, merged);
        } else {
            node.put(last, value);
        }
    }

    /** SplitMix64 of seed and index: neighbouring indexes get unrelated streams (java.util.Random's first draws of
     * neighbouring seeds are nearly equal). */
    static long mix(long seed, int index) {
        long z = seed + (index + 1) * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
