package dev.nimchart.fuzz;

import dev.nimchart.values.ValuesMerger;
import dev.nimchart.values.ValuesSchema;
import dev.nimchart.values.ValuesSchemaValidator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Generates values documents from a chart's values.schema.json: the chart's own starting {@link FuzzScenario} (none
 * unless its rules give one: {@link FuzzScenarios}), a few keys drawn at random from the schema and set to values it
 * accepts, and, for a "near-valid" document, one {@link ValuesMutator} mistake. Without a scenario, every key a
 * document holds is one the schema describes, or the misspelt key of its mistake. Document {@code n} of a seed is always the same document, whatever
 * was generated before it.
 */
public final class ValuesFuzzer {

    /** Share of near-valid documents, in percent. */
    static final int NEAR_VALID_PERCENT = 40;
    /** Marks an overlay that holds a pass-through Kubernetes object made from its Kubernetes definition. */
    public static final String FROM_KUBERNETES_SCHEMA = "(Kubernetes object from its schema)";
    private static final int MAX_OVERLAYS = 4;

    private final long seed;
    private final ValuesSchema schema;
    private final Map<String, Object> defaults;
    private final List<ValuesSchema.Entry> entries;
    private final List<ValuesSchema.Entry> passThrough;
    private final ValuesSchemaValidator validator;
    private final FuzzScenarios scenarios;
    private final List<List<String>> ruledKeys;
    private final OpaqueSamples opaque;

    /** Documents that start empty (no scenario of the chart). */
    public ValuesFuzzer(Path chartDir, long seed) {
        this(chartDir, seed, FuzzScenarios.NONE);
    }

    /** Documents that start from the chart's own scenarios. */
    public ValuesFuzzer(Path chartDir, long seed, FuzzScenarios scenarios) {
        this.seed = seed;
        this.scenarios = scenarios;
        this.schema = ValuesSchema.load(chartDir);
        this.defaults = ValuesMerger.loadYaml(chartDir.resolve("values.yaml"));
        this.entries = schema.entries();
        this.opaque = OpaqueSamples.of(schema);
        this.passThrough = entries.stream().filter(e -> opaque.holdsPassThrough(e.path())).toList();
        this.validator = new ValuesSchemaValidator(chartDir);
        this.ruledKeys = ValuesMutator.ruledKeys(schema);
    }

    /** Document number {@code index} of this fuzzer's seed. */
    public FuzzDocument document(int index) {
        Random random = new Random(mix(seed, index));
        SchemaSampler sampler = new SchemaSampler(schema, opaque, random);
        FuzzScenario scenario = scenarios.draw(random);
        Map<String, Object> values = ValuesMerger.copy(scenario.values());
        List<String> overlays = new ArrayList<>();
        int count = entries.isEmpty() ? 0 : random.nextInt(MAX_OVERLAYS + 1);
        for (int i = 0; i < count; i++) {
            // One document in three sets a pass-through Kubernetes object (affinity, tolerations, ...) first, where the
            // schema has one.
            List<ValuesSchema.Entry> pool = i == 0 && random.nextInt(3) == 0 && !passThrough.isEmpty() ? passThrough : entries;
            ValuesSchema.Entry entry = pool.get(random.nextInt(pool.size()));
            int fromKubernetes = sampler.kubernetesSamples();
            Object value = sampler.valid(entry.schema(), entry.path());
            Map<String, Object> before = ValuesMerger.copy(values);
            overlay(values, entry.keys(), value);
            // A field of a pass-through object set alone can break a rule of Kubernetes' validation code together with
            // the chart's defaults (privileged: true under allowPrivilegeEscalation: false): such an overlay is dropped.
            if (opaque.holdsPassThrough(entry.path())
                    && !validator.validate(ValuesMerger.merge(defaults, values)).isEmpty()) {
                values = before;
                continue;
            }
            overlays.add(entry.path() + (sampler.kubernetesSamples() > fromKubernetes ? " " + FROM_KUBERNETES_SCHEMA : ""));
        }
        String mutation = null;
        if (random.nextInt(100) < NEAR_VALID_PERCENT) {
            mutation = new ValuesMutator(schema, ruledKeys, opaque, sampler, defaults, random).mutate(values);
        }
        boolean insidePassThrough = mutation != null && opaque.passesThrough(FuzzDocument.pathOf(mutation));
        return new FuzzDocument(seed, index, scenario, overlays, mutation, insidePassThrough, values);
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
