package dev.nimchart.controllers;

import dev.nimchart.objects.KubeObject;
import java.util.Map;

/**
 * How many pods a release's values ask for, read from the merged values as the chart documents them: single-node
 * replicas (or the HorizontalPodAutoscaler's minimum), LeaderWorkerSet groups x workers, MPIJobs x (workers + the launcher),
 * and the endpoint picker's replicas.
 */
public final class ExpectedPods {

    private ExpectedPods() {
    }

    public static int of(Map<String, Object> mergedValues) {
        KubeObject v = new KubeObject(mergedValues);
        // A HorizontalPodAutoscaler keeps at least its minimum; a KEDA ScaledObject (autoscaling.keda.enabled) acts only
        // where KEDA runs, so the workload keeps replicaCount until it does.
        boolean hpa = flag(v, "autoscaling.enabled") && !flag(v, "autoscaling.keda.enabled");
        int replicas = hpa ? Math.max(1, integer(v, "autoscaling.minReplicas")) : integer(v, "replicaCount");
        // The Inference Gateway's endpoint picker (inferencePool.enabled) runs pods of its own.
        int pickers = flag(v, "inferencePool.enabled") ? Math.max(1, integer(v, "inferencePool.epp.replicas")) : 0;
        if (!flag(v, "multiNode.enabled")) {
            return replicas + pickers;
        }
        int workers = integer(v, "multiNode.workers");
        return pickers + (flag(v, "multiNode.leaderWorkerSet.enabled") ? replicas * workers : replicas * (workers + 1));
    }

    /**
     * How many pods a release's workloads ask for, read from the rendered objects of any chart: Deployment and
     * StatefulSet replicas (absent: the minimum of an autoscaler that targets it, else 1), LeaderWorkerSet replicas x
     * group size, the replicas of every MPIJob replica spec.
     */
    public static int fromWorkloads(dev.nimchart.objects.RenderedManifest rendered) {
        int pods = 0;
        for (KubeObject w : rendered.objects()) {
            switch (w.kind()) {
                case "Deployment", "StatefulSet" -> pods += w.at("spec.replicas") != null ? number(w.at("spec.replicas"))
                        : rendered.ofKind("HorizontalPodAutoscaler").stream()
                        .filter(h -> w.kind().equals(h.at("spec.scaleTargetRef.kind")) && w.name().equals(h.at("spec.scaleTargetRef.name")))
                        .map(h -> h.at("spec.minReplicas") == null ? 1 : number(h.at("spec.minReplicas"))).findFirst().orElse(1);
                case "LeaderWorkerSet" -> pods += (w.at("spec.replicas") == null ? 1 : number(w.at("spec.replicas")))
                        * (w.at("spec.leaderWorkerTemplate.size") == null ? 1 : number(w.at("spec.leaderWorkerTemplate.size")));
                case "MPIJob" -> {
                    Object specs = w.at("spec.mpiReplicaSpecs");
                    if (specs instanceof Map<?, ?> m) {
                        for (Object spec : m.values()) {
                            Object r = spec instanceof Map<?, ?> sm ? sm.get("replicas") : null;
                            pods += r == null ? 1 : number(r);
                        }
                    }
                }
                default -> {
                }
            }
        }
        return pods;
    }

    private static int number(Object o) {
        return Integer.parseInt(o.toString());
    }

    private static boolean flag(KubeObject v, String path) {
        return Boolean.TRUE.equals(v.at(path));
    }

    private static int integer(KubeObject v, String path) {
        Object o = v.at(path);
        return o == null ? 0 : Integer.parseInt(o.toString());
    }
}
