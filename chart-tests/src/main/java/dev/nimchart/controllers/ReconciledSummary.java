package dev.nimchart.controllers;

import dev.nimchart.objects.KubeObject;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A reconciled namespace as a person reads it: each workload with its status, its pods with the node each landed on
 * (and the node's pool), Ready, GPUs and pod IP; the headless Services with the hostname each pod is published under;
 * every Service's endpoints; the claims and the volumes they bound.
 */
public final class ReconciledSummary {

    private ReconciledSummary() {
    }

    public static String describe(NamespaceState state) {
        StringBuilder out = new StringBuilder();
        for (KubeObject w : state.workloads()) {
            out.append(w).append(": ").append(status(w)).append('\n');
        }
        out.append('\n').append("pods:\n");
        for (KubeObject p : state.livePods().stream().sorted(Comparator.comparing(KubeObject::name)).toList()) {
            int gpus = p.list("spec.containers").stream().mapToInt(c -> dev.nimchart.objects.PodTemplate.limit(c, "nvidia.com/gpu")).sum();
            out.append(String.format("  %-48s node %-18s %-6s %d GPUs  %s%n", p.name(), p.at("spec.nodeName"),
                    NamespaceState.ready(p) ? "Ready" : "NOT ready", gpus, p.at("status.podIP")));
        }
        for (KubeObject svc : state.all("Service")) {
            boolean headless = "None".equals(svc.at("spec.clusterIP"));
            List<String> endpoints = state.endpointSlicesOf(svc.name()).stream().flatMap(s -> s.list("endpoints").stream())
                    .map(ep -> (ep.at("hostname") == null ? "" : ep.at("hostname") + "." + svc.name() + "." + state.namespace() + " -> ")
                            + ep.at("targetRef.name") + " " + ep.at("addresses"))
                    .sorted().toList();
            out.append('\n').append(headless ? "headless " : "").append("Service/").append(svc.name())
                    .append(headless ? "" : " " + svc.at("spec.clusterIP")).append(headless && Boolean.TRUE.equals(svc.at("spec.publishNotReadyAddresses"))
                            ? " (publishes pods before they are Ready)" : "").append(":\n");
            endpoints.forEach(e -> out.append("  ").append(e).append('\n'));
            if (endpoints.isEmpty()) {
                out.append("  (no endpoints)\n");
            }
        }
        List<KubeObject> claims = state.all("PersistentVolumeClaim");
        if (!claims.isEmpty()) {
            out.append('\n').append("claims:\n");
            claims.forEach(c -> out.append(String.format("  %-40s %-7s %s %s -> %s%n", c.name(), c.at("status.phase"),
                    c.at("spec.storageClassName"), c.at("spec.accessModes"), c.at("spec.volumeName"))));
        }
        return out.toString();
    }

    private static String status(KubeObject w) {
        List<KubeObject> conditions = w.list("status.conditions");
        String trueConditions = conditions.stream().filter(c -> "True".equals(c.at("status"))).map(c -> c.at("type").toString())
                .collect(Collectors.joining(", "));
        Object replicas = w.at("spec.replicas");
        Map<String, Object> status = w.at("status") instanceof Map<?, ?> m ? castMap(m) : Map.of();
        String counts = replicas == null ? "" : "ready " + status.getOrDefault("readyReplicas", 0) + "/" + replicas;
        String owner = w.list("metadata.ownerReferences").stream().map(o -> " (made by " + o.at("kind") + "/" + o.at("name") + ")")
                .findFirst().orElse("");
        return counts + (trueConditions.isEmpty() ? "" : (counts.isEmpty() ? "" : ", ") + trueConditions) + owner;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> castMap(Map<?, ?> m) {
        return (Map<String, Object>) m;
    }
}
