package dev.nimchart.fuzz;

import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Realistic Kubernetes snippets for the values the chart passes through as they are (security contexts, affinity,
 * tolerations, extra volumes, init containers, autoscaler metrics, ...), keyed by their key path ({@code []} for a
 * list item). values.schema.json checks them against the embedded Kubernetes definitions; the fuzzer draws half of
 * them from here (what users write) and half from those definitions ({@link SchemaSampler}), and mutates their insides.
 */
final class OpaqueSamples {

    private static final Map<String, List<Object>> SAMPLES = Map.ofEntries(
            Map.entry("podSecurityContext", List.of(
                    Map.of("runAsNonRoot", true, "runAsUser", 1000, "runAsGroup", 1000, "fsGroup", 1000,
                            "seccompProfile", Map.of("type", "RuntimeDefault")),
                    Map.of("runAsNonRoot", true, "runAsUser", 2000, "fsGroup", 2000,
                            "fsGroupChangePolicy", "OnRootMismatch", "seccompProfile", Map.of("type", "RuntimeDefault")))),
            Map.entry("containerSecurityContext", List.of(
                    Map.of("allowPrivilegeEscalation", false, "capabilities", Map.of("drop", List.of("ALL"))),
                    Map.of("allowPrivilegeEscalation", false, "readOnlyRootFilesystem", false,
                            "capabilities", Map.of("drop", List.of("ALL"))))),
            Map.entry("affinity", List.of(Map.of(), Map.of("nodeAffinity", Map.of(
                    "requiredDuringSchedulingIgnoredDuringExecution", Map.of("nodeSelectorTerms", List.of(Map.of(
                            "matchExpressions", List.of(Map.of("key", "nvidia.com/gpu.product", "operator", "In",
                                    "values", List.of("NVIDIA-H100-80GB-HBM3")))))))))),
            Map.entry("tolerations[]", List.of(
                    Map.of("key", "nvidia.com/gpu", "operator", "Exists", "effect", "NoSchedule"),
                    Map.of("key", "dedicated", "operator", "Equal", "value", "inference", "effect", "NoExecute"))),
            Map.entry("initContainers.extraInit[]", List.of(
                    Map.of("name", "wait-for-cache", "image", "busybox:1.37", "command", List.of("sh", "-c", "true")),
                    Map.of("name", "warm-up", "image", "busybox:1.37",
                            "volumeMounts", List.of(Map.of("name", "model-store", "mountPath", "/model-store"))))),
            Map.entry("autoscaling.metrics[]", List.of(
                    Map.of("type", "Resource", "resource", Map.of("name", "cpu",
                            "target", Map.of("type", "Utilization", "averageUtilization", 80))),
                    Map.of("type", "Pods", "pods", Map.of("metric", Map.of("name", "num_requests_waiting"),
                            "target", Map.of("type", "AverageValue", "averageValue", "10"))))),
            Map.entry("autoscaling.behavior", List.of(Map.of(),
                    Map.of("scaleDown", Map.of("stabilizationWindowSeconds", 300)))),
            Map.entry("extraVolumes", List.of(Map.of(),
                    Map.of("custom-config", Map.of("configMap", Map.of("name", "nim-config"))),
                    Map.of("model-store", Map.of("persistentVolumeClaim", Map.of("claimName", "my-cache"))),
                    List.of(Map.of("name", "custom-config", "configMap", Map.of("name", "nim-config"))))),
            Map.entry("extraVolumeMounts", List.of(Map.of(),
                    Map.of("custom-config", Map.of("mountPath", "/etc/nim/custom", "readOnly", true)),
                    List.of(Map.of("name", "custom-config", "mountPath", "/etc/nim/custom")))),
            Map.entry("env[].valueFrom.fieldRef", List.of(Map.of("fieldPath", "metadata.name"))),
            Map.entry("env[].valueFrom.resourceFieldRef", List.of(Map.of("resource", "limits.memory"))),
            Map.entry("env[].valueFrom.configMapKeyRef", List.of(Map.of("name", "nim-config", "key", "max-len"))),
            Map.entry("env[].valueFrom.secretKeyRef", List.of(Map.of("name", "hf-token", "key", "HF_TOKEN"))));

    private OpaqueSamples() {
    }

    /** A random sample for the path (a copy: mutations change it); {@code {}} for a free-form object nobody listed. */
    static Object pick(String path, Random random) {
        List<Object> samples = SAMPLES.getOrDefault(path, List.of(Map.of()));
        return copy(samples.get(random.nextInt(samples.size())));
    }

    private static Object copy(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new java.util.LinkedHashMap<>();
            map.forEach((k, v) -> out.put(String.valueOf(k), copy(v)));
            return out;
        }
        if (value instanceof List<?> list) {
            return new java.util.ArrayList<>(list.stream().map(OpaqueSamples::copy).toList());
        }
        return value;
    }

    /** Whether the value at this path (list items as {@code []}) is a Kubernetes object the chart passes through. */
    static boolean isOpaque(String path) {
        return SAMPLES.containsKey(path);
    }

    /** Whether the key holds values the chart passes through: one itself, or a list of them ({@code tolerations}). */
    static boolean holdsPassThrough(String path) {
        return passesThrough(path) || SAMPLES.keySet().stream().anyMatch(key -> key.startsWith(path + "["));
    }

    /** Whether a key path ({@code tolerations[0].efect}) is at or inside a value the chart passes through. */
    static boolean passesThrough(String path) {
        String generic = path.replaceAll("\\[[0-9]+]", "[]");
        return SAMPLES.keySet().stream().anyMatch(key -> generic.equals(key) || generic.startsWith(key + ".")
                || generic.startsWith(key + "["));
    }
}
