package dev.nimchart.controllers;

import dev.nimchart.cluster.KubeApi;
import dev.nimchart.objects.KubeObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A pod's readiness as its kubelet reports it, written on the kubelet's behalf where no kubelet runs (kwok's fake nodes). */
public final class PodReadiness {

    private PodReadiness() {
    }

    /**
     * Patches the pod's status: its Ready and ContainersReady conditions False with {@code reason} (and
     * {@code message} when not null), now; its other conditions as they are.
     */
    public static void markNotReady(KubeApi api, KubeObject pod, String reason, String message) {
        String now = Instant.now().toString();
        List<Map<String, Object>> conditions = new ArrayList<>();
        for (KubeObject c : pod.list("status.conditions")) {
            Map<String, Object> condition = new LinkedHashMap<>(c.raw());
            if ("Ready".equals(c.at("type")) || "ContainersReady".equals(c.at("type"))) {
                condition.put("status", "False");
                condition.put("reason", reason);
                if (message != null) {
                    condition.put("message", message);
                }
                condition.put("lastTransitionTime", now);
            }
            conditions.add(condition);
        }
        KubeApi.require(api.mergePatch("/api/v1/namespaces/" + pod.namespace() + "/pods/" + pod.name() + "/status",
                Map.of("status", Map.of("conditions", conditions))), "mark the pod " + pod.name() + " not Ready (" + reason + ")");
    }
}
