package dev.nimchart.chart.repository;

import dev.nimchart.objects.KubeObject;

/**
 * The pod of the chart's cache pre-fill Job (as {@code ReleasePods.jobPod} makes it): the claim it fills, which the
 * serving pods share, and the marker it writes there once the model is in the cache ({@code NIM_LLM_PREFILL_MARKER},
 * under the claim's mount path {@value #MOUNT_PATH}).
 */
public final class CachePrefillPod {

    /** Where the Job's container mounts the cache claim. */
    static final String MOUNT_PATH = "/model-store/";

    private CachePrefillPod() {
    }

    /** The name of the claim the Job's pod mounts (its one persistentVolumeClaim volume). */
    public static String claimName(KubeObject jobPod) {
        return String.valueOf(jobPod.list("spec.volumes").stream().filter(v -> v.at("persistentVolumeClaim") != null).findFirst().orElseThrow()
                .at("persistentVolumeClaim.claimName"));
    }

    /** The marker's path inside the claim. */
    public static String markerInClaim(KubeObject jobPod) {
        String marker = jobPod.list("spec.containers").get(0).list("env").stream().filter(e -> "NIM_LLM_PREFILL_MARKER".equals(e.at("name")))
                .findFirst().orElseThrow().at("value").toString();
        return marker.substring(MOUNT_PATH.length());
    }
}
