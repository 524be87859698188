package dev.nimchart.startup;

import dev.nimchart.objects.KubeObject;
import java.util.List;

/**
 * The labels LeaderWorkerSet and the MPI operator put on the pods of a multi-node group, and what they say: which group
 * a pod belongs to, which pod is the group's leader, which pod serves the API. The start-up tier, its restarts and
 * the benchmarks read them here, not each with its own copy.
 */
public final class GroupLabels {

    /** The labels LeaderWorkerSet gives each pod of a group: its LeaderWorkerSet, its group, its index in the group (0: leader). */
    public static final String LWS_NAME = "leaderworkerset.sigs.k8s.io/name";
    public static final String LWS_GROUP = "leaderworkerset.sigs.k8s.io/group-index";
    public static final String LWS_WORKER_INDEX = "leaderworkerset.sigs.k8s.io/worker-index";
    /** The labels the MPI operator gives an MPIJob's pods: the job, the role (launcher or worker), the worker's index. */
    public static final String MPI_JOB = "training.kubeflow.org/job-name";
    public static final String MPI_ROLE = "training.kubeflow.org/job-role";
    public static final String MPI_INDEX = "training.kubeflow.org/replica-index";

    private GroupLabels() {
    }

    /** The pods that serve the API: each LeaderWorkerSet group's leader, each MPIJob's worker 0, or every pod that is neither and no Job's. */
    public static List<KubeObject> serving(List<KubeObject> pods) {
        return pods.stream().filter(GroupLabels::serves).toList();
    }

    /** Whether this pod serves the API (see {@link #serving}). */
    public static boolean serves(KubeObject pod) {
        if (pod.label(LWS_WORKER_INDEX) != null) {
            return isLeader(pod);
        }
        if (pod.label(MPI_ROLE) != null) {
            return "worker".equals(pod.label(MPI_ROLE)) && "0".equals(pod.label(MPI_INDEX));
        }
        return !ownedByJob(pod);
    }

    /** A LeaderWorkerSet leader (worker index 0), which its controller creates before the group's workers. */
    public static boolean isLeader(KubeObject pod) {
        return "0".equals(pod.label(LWS_WORKER_INDEX));
    }

    /** A multi-node group's key: LeaderWorkerSet name and group index, or the MPIJob's name; "" for a pod of no group. */
    public static String groupKey(KubeObject pod) {
        if (pod.label(LWS_GROUP) != null) {
            return pod.label(LWS_NAME) + "/" + pod.label(LWS_GROUP);
        }
        return pod.label(MPI_JOB) == null ? "" : pod.label(MPI_JOB);
    }

    /** A pod a Job owns (an MPIJob's launcher, a chart's own Job such as a cache pre-fill). */
    public static boolean ownedByJob(KubeObject pod) {
        return pod.list("metadata.ownerReferences").stream().anyMatch(o -> "Job".equals(o.at("kind")));
    }
}
