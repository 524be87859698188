package dev.nimchart.fuzz;

import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Valid Kubernetes snippets for the values the chart passes through as they are (security contexts, affinity,
 * tolerations, extra volumes, init containers, autoscaler metrics, ...), keyed by their key path ({@code []} for a
 * list item). values.schema.json only says "an object" there; the API server validates them, so the fuzzer draws
 * them from here and never mutates their insides.
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

    /** A random sample for the path (shared, never to be modified); {@code {}} for a free-form object nobody listed. */
    static Object pick(String path, Random random) {
        List<Object> samples = SAMPLES.getOrDefault(path, List.of(Map.of()));
        return samples.get(random.nextInt(samples.size()));
    }

    /** Whether the chart passes the value at this path through unchecked (its insides are not fuzzed). */
    static boolean isOpaque(String path) {
        return SAMPLES.containsKey(path);
    }
}
