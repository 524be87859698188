package dev.nimchart.fuzz;

import dev.nimchart.objects.KeyPath;
import dev.nimchart.values.ValuesSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Realistic Kubernetes snippets for the values a chart passes through as they are (security contexts, affinity,
 * tolerations, extra volumes, init containers, autoscaler metrics, ...), keyed by the Kubernetes definition its
 * values.schema.json gives them ({@code $ref: "#/$defs/io.k8s.api.core.v1.Affinity"}). Which keys of a chart hold them
 * is read from its schema ({@link #of(ValuesSchema)}): a key path ({@code []} for a list item) whose schema refers to a
 * definition with samples here, or that is a list of such objects or a map of them by name ({@code if: {type: array},
 * then: {items: ...}, else: {additionalProperties: ...}}). values.schema.json checks them against the embedded
 * Kubernetes definitions; the fuzzer draws half of them from here (what users write) and half from those definitions
 * ({@link SchemaSampler}), and mutates their insides.
 */
final class OpaqueSamples {

    private static final String REF = "#/$defs/";

    /** Samples of an object of each definition. */
    private static final Map<String, List<Object>> BY_DEFINITION = Map.ofEntries(
            Map.entry("io.k8s.api.core.v1.PodSecurityContext", List.of(
                    Map.of("runAsNonRoot", true, "runAsUser", 1000, "runAsGroup", 1000, "fsGroup", 1000,
                            "seccompProfile", Map.of("type", "RuntimeDefault")),
                    Map.of("runAsNonRoot", true, "runAsUser", 2000, "fsGroup", 2000,
                            "fsGroupChangePolicy", "OnRootMismatch", "seccompProfile", Map.of("type", "RuntimeDefault")))),
            Map.entry("io.k8s.api.core.v1.SecurityContext", List.of(
                    Map.of("allowPrivilegeEscalation", false, "capabilities", Map.of("drop", List.of("ALL"))),
                    Map.of("allowPrivilegeEscalation", false, "readOnlyRootFilesystem", false,
                            "capabilities", Map.of("drop", List.of("ALL"))))),
            Map.entry("io.k8s.api.core.v1.Affinity", List.of(Map.of(), Map.of("nodeAffinity", Map.of(
                    "requiredDuringSchedulingIgnoredDuringExecution", Map.of("nodeSelectorTerms", List.of(Map.of(
                            "matchExpressions", List.of(Map.of("key", "nvidia.com/gpu.product", "operator", "In",
                                    "values", List.of("NVIDIA-H100-80GB-HBM3")))))))))),
            Map.entry("io.k8s.api.core.v1.Toleration", List.of(
                    Map.of("key", "nvidia.com/gpu", "operator", "Exists", "effect", "NoSchedule"),
                    Map.of("key", "dedicated", "operator", "Equal", "value", "inference", "effect", "NoExecute"))),
            Map.entry("io.k8s.api.core.v1.Container", List.of(
                    Map.of("name", "wait-for-cache", "image", "busybox:1.37", "command", List.of("sh", "-c", "true")),
                    Map.of("name", "warm-up", "image", "busybox:1.37",
                            "volumeMounts", List.of(Map.of("name", "model-store", "mountPath", "/model-store"))))),
            Map.entry("io.k8s.api.autoscaling.v2.MetricSpec", List.of(
                    Map.of("type", "Resource", "resource", Map.of("name", "cpu",
                            "target", Map.of("type", "Utilization", "averageUtilization", 80))),
                    Map.of("type", "Pods", "pods", Map.of("metric", Map.of("name", "num_requests_waiting"),
                            "target", Map.of("type", "AverageValue", "averageValue", "10"))))),
            Map.entry("io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerBehavior", List.of(Map.of(),
                    Map.of("scaleDown", Map.of("stabilizationWindowSeconds", 300)))),
            Map.entry("io.k8s.api.core.v1.ObjectFieldSelector", List.of(Map.of("fieldPath", "metadata.name"))),
            Map.entry("io.k8s.api.core.v1.ResourceFieldSelector", List.of(Map.of("resource", "limits.memory"))),
            Map.entry("io.k8s.api.core.v1.ConfigMapKeySelector", List.of(Map.of("name", "nim-config", "key", "max-len"))),
            Map.entry("io.k8s.api.core.v1.SecretKeySelector", List.of(Map.of("name", "hf-token", "key", "HF_TOKEN"))));

    /** Samples of a list of objects of each definition, or of a map of them by name (the name left out of each). */
    private static final Map<String, List<Object>> LIST_OR_MAP_BY_DEFINITION = Map.ofEntries(
            Map.entry("io.k8s.api.core.v1.Volume", List.of(Map.of(),
                    Map.of("custom-config", Map.of("configMap", Map.of("name", "nim-config"))),
                    Map.of("model-store", Map.of("persistentVolumeClaim", Map.of("claimName", "my-cache"))),
                    List.of(Map.of("name", "custom-config", "configMap", Map.of("name", "nim-config"))))),
            Map.entry("io.k8s.api.core.v1.VolumeMount", List.of(Map.of(),
                    Map.of("custom-config", Map.of("mountPath", "/etc/nim/custom", "readOnly", true)),
                    List.of(Map.of("name", "custom-config", "mountPath", "/etc/nim/custom")))));

    /** Deeper than this the schema walk stops (a definition of the chart's that refers to itself). */
    private static final int MAX_DEPTH = 16;

    /** This chart's pass-through key paths ({@code []} for a list item) and their samples. */
    private final Map<String, List<Object>> samples;

    private OpaqueSamples(Map<String, List<Object>> samples) {
        this.samples = Map.copyOf(samples);
    }

    /** The pass-through keys of a chart's schema that have samples here, and their samples. */
    static OpaqueSamples of(ValuesSchema schema) {
        Map<String, List<Object>> found = new LinkedHashMap<>();
        walk(schema, schema.root(), "", 0, found);
        return new OpaqueSamples(found);
    }

    /**
     * Descends named properties, list items ({@code []}) and the branches of oneOf/anyOf/allOf, following the chart's
     * own {@code $ref}s, down to a reference to a Kubernetes definition.
     */
    @SuppressWarnings("unchecked")
    private static void walk(ValuesSchema schema, Map<String, Object> node, String path, int depth, Map<String, List<Object>> found) {
        if (depth > MAX_DEPTH) {
            return;
        }
        if (ValuesSchema.isKubernetesObject(node)) {
            String definition = ((String) node.get("$ref")).substring(REF.length());
            if (BY_DEFINITION.containsKey(definition) && !path.isEmpty()) {
                found.put(path, BY_DEFINITION.get(definition));
            }
            return;
        }
        Map<String, Object> s = schema.resolve(node);
        if (s.get("if") instanceof Map<?, ?> && s.get("then") instanceof Map<?, ?> then && then.get("items") instanceof Map<?, ?> items
                && ValuesSchema.isKubernetesObject((Map<String, Object>) items)) {
            String definition = ((String) items.get("$ref")).substring(REF.length());
            if (LIST_OR_MAP_BY_DEFINITION.containsKey(definition)) {
                found.put(path, LIST_OR_MAP_BY_DEFINITION.get(definition));
            }
            return;
        }
        schema.properties(s).forEach((key, child) -> {
            if (child instanceof Map<?, ?> c) {
                walk(schema, (Map<String, Object>) c, KeyPath.child(path, key), depth + 1, found);
            }
        });
        if (s.get("items") instanceof Map<?, ?> items) {
            walk(schema, (Map<String, Object>) items, path + "[]", depth + 1, found);
        }
        for (String choice : List.of("oneOf", "anyOf", "allOf")) {
            if (s.get(choice) instanceof List<?> branches) {
                branches.stream().filter(b -> b instanceof Map).forEach(b -> walk(schema, (Map<String, Object>) b, path, depth + 1, found));
            }
        }
    }

    /** The chart's pass-through key paths that have samples ({@code []} for a list item). */
    java.util.Set<String> paths() {
        return samples.keySet();
    }

    /** A random sample for the path (a copy: mutations change it); {@code {}} for a free-form object nobody listed. */
    Object pick(String path, Random random) {
        List<Object> samples = this.samples.getOrDefault(path, List.of(Map.of()));
        return copy(samples.get(random.nextInt(samples.size())));
    }

    /**
     * A mutable copy, each map's keys in sorted order: a {@code Map.of}'s own order differs from JVM to JVM, and a
     * document's key order decides where its mistake goes, so that the same seed gives the same documents in any run.
     */
    static Object copy(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new java.util.LinkedHashMap<>();
            new java.util.TreeMap<>(map).forEach((k, v) -> out.put(String.valueOf(k), copy(v)));
            return out;
        }
        if (value instanceof List<?> list) {
            return new java.util.ArrayList<>(list.stream().map(OpaqueSamples::copy).toList());
        }
        return value;
    }

    /** Whether the value at this path (list items as {@code []}) is a Kubernetes object the chart passes through. */
    boolean isOpaque(String path) {
        return samples.containsKey(path);
    }

    /** Whether the key holds values the chart passes through: one itself, or a list of them ({@code tolerations}). */
    boolean holdsPassThrough(String path) {
        return passesThrough(path) || samples.keySet().stream().anyMatch(key -> key.startsWith(path + "["));
    }

    /** Whether a key path ({@code tolerations[0].efect}) is at or inside a value the chart passes through. */
    boolean passesThrough(String path) {
        String generic = path.replaceAll("\\[[0-9]+]", "[]");
        return samples.keySet().stream().anyMatch(key -> generic.equals(key) || generic.startsWith(key + ".")
                || generic.startsWith(key + "["));
    }
}
