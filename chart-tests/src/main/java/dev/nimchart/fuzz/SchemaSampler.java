package dev.nimchart.fuzz;

import dev.nimchart.objects.KeyPath;
import dev.nimchart.values.ValuesSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.nimchart.kubeschema.KubernetesDefinitions;
import tools.jackson.databind.json.JsonMapper;

/**
 * Random instances of a values.schema.json node that the schema accepts. Strings with a {@code pattern} come from a
 * pool of realistic samples (the first ones that match); a pattern no sample satisfies is an error, so a new
 * pattern in the schema asks for new samples here. A Kubernetes object the chart passes through comes half the time
 * from {@link OpaqueSamples} (realistic ones) and half the time from its embedded Kubernetes definition (any field,
 * optional ones fewer the deeper they are, so objects stay small); other free-form objects are left empty.
 */
final class SchemaSampler {

    /** Candidate strings for patterned and free strings: names, paths, quantities, durations, odd ones. */
    static final List<String> STRINGS = List.of(
            "", "a", "nim", "my-name", "team", "ngc-api", "llm.example.com", "*.example.com", "example.com/tier", "x1",
            "/", "/model-store", "/v1/health/ready", "/exports/nim-cache",
            "1", "8", "500m", "16Gi", "1.5Ti", "50Gi", "100", "0.5Gi", "1Ti",
            "30s", "1m", "10s", "1h30m", "25%", "0%", "10.0.0.0/8", "2001:db8::/32", "In",
            "NIM_MAX_MODEL_LEN", "NIM_TENSOR_PARALLEL_SIZE", "NIM_USE_SGLANG", "HF_HOME", "HF_TOKEN", "memory", "cpu", "hugepages-2Mi",
            "example.com/fpga", "limits.memory", "requests.cpu", "metadata.name", "status.podIP",
            "1.8.4", "latest", "v1.0.12", "hca_shared_devices_a", "ib", "sriov-rdma-vf",
            "Mixed Case", "with:colon", "dash-at-end-", "UPPER", "a".repeat(70), "modèle",
            // YAML and shell metacharacters and YAML 1.1 words: rendered quoted, never run
            "no", "on", "null", "0755", "a #b", "x: y", "$(touch /tmp/nim-fuzz)", "`id`", "a'b\"c", "{x}",
            "yes", "off", "True", "~", "1e3", "1_000", "0x1F", ".inf", "+1", "1.10",
            "- item", "[x]", "*alias", "&anchor", "!!binary x", "|", "> folded", "%x", "@x", "---", "'", "\\", " padded ",
            "a\nb", "tab\there", "; touch /tmp/nim-fuzz", "x && id", "x | id", "${HOME}", "$IFS", "> /tmp/nim-fuzz",
            "{{ .Release.Name }}");

    /** Strings a patterned key must refuse, tried in order for a "bad pattern" mutation. */
    static final List<String> BAD_STRINGS = List.of(
            "16 GB", "lots", "-1Gi", "1.5.0Gi", "10.0.0.1", "v1/health/live", "Bad Key!", "-leading", "30 seconds",
            "ten", "a".repeat(70), "", "with space");

    /** Below this many path segments an object gets its required fields only and a list its minimum of items. */
    static final int MAX_OPTIONAL_DEPTH = 6;

    /** Tries at drawing an instance of a ruled Kubernetes definition that keeps (or, for a mutation, breaks) its rules. */
    static final int RULE_TRIES = 40;
    /** An instance of each ruled definition that keeps its rules, when no draw does. */
    private static final Map<String, Object> RULED_FALLBACK = Map.of(
            "io.k8s.api.core.v1.Toleration", Map.of("operator", "Exists"),
            "io.k8s.api.core.v1.NodeSelectorRequirement", Map.of("key", "example.com/tier", "operator", "Exists"),
            "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement", Map.of("key", "example.com/tier", "operator", "Exists"),
            "io.k8s.api.core.v1.SecurityContext", Map.of(),
            "io.k8s.api.core.v1.PodSecurityContext", Map.of());

    private final ValuesSchema schema;
    private final OpaqueSamples opaque;
    private final Random random;
    private final Map<String, Schema> definitionValidators = new java.util.HashMap<>();
    private int kubernetesSamples;

    /** @param opaque the chart's {@link OpaqueSamples#of(ValuesSchema)} */
    SchemaSampler(ValuesSchema schema, OpaqueSamples opaque, Random random) {
        this.schema = schema;
        this.opaque = opaque;
        this.random = random;
    }

    /**
     * A value the node accepts; {@code path} names it for the opaque samples and error messages. An instance of a
     * Kubernetes definition with rules of Kubernetes' validation code (an empty toleration key needs operator Exists,
     * In needs values, ...) is drawn until it keeps them.
     */
    Object valid(Map<String, Object> node, String path) {
        String ruled = ruledDefinition(node);
        if (ruled == null) {
            return draw(node, path);
        }
        for (int i = 0; i < RULE_TRIES; i++) {
            Object value = draw(node, path);
            if (definitionRefuses(ruled, value).isEmpty()) {
                return value;
            }
        }
        // No draw kept the rules: a known instance, else the last draw (an overlay the schema refuses is dropped).
        return RULED_FALLBACK.containsKey(ruled) ? OpaqueSamples.copy(RULED_FALLBACK.get(ruled)) : draw(node, path);
    }

    /**
     * An instance of a ruled Kubernetes definition whose fields have valid types but that breaks a rule of Kubernetes'
     * validation code (what a user writes and the API server would refuse), or null when no draw does.
     */
    Object breakingRule(String definition, String path) {
        Map<String, Object> node = Map.of("$ref", "#/$defs/" + definition);
        for (int i = 0; i < RULE_TRIES; i++) {
            Object value = draw(node, path);
            if (!definitionRefuses(definition, value).isEmpty()) {
                return value;
            }
        }
        return null;
    }

    /** The ruled definition a node refers to, or null. */
    private static String ruledDefinition(Map<String, Object> node) {
        if (node.get("$ref") instanceof String ref && ref.startsWith("#/$defs/")) {
            String name = ref.substring("#/$defs/".length());
            return KubernetesDefinitions.ruledDefinitions().contains(name) ? name : null;
        }
        return null;
    }

    /** What the definition's schema says against the value (empty when it accepts it). */
    List<String> definitionRefuses(String definition, Object value) {
        Schema validator = definitionValidators.computeIfAbsent(definition, name -> {
            Map<String, Object> wrapper = new LinkedHashMap<>();
            wrapper.put("$schema", "https://json-schema.org/draft/2020-12/schema");
            wrapper.put("$ref", "#/$defs/" + name);
            wrapper.put("$defs", schema.root().get("$defs"));
            return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(
                    SchemaLocation.of("https://chart-tests.fuzz/" + name + ".json"), JsonMapper.shared().writeValueAsString(wrapper),
                    InputFormat.JSON);
        });
        return validator.validate(JsonMapper.shared().valueToTree(value)).stream().map(e -> e.getMessage()).toList();
    }

    @SuppressWarnings("unchecked")
    private Object draw(Map<String, Object> node, String path) {
        if (opaque.isOpaque(path)) {
            // Half the time from the Kubernetes definition, where the schema has one (fields, or a list of objects).
            if (schema.properties(node).isEmpty() && !isKubernetesList(node) || random.nextBoolean()) {
                return opaque.pick(path, random);
            }
            kubernetesSamples++;
        }
        Map<String, Object> s = withAllOf(schema.resolve(node));
        if (s.containsKey("const")) {
            return s.get("const");
        }
        if (s.get("enum") instanceof List<?> values) {
            return values.get(random.nextInt(values.size()));
        }
        if (s.get("if") instanceof Map<?, ?> condition && s.get("then") instanceof Map<?, ?> then
                && s.get("else") instanceof Map<?, ?> otherwise) {
            // A list or a map (extraVolumes: "if it is an array, then items ..., else additionalProperties ...").
            Map<String, Object> branch = new LinkedHashMap<>(s);
            branch.keySet().removeAll(List.of("if", "then", "else"));
            if (random.nextBoolean()) {
                branch.putAll((Map<String, Object>) condition);
                branch.putAll((Map<String, Object>) then);
            } else {
                branch.putAll((Map<String, Object>) otherwise);
                branch.put("type", "object");
            }
            return valid(branch, path);
        }
        for (String choice : List.of("oneOf", "anyOf")) {
            if (s.get(choice) instanceof List<?> branches) {
                return valid((Map<String, Object>) branches.get(random.nextInt(branches.size())), path);
            }
        }
        String type = pickType(s);
        return switch (type) {
            case "boolean" -> random.nextBoolean();
            case "integer" -> integer(s, path);
            case "number" -> {
                // A fractional number of a million or more never renders as written (Helm prints 1.5e+06): the
                // schemas refuse it, so a valid document holds whole numbers there.
                long whole = integer(s, path);
                yield random.nextBoolean() || whole >= 999_999 ? whole : whole + 0.5;
            }
            case "string" -> string(s, path);
            case "array" -> array(s, path);
            case "object" -> object(s, path);
            case "null" -> null;
            default -> throw new IllegalStateException(path + ": no sampler for type " + type);
        };
    }

    /** How many pass-through values this sampler has made from their Kubernetes definitions so far. */
    int kubernetesSamples() {
        return kubernetesSamples;
    }

    /** A list of Kubernetes objects, or a map of them to names (extraVolumes), as the chart's schema declares them. */
    @SuppressWarnings("unchecked")
    private boolean isKubernetesList(Map<String, Object> node) {
        Map<String, Object> s = schema.resolve(node);
        if (s.get("items") instanceof Map<?, ?> items && ValuesSchema.isKubernetesObject((Map<String, Object>) items)) {
            return true;
        }
        return s.get("then") instanceof Map<?, ?> then && then.get("items") instanceof Map<?, ?> items
                && ValuesSchema.isKubernetesObject((Map<String, Object>) items);
    }

    private static int depth(String path) {
        return path.split("\\.|\\[\\]", -1).length;
    }

    /** A string matching the node's pattern and lengths, from {@link #STRINGS}. */
    String string(Map<String, Object> s, String path) {
        List<String> matching = STRINGS.stream().filter(v -> accepts(s, v)).toList();
        if (matching.isEmpty()) {
            throw new IllegalStateException(path + ": no sample string matches " + s.get("pattern")
                    + "; add one to SchemaSampler.STRINGS");
        }
        return matching.get(random.nextInt(matching.size()));
    }

    /** A string of {@link #BAD_STRINGS} the node refuses, or null when it refuses none of them. */
    String badString(Map<String, Object> s) {
        List<String> refused = BAD_STRINGS.stream().filter(v -> !accepts(s, v)).toList();
        return refused.isEmpty() ? null : refused.get(random.nextInt(refused.size()));
    }

    /** Whether a string satisfies the node's pattern and length limits (JSON Schema patterns are unanchored). */
    static boolean accepts(Map<String, Object> s, String value) {
        if (s.get("minLength") instanceof Number min && value.codePointCount(0, value.length()) < min.intValue()) {
            return false;
        }
        if (s.get("maxLength") instanceof Number max && value.codePointCount(0, value.length()) > max.intValue()) {
            return false;
        }
        return !(s.get("pattern") instanceof String pattern) || Pattern.compile(pattern).matcher(value).find();
    }

    /** The node with the keywords of its {@code allOf} schemas added (enough for the string and number rules used here). */
    @SuppressWarnings("unchecked")
    private Map<String, Object> withAllOf(Map<String, Object> s) {
        if (!(s.get("allOf") instanceof List<?> all)) {
            return s;
        }
        Map<String, Object> merged = new LinkedHashMap<>(s);
        merged.remove("allOf");
        all.forEach(part -> schema.resolve((Map<String, Object>) part).forEach(merged::putIfAbsent));
        return merged;
    }

    private String pickType(Map<String, Object> s) {
        Object type = s.get("type");
        if (type instanceof String t) {
            return t;
        }
        if (type instanceof List<?> types) {
            List<?> nonNull = types.stream().filter(t -> !"null".equals(t)).toList();
            // Never null where the schema also takes another type: Helm reads a null as "delete the chart's default",
            // so a sampled null removes a key the merged values require (nulls are one of the mutations instead).
            List<?> pool = nonNull.isEmpty() ? types : nonNull;
            return (String) pool.get(random.nextInt(pool.size()));
        }
        return s.containsKey("properties") || s.containsKey("additionalProperties") ? "object" : "string";
    }

    /**
     * Counts that multiply rendered objects (a chart may render one object per replica) stay small: the names
     * {@code helm create} gives them. Other integers without a maximum are sometimes a million or more, which Go prints
     * as 1e+06 unless the chart takes care.
     */
    static final List<String> OBJECT_COUNTS = List.of("replicaCount", "autoscaling.minReplicas", "autoscaling.maxReplicas");

    private long integer(Map<String, Object> s, String path) {
        long min = s.get("minimum") instanceof Number n ? n.longValue() : -2;
        boolean bounded = s.get("maximum") instanceof Number;
        if (!OBJECT_COUNTS.contains(path) && random.nextInt(8) == 0) {
            long large = 1_000_000L + random.nextInt(1_000_000_000);
            if (!bounded || ((Number) s.get("maximum")).longValue() >= large) {
                return large;
            }
        }
        if (!OBJECT_COUNTS.contains(path) && random.nextInt(16) == 0) {
            // The edges of the integer types values pass through: int32 (most Kubernetes fields), 2^53 (the last whole
            // number a float64, which Helm reads every number as, holds exactly).
            long edge = pick(List.of(2_147_483_647L, 2_147_483_648L, 9_007_199_254_740_992L));
            if (!bounded || ((Number) s.get("maximum")).longValue() >= edge) {
                return edge;
            }
        }
        long max = bounded ? ((Number) s.get("maximum")).longValue() : Math.max(min + 16, 16);
        if (OBJECT_COUNTS.contains(path)) {
            max = Math.min(max, Math.max(min + 16, 16)); // an int32 maximum is no count of objects to render
        }
        return switch (random.nextInt(4)) {
            case 0 -> min;
            case 1 -> Math.min(max, min + 1);
            case 2 -> Math.min(max, Math.max(min, 1 + random.nextInt(8)));
            default -> min + (long) (random.nextDouble() * (max - min + 1));
        };
    }

    @SuppressWarnings("unchecked")
    private List<Object> array(Map<String, Object> s, String path) {
        if (s.get("items") instanceof List<?> tuple) {
            // Drafts 04 to 07's list form of items: one schema per position (a pair, a triple).
            List<Object> list = new ArrayList<>();
            for (int i = 0; i < tuple.size(); i++) {
                list.add(valid((Map<String, Object>) tuple.get(i), path + "[]"));
            }
            return list;
        }
        int min = s.get("minItems") instanceof Number n ? n.intValue() : 0;
        int count = min + (depth(path) < MAX_OPTIONAL_DEPTH ? random.nextInt(3) : 0);
        Map<String, Object> items = s.get("items") instanceof Map ? (Map<String, Object>) s.get("items") : Map.of();
        List<Object> list = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            list.add(valid(items, path + "[]"));
        }
        return list;
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> object(Map<String, Object> s, String path) {
        Map<String, Object> properties = schema.properties(s);
        Object additional = s.get("additionalProperties");
        List<?> required = s.get("required") instanceof List<?> r ? r : List.of();
        Map<String, Object> out = new LinkedHashMap<>();
        properties.forEach((key, child) -> {
            // "deprecated": upstream keys the chart refuses or maps; a user migrating sets them, a coherent document does not.
            boolean deprecated = child instanceof Map<?, ?> c && Boolean.TRUE.equals(c.get("deprecated"));
            if (required.contains(key) || (!deprecated && depth(path) < MAX_OPTIONAL_DEPTH && random.nextInt(3) == 0)) {
                out.put(key, valid((Map<String, Object>) child, KeyPath.child(path, key)));
            }
        });
        Map<String, Object> patterns = s.get("patternProperties") instanceof Map ? (Map<String, Object>) s.get("patternProperties") : Map.of();
        int count = (additional instanceof Map || !patterns.isEmpty()) && depth(path) < MAX_OPTIONAL_DEPTH ? random.nextInt(3) : 0;
        for (int i = 0; i < count; i++) {
            String keyPattern = patterns.isEmpty() ? null : List.copyOf(patterns.keySet()).get(random.nextInt(patterns.size()));
            Map<String, Object> names = keyPattern != null ? Map.of("pattern", keyPattern)
                    : s.get("propertyNames") instanceof Map<?, ?> propertyNames ? (Map<String, Object>) propertyNames : Map.of();
            String key = string(names, path + " key");
            Object valueSchema = keyPattern == null ? additional : patterns.get(keyPattern);
            if (!key.isEmpty() && !properties.containsKey(key)) {
                out.put(key, valid((Map<String, Object>) valueSchema, KeyPath.child(path, key)));
            }
        }
        keepWithinPropertyLimits(s, path, properties, out);
        return out;
    }

    /** Honours minProperties, maxProperties and a {@code not: {required: [...]}} (keys that exclude each other). */
    @SuppressWarnings("unchecked")
    private void keepWithinPropertyLimits(Map<String, Object> s, String path, Map<String, Object> properties,
                                          Map<String, Object> out) {
        if (s.get("not") instanceof Map<?, ?> not && not.get("required") instanceof List<?> exclusive
                && out.keySet().containsAll(exclusive)) {
            out.remove(exclusive.get(random.nextInt(exclusive.size())));
        }
        // A {not: {anyOf: [{required: [k]}, ...]}} forbids each of those keys, as Kubernetes forbids probes and
        // lifecycle hooks on init containers (s has its allOf parts merged in: withAllOf).
        List<Object> nots = new ArrayList<>();
        nots.add(s.get("not"));
        // {if: {not: {required: [k], properties: {k: {const: v}}}}, then: {not: {anyOf: ...}}}: unless k is v, the
        // keys of then are forbidden (Kubernetes: only a sidecar init container, restartPolicy Always, takes probes).
        if (s.get("then") instanceof Map<?, ?> then && s.get("if") instanceof Map<?, ?> cond && cond.get("not") instanceof Map<?, ?> unless
                && unless.get("required") instanceof List<?> req && req.size() == 1 && unless.get("properties") instanceof Map<?, ?> props
                && props.get(req.get(0)) instanceof Map<?, ?> constant && constant.containsKey("const")) {
            Object key = req.get(0);
            if (!(out.containsKey(String.valueOf(key)) && constant.get("const").equals(out.get(String.valueOf(key))))) {
                nots.add(then.get("not"));
            }
        }
        for (Object not : nots) {
            if (not instanceof Map<?, ?> n && n.get("anyOf") instanceof List<?> forbidden) {
                for (Object f : forbidden) {
                    if (f instanceof Map<?, ?> fm && fm.get("required") instanceof List<?> keys && keys.size() == 1) {
                        out.remove(String.valueOf(keys.get(0)));
                    }
                }
            }
        }
        int max = s.get("maxProperties") instanceof Number n ? n.intValue() : Integer.MAX_VALUE;
        List<?> required = s.get("required") instanceof List<?> r ? r : List.of();
        List<String> optional = new ArrayList<>(out.keySet());
        optional.removeAll(required);
        while (out.size() > max && !optional.isEmpty()) {
            out.remove(optional.remove(random.nextInt(optional.size())));
        }
        int min = s.get("minProperties") instanceof Number n ? n.intValue() : 0;
        List<String> missing = new ArrayList<>(properties.keySet());
        missing.removeAll(out.keySet());
        while (out.size() < min && !missing.isEmpty()) {
            String key = missing.remove(random.nextInt(missing.size()));
            out.put(key, valid((Map<String, Object>) properties.get(key), KeyPath.child(path, key)));
        }
    }

    private <T> T pick(List<T> choices) {
        return choices.get(random.nextInt(choices.size()));
    }
}
