package dev.nimchart.chart.repository;

import dev.nimchart.controllers.ExpectedPods;
import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.startup.GroupLabels;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * An example's release as the controllers reconciled it, with the pods sorted by what the controllers (not the chart)
 * labelled them: the serving pods, the multi-node groups, the GPU pods. Reading roles from the operators' own labels
 * keeps the checks independent of the chart's labels.
 */
public record Reconciled(Example example, String release, NamespaceState state) {

    public static final String LWS_GROUP = GroupLabels.LWS_GROUP;
    public static final String LWS_WORKER_INDEX = GroupLabels.LWS_WORKER_INDEX;
    public static final String MPI_ROLE = GroupLabels.MPI_ROLE;
    public static final String MPI_INDEX = GroupLabels.MPI_INDEX;

    /**
     * The model's pods: every live pod but the Inference Gateway's endpoint picker ({@link #endpointPickers()}) and the
     * pods of a Job of the chart's own (the model cache pre-fill Job, docs/model-sources.md; an MPIJob's launcher, whose
     * Job the MPI operator makes, stays).
     */
    public List<KubeObject> pods() {
        return state.livePods().stream().filter(p -> !isEndpointPicker(p) && !ownJobPod(p)).sorted(Comparator.comparing(KubeObject::name))
                .toList();
    }

    /** The endpoint picker's pods (inferencePool.enabled): they route to the model's pods and run no model. */
    public List<KubeObject> endpointPickers() {
        return state.livePods().stream().filter(Reconciled::isEndpointPicker).sorted(Comparator.comparing(KubeObject::name)).toList();
    }

    static boolean isEndpointPicker(KubeObject pod) {
        return dev.nimchart.objects.PodTemplate.ENDPOINT_PICKER.equals(pod.label("app.kubernetes.io/component"));
    }

    /** The pods of the chart's own Jobs (the cache pre-fill Job), as the Job controller labelled them. */
    public List<KubeObject> jobPods() {
        return state.livePods().stream().filter(Reconciled::ownJobPod).sorted(Comparator.comparing(KubeObject::name)).toList();
    }

    private static boolean ownJobPod(KubeObject pod) {
        return pod.label(MPI_ROLE) == null && pod.list("metadata.ownerReferences").stream().anyMatch(o -> "Job".equals(o.at("kind")));
    }

    /** Pods that serve the API: every single-node pod, each LWS group's leader, each MPIJob's worker 0. */
    public List<KubeObject> servingPods() {
        return pods().stream().filter(p -> switch (example.mode()) {
            case "leaderworkerset" -> "0".equals(p.label(LWS_WORKER_INDEX));
            case "mpijob" -> "worker".equals(p.label(MPI_ROLE)) && "0".equals(p.label(MPI_INDEX));
            default -> true;
        }).toList();
    }

    /** Pods that run the model (all but the MPI launcher). */
    public List<KubeObject> gpuPods() {
        return pods().stream().filter(p -> !"launcher".equals(p.label(MPI_ROLE))).toList();
    }

    public List<KubeObject> launchers() {
        return pods().stream().filter(p -> "launcher".equals(p.label(MPI_ROLE))).toList();
    }

    /** Multi-node groups by the operator's labels (LWS name + group index, or MPIJob name), each with its pods. */
    public Map<String, List<KubeObject>> groups() {
        return pods().stream().filter(p -> groupKey(p) != null)
                .collect(Collectors.groupingBy(Reconciled::groupKey, TreeMap::new, Collectors.toList()));
    }

    /** {@link GroupLabels#groupKey}, null for a pod of no group. */
    public static String groupKey(KubeObject pod) {
        String key = GroupLabels.groupKey(pod);
        return key.isEmpty() ? null : key;
    }

    /** The number of pods the values ask for (see {@link ExpectedPods}). */
    public static int expectedPods(Example e) {
        return ExpectedPods.of(e.values.raw());
    }

    public static List<String> names(List<KubeObject> objects) {
        return objects.stream().map(KubeObject::name).sorted().toList();
    }
}
