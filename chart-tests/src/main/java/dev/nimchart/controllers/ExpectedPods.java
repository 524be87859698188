package dev.nimchart.controllers;

import dev.nimchart.objects.KubeObject;
import java.util.Map;

/**
 * How many pods a release's values ask for, read from the merged values as the chart documents them: single-node
 * replicas (or the autoscaler's minimum), LeaderWorkerSet groups x workers, MPIJobs x (workers + the launcher).
 */
public final class ExpectedPods {

    private ExpectedPods() {
    }

    public static int of(Map<String, Object> mergedValues) {
        KubeObject v = new KubeObject(mergedValues);
        int replicas = flag(v, "autoscaling.enabled") ? Math.max(1, integer(v, "autoscaling.minReplicas")) : integer(v, "replicaCount");
        if (!flag(v, "multiNode.enabled")) {
            return replicas;
        }
        int workers = integer(v, "multiNode.workers");
        return flag(v, "multiNode.leaderWorkerSet.enabled") ? replicas * workers : replicas * (workers + 1);
    }

    private static boolean flag(KubeObject v, String path) {
        return Boolean.TRUE.equals(v.at(path));
    }

    private static int integer(KubeObject v, String path) {
        Object o = v.at(path);
        return o == null ? 0 : Integer.parseInt(o.toString());
    }
}
