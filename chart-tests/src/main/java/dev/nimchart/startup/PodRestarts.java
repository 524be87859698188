package dev.nimchart.startup;

import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.objects.KubeObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What the cluster does when a started pod's main container ends during start-up, as the start-up tier models it:
 * <ul>
 *   <li><b>the kubelet</b> restarts the container in the same pod (its sandbox, network namespace, address and volumes
 *   stay; its init containers do not run again) when the pod's {@code restartPolicy} is {@code Always} (the default), or
 *   {@code OnFailure} and the container failed; with {@code Never}, or {@code OnFailure} after a success, the container
 *   stays ended. The kubelet restarts a container's first crash at once and backs off after later ones (10 s, doubling
 *   to 5 minutes: CrashLoopBackOff);</li>
 *   <li><b>LeaderWorkerSet</b> then recreates the whole group (deletes its leader pod, the workers with it, and creates
 *   them again: new pods, new empty volumes) when its {@code restartPolicy} is {@code RecreateGroupOnPodRestart} (the API's
 *   default), or {@code RecreateGroupAfterStart} and no pod of the group is Pending (here: running its init containers).
 *   LWS v0.9.0, {@code pkg/controllers/pod_controller.go} {@code handleRestartPolicy}: triggered by a container's restart
 *   count above 0. With {@code None} only the kubelet's restart happens.</li>
 * </ul>
 * The tier allows each group (or pod of no group) one such restart within its start time: a start on a loaded machine
 * can lose one race a real node would also lose now and then (Ray's raylet has a fixed 30 s to register). A pod that ends
 * again after that is crash-looping, which fails the start with every restart named. Every restart is said in
 * {@link #said()}, so a green start that needed one shows it.
 * <p>Volumes across a restart: a pod's emptyDirs are the pod's ({@link PodVolumes}: made once before its first
 * container, as the kubelet's emptyDir plugin does), so a restarted container finds in them what it, and the pod's init
 * containers, wrote; a recreated group's pods are new pods with new, empty emptyDirs (the old ones unmounted).
 */
public final class PodRestarts {

    private static final String LWS_NAME = GroupLabels.LWS_NAME;
    private static final String LWS_GROUP = GroupLabels.LWS_GROUP;
    /** LeaderWorkerSet's restart policy when the object sets none (its CRD's default). */
    static final String LWS_DEFAULT_POLICY = "RecreateGroupOnPodRestart";

    /** What to do about a pod whose main container ended. */
    public enum Action {
        /** The kubelet leaves it ended (restartPolicy Never, or OnFailure after exit 0). */
        STAYS_ENDED,
        /** The kubelet restarts its container in the same pod. */
        RESTART_CONTAINER,
        /** LeaderWorkerSet recreates every pod of its group. */
        RECREATE_GROUP,
        /** It ended again after the one restart the tier allows its group: crash-looping. */
        CRASH_LOOP
    }

    /** What the cluster does about one ended pod, and the line that says so (the last of {@link #said()}). */
    public record Decision(Action action, String said) {
    }

    private final NamespaceState state;
    private final Set<String> restartedGroups = new HashSet<>();
    private final List<String> said = new ArrayList<>();

    public PodRestarts(NamespaceState state) {
        this.state = state;
    }

    /**
     * What happens to {@code pod} whose main container exited with {@code exitCode}, and what to say of it; {@code pending}
     * tells whether a pod of its group is still Pending (its init containers running). Counts the restart against its
     * group.
     */
    public Decision ended(KubeObject pod, int exitCode, java.util.function.Predicate<KubeObject> pending) {
        String podPolicy = Objects.toString(pod.at("spec.restartPolicy"), "Always");
        boolean kubeletRestarts = "Always".equals(podPolicy) || "OnFailure".equals(podPolicy) && exitCode != 0;
        if (!kubeletRestarts) {
            return decided(Action.STAYS_ENDED, "pod %s exited with %d; restartPolicy %s: it stays ended", pod.name(), exitCode, podPolicy);
        }
        String group = group(pod);
        if (!restartedGroups.add(group)) {
            return decided(Action.CRASH_LOOP, "pod %s exited with %d again after its %s was restarted: crash-looping (the kubelet would back off)",
                    pod.name(), exitCode, group.startsWith("pod ") ? "container" : "group");
        }
        String lwsPolicy = lwsPolicy(pod);
        boolean recreate = "RecreateGroupOnPodRestart".equals(lwsPolicy)
                || "RecreateGroupAfterStart".equals(lwsPolicy) && groupPods(pod).stream().noneMatch(pending);
        if (recreate) {
            return decided(Action.RECREATE_GROUP, "pod %s exited with %d; the kubelet restarted its container and LeaderWorkerSet %s"
                    + " recreated group %s (restartPolicy %s)", pod.name(), exitCode, pod.label(LWS_NAME), pod.label(LWS_GROUP), lwsPolicy);
        }
        return decided(Action.RESTART_CONTAINER, "pod %s exited with %d; the kubelet restarted its container (restartPolicy %s%s)",
                pod.name(), exitCode, podPolicy, lwsPolicy == null ? "" : ", LeaderWorkerSet restartPolicy " + lwsPolicy);
    }

    /** The decision, its line (this format with these arguments) kept in {@link #said()}. */
    private Decision decided(Action action, String format, Object... args) {
        String line = String.format(format, args);
        said.add(line);
        return new Decision(action, line);
    }

    /** The pods of {@code pod}'s LeaderWorkerSet group among the namespace's pods ({@code pod} alone when it is in none). */
    public List<KubeObject> groupPods(KubeObject pod) {
        if (pod.label(LWS_GROUP) == null) {
            return List.of(pod);
        }
        return state.all("Pod").stream().filter(p -> group(p).equals(group(pod))).toList();
    }

    /** Every restart so far, one line each, in order. */
    public List<String> said() {
        return List.copyOf(said);
    }

    /** The LeaderWorkerSet restart policy of the pod's group; null for a pod of no LeaderWorkerSet. */
    private String lwsPolicy(KubeObject pod) {
        String lws = pod.label(LWS_NAME);
        if (lws == null) {
            return null;
        }
        return state.all("LeaderWorkerSet").stream().filter(o -> lws.equals(o.name())).findFirst()
                .map(o -> Objects.toString(o.at("spec.leaderWorkerTemplate.restartPolicy"), LWS_DEFAULT_POLICY))
                .orElse(LWS_DEFAULT_POLICY);
    }

    private static String group(KubeObject pod) {
        return pod.label(LWS_GROUP) == null ? "pod " + pod.name() : "group " + pod.label(LWS_NAME) + "/" + pod.label(LWS_GROUP);
    }
}
