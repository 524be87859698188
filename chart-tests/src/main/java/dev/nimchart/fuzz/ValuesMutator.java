package dev.nimchart.fuzz;

import dev.nimchart.objects.KeyPath;
import dev.nimchart.values.ValuesSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * Makes a values document "near-valid": one mistake of the kind users make, at a key path the schema describes
 * (or a list item the document holds): a misspelt key, a value of the wrong type, a number out of range, an unknown
 * enum value, a string that breaks its pattern (a malformed quantity, a path without its slash), or a null that
 * deletes a chart default.
 */
final class ValuesMutator {

    enum Kind { UNKNOWN_KEY, WRONG_TYPE, OUT_OF_RANGE, BAD_ENUM, BAD_PATTERN, NULL_DEFAULT, KUBERNETES_RULE }

    /**
     * Where a Kubernetes definition with rules of Kubernetes' validation code sits in a value the chart passes through,
     * for a KUBERNETES_RULE mistake: the definition of the chart's key (or of its list's items), the path inside it
     * (empty: the value itself), and the ruled definition there. Which keys of a chart hold them is read from its schema
     * ({@link #ruledKeys(ValuesSchema)}).
     */
    private static final List<List<String>> RULED_INSIDE = List.of(
            List.of("io.k8s.api.core.v1.Toleration", "", "io.k8s.api.core.v1.Toleration"),
            List.of("io.k8s.api.core.v1.SecurityContext", "", "io.k8s.api.core.v1.SecurityContext"),
            List.of("io.k8s.api.core.v1.PodSecurityContext", "", "io.k8s.api.core.v1.PodSecurityContext"),
            List.of("io.k8s.api.core.v1.Affinity", ".nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[]",
                    "io.k8s.api.core.v1.NodeSelectorRequirement"),
            List.of("io.k8s.api.core.v1.Affinity", ".podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[]",
                    "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement"));

    /** Values of every JSON type, for a wrong-type mutation. */
    private static final List<Object> ANY_TYPE = List.of("three", 3, 2.5, true, List.of("x"), Map.of("x", "y"));

    private final ValuesSchema schema;
    private final SchemaSampler sampler;
    private final Map<String, Object> defaults;
    private final Random random;
    private final List<List<String>> ruledKeys;
    private final OpaqueSamples opaque;

    /** @param ruledKeys the chart's {@link #ruledKeys(ValuesSchema)}; {@code opaque} its {@link OpaqueSamples#of(ValuesSchema)} */
    ValuesMutator(ValuesSchema schema, List<List<String>> ruledKeys, OpaqueSamples opaque, SchemaSampler sampler,
                  Map<String, Object> defaults, Random random) {
        this.schema = schema;
        this.ruledKeys = ruledKeys;
        this.opaque = opaque;
        this.sampler = sampler;
        this.defaults = defaults;
        this.random = random;
    }

    /**
     * The chart's keys where a ruled Kubernetes definition sits (key path, a list when it ends in {@code []}; and the
     * ruled definition), from the keys of its schema that refer to a definition of {@link #RULED_INSIDE} whose ruled
     * definition the schema embeds; none for a chart that passes no such object through.
     */
    @SuppressWarnings("unchecked")
    static List<List<String>> ruledKeys(ValuesSchema schema) {
        List<List<String>> out = new ArrayList<>();
        List<ValuesSchema.Entry> entries = schema.entries();
        Map<?, ?> defs = schema.root().get("$defs") instanceof Map<?, ?> d ? d : Map.of();
        for (List<String> rule : RULED_INSIDE) {
            if (!defs.containsKey(rule.get(2))) {
                continue; // the schema does not embed the ruled definition: there is no rule of it to break
            }
            String ref = "#/$defs/" + rule.get(0);
            for (ValuesSchema.Entry e : entries) {
                List<String> parent = e.keys().subList(0, e.keys().size() - 1);
                Map<String, Object> parentSchema = parent.isEmpty() ? schema.root() : schema.at(parent);
                if (!(schema.properties(parentSchema).get(e.keys().get(e.keys().size() - 1)) instanceof Map<?, ?> raw)) {
                    continue;
                }
                if (ref.equals(raw.get("$ref"))) {
                    out.add(List.of(e.path() + rule.get(1), rule.get(2)));
                } else if (raw.get("items") instanceof Map<?, ?> items && ref.equals(items.get("$ref"))) {
                    out.add(List.of(e.path() + (rule.get(1).isEmpty() ? "[]" : "[0]" + rule.get(1)), rule.get(2)));
                }
            }
        }
        return List.copyOf(out);
    }

    /**
     * Applies one mistake to {@code doc} and describes it ("WRONG_TYPE at multiNode.workers: \"three\""), or returns
     * null, the document unchanged, when no mistake applies in 50 tries.
     */
    String mutate(Map<String, Object> doc) {
        List<ValuesTarget> all = ValuesTarget.all(schema, doc);
        List<ValuesTarget> insidePassThrough = all.stream().filter(t -> opaque.passesThrough(t.path())).toList();
        // Where the document holds pass-through Kubernetes objects, one mistake in two is made inside them.
        List<ValuesTarget> targets = !insidePassThrough.isEmpty() && random.nextBoolean() ? insidePassThrough : all;
        for (int attempt = 0; attempt < 50; attempt++) {
            Kind kind = Kind.values()[random.nextInt(Kind.values().length)];
            // A kind that fits few keys (an enum, a string pattern or length) draws among those, so every kind stays
            // as likely as the others.
            List<ValuesTarget> fitting = switch (kind) {
                case BAD_ENUM -> targets.stream().filter(t -> t.schema().get("enum") instanceof List).toList();
                case BAD_PATTERN -> targets.stream().filter(t -> t.schema().get("pattern") instanceof String
                        || t.schema().get("minLength") instanceof Number || t.schema().get("maxLength") instanceof Number).toList();
                case KUBERNETES_RULE -> ruledKeys.isEmpty() ? List.of() : all;
                default -> targets;
            };
            if (fitting.isEmpty()) {
                continue;
            }
            ValuesTarget target = fitting.get(random.nextInt(fitting.size()));
            String description = apply(kind, target, doc);
            if (description != null) {
                return kind + " at " + description;
            }
        }
        return null; // a schema with nothing to break (no declared key, no type): the document stays valid
    }

    private String apply(Kind kind, ValuesTarget target, Map<String, Object> doc) {
        Map<String, Object> s = target.schema();
        return switch (kind) {
            case UNKNOWN_KEY -> unknownKey(target, doc);
            case WRONG_TYPE -> set(doc, target, wrongType(s));
            case OUT_OF_RANGE -> set(doc, target, outOfRange(s));
            case BAD_ENUM -> set(doc, target, badEnum(s));
            case BAD_PATTERN -> set(doc, target, "string".equals(s.get("type")) || s.get("type") instanceof List
                    ? sampler.badString(s) : null);
            case NULL_DEFAULT -> target.isDefaultIn(defaults) ? target.setIn(doc, null) : null;
            case KUBERNETES_RULE -> breakKubernetesRule(doc);
        };
    }

    /**
     * A pass-through object whose fields have valid types but that breaks a rule of Kubernetes' validation code (an
     * operator In without values, a toleration value with operator Exists, privileged without privilege escalation):
     * what the API server refuses for a Deployment and never sees inside a LeaderWorkerSet or MPIJob.
     */
    @SuppressWarnings("unchecked")
    private String breakKubernetesRule(Map<String, Object> doc) {
        List<String> ruled = ruledKeys.get(random.nextInt(ruledKeys.size()));
        String path = ruled.get(0);
        boolean list = path.endsWith("[]");
        String at = list ? path.substring(0, path.length() - 2) : path;
        Object value = sampler.breakingRule(ruled.get(1), at);
        if (value == null) {
            return null;
        }
        Object node = doc;
        String[] keys = at.split("\\.");
        for (int i = 0; i < keys.length; i++) {
            String key = keys[i].replace("[0]", "");
            boolean element = keys[i].endsWith("[0]");
            Map<String, Object> map = (Map<String, Object>) node;
            boolean last = i == keys.length - 1;
            Object leaf = list ? new ArrayList<>(List.of(value)) : value;
            if (last && !element) {
                map.put(key, leaf);
            } else if (element) {
                Map<String, Object> item = new java.util.LinkedHashMap<>();
                map.put(key, new ArrayList<>(List.of(item)));
                node = item;
            } else {
                Object child = map.get(key);
                Map<String, Object> copy = child instanceof Map<?, ?> c ? new java.util.LinkedHashMap<>((Map<String, Object>) c)
                        : new java.util.LinkedHashMap<>();
                map.put(key, copy);
                node = copy;
            }
        }
        return (list ? at + "[0]" : at) + ": " + value;
    }

    private String set(Map<String, Object> doc, ValuesTarget target, Object value) {
        return value == null ? null : target.setIn(doc, value);
    }

    /** A sibling key one typo away from a declared property, in an object that allows no other keys. */
    @SuppressWarnings("unchecked")
    private String unknownKey(ValuesTarget target, Map<String, Object> doc) {
        Map<String, Object> s = target.schema();
        Map<String, Object> properties = schema.properties(s);
        if (!Boolean.FALSE.equals(s.get("additionalProperties")) || properties.isEmpty()) {
            return null;
        }
        List<String> names = new ArrayList<>(properties.keySet());
        String name = names.get(random.nextInt(names.size()));
        String typo = typo(name);
        if (properties.containsKey(typo)) {
            return null;
        }
        Object value = sampler.valid((Map<String, Object>) properties.get(name), KeyPath.child(target.path(), name));
        return target.child(typo).setIn(doc, value);
    }

    private String typo(String name) {
        int i = random.nextInt(name.length());
        return switch (random.nextInt(4)) {
            case 0 -> name + "s";
            case 1 -> name.length() > 1 ? name.substring(0, i) + name.substring(i + 1) : name + name;
            case 2 -> name.toLowerCase(Locale.ROOT).equals(name) ? name.toUpperCase(Locale.ROOT) : name.toLowerCase(Locale.ROOT);
            default -> name.substring(0, i) + name.charAt(i) + name.substring(i);
        };
    }

    private Object wrongType(Map<String, Object> s) {
        List<String> allowed = types(s);
        if (allowed.isEmpty()) {
            return null;
        }
        List<Object> wrong = ANY_TYPE.stream().filter(v -> !allowed.contains(jsonType(v))
                && !(allowed.contains("number") && v instanceof Integer)).toList();
        return wrong.isEmpty() ? null : wrong.get(random.nextInt(wrong.size()));
    }

    private Object outOfRange(Map<String, Object> s) {
        if (!types(s).contains("integer")) {
            return null;
        }
        List<Object> candidates = new ArrayList<>();
        if (s.get("minimum") instanceof Number min) {
            candidates.add(min.longValue() - 1);
            candidates.add(Math.min(-1, min.longValue() - 1));
        }
        if (s.get("maximum") instanceof Number max) {
            candidates.add(max.longValue() + 1);
        }
        return candidates.isEmpty() ? null : candidates.get(random.nextInt(candidates.size()));
    }

    private Object badEnum(Map<String, Object> s) {
        if (!(s.get("enum") instanceof List<?> values)) {
            return null;
        }
        String base = String.valueOf(values.get(random.nextInt(values.size())));
        String bad = random.nextBoolean() ? base.toLowerCase(Locale.ROOT) + "x" : typo(base.isEmpty() ? "none" : base);
        return values.contains(bad) ? null : bad;
    }

    private static List<String> types(Map<String, Object> s) {
        if (s.get("type") instanceof String t) {
            return List.of(t);
        }
        if (s.get("type") instanceof List<?> list) {
            return list.stream().map(String::valueOf).toList();
        }
        return List.of();
    }

    private static String jsonType(Object value) {
        if (value instanceof String) {
            return "string";
        }
        if (value instanceof Integer) {
            return "integer";
        }
        if (value instanceof Number) {
            return "number";
        }
        if (value instanceof Boolean) {
            return "boolean";
        }
        return value instanceof List ? "array" : "object";
    }
}
