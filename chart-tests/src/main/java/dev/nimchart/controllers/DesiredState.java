package dev.nimchart.controllers;

import dev.nimchart.objects.KubeObject;
import dev.nimchart.cluster.KubeApi;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Waiting until the controllers have reconciled a namespace: the expected number of pods exist, are scheduled and
 * Ready, every claim is Bound, every workload reports itself done in its own status (StatefulSet and Deployment
 * replicas, LeaderWorkerSet {@code Available}, MPIJob {@code Running}), and the EndpointSlice controller has caught up
 * with every Service's selector. On timeout the error shows what is missing.
 */
public final class DesiredState {

    private DesiredState() {
    }

    /** Polls until reached; returns the reconciled snapshot. {@code alive} throws when a tier process has died. */
    public static NamespaceState await(KubeApi api, String namespace, int expectedPods, Duration timeout, Runnable alive) {
        return poll(api, namespace, timeout, alive, state -> missing(state, expectedPods),
                (state, missing) -> "namespace " + namespace + " did not reach its desired state within " + timeout.toSeconds()
                        + " s:\n  " + String.join("\n  ", missing) + "\n" + describe(state));
    }

    /**
     * What still differs from the desired state; empty when reached. {@code expectedPods} counts the pods of the
     * release's Deployments, StatefulSets, LeaderWorkerSets and MPIJobs; each DaemonSet adds the pods its controller
     * schedules ({@code status.desiredNumberScheduled}, once it observed the DaemonSet), and pods run to completion
     * (a Job's, a hook's) are judged by their Job's status instead.
     */
    public static List<String> missing(NamespaceState state, int expectedPods) {
        List<String> missing = new ArrayList<>();
        int expected = expectedPods;
        for (KubeObject daemons : state.all("DaemonSet")) {
            expected += daemons.at("status.desiredNumberScheduled") == null ? 0 : Integer.parseInt(daemons.at("status.desiredNumberScheduled").toString());
        }
        List<KubeObject> pods = state.servingPods();
        if (pods.size() != expected) {
            state.podSecurityRefusal().ifPresent(w -> missing.add("pods refused by the namespace's Pod Security level: " + w));
            missing.add(pods.size() + " pods, expected " + expected);
        }
        for (KubeObject pod : state.livePods()) {
            for (KubeObject owner : pod.list("metadata.ownerReferences")) {
                if (Boolean.TRUE.equals(owner.at("controller")) && state.reads(owner.at("kind").toString())
                        && state.named(owner.at("kind").toString(), owner.at("name").toString()).isEmpty()) {
                    missing.add("pod " + pod.name() + " is left from " + owner.at("kind") + "/" + owner.at("name")
                            + ", which is gone (garbage collection pending)");
                }
            }
        }
        for (KubeObject pod : pods) {
            if (pod.at("spec.nodeName") == null) {
                missing.add("pod " + pod.name() + " is not scheduled");
            } else if (!NamespaceState.ready(pod)) {
                missing.add("pod " + pod.name() + " is not Ready");
            }
            String stale = staleRevision(state, pod);
            if (stale != null) {
                missing.add("pod " + pod.name() + " " + stale);
            }
        }
        for (KubeObject claim : state.all("PersistentVolumeClaim")) {
            if (!"Bound".equals(claim.at("status.phase"))) {
                missing.add("claim " + claim.name() + " is " + claim.at("status.phase"));
            }
        }
        for (KubeObject w : state.workloads()) {
            String reason = notDone(w);
            if (reason != null) {
                missing.add(w + ": " + reason);
            }
        }
        missing.addAll(endpointsDiffer(state));
        if (state.workloads().isEmpty()) {
            missing.add("no workload in the namespace");
        }
        return missing;
    }

    /**
     * Services whose EndpointSlices do not list exactly the pods they select that are Ready (all selected pods with
     * publishNotReadyAddresses): traffic to a pod that is not Ready, or none to one that is. Empty when they agree.
     */
    public static List<String> endpointsDiffer(NamespaceState state) {
        List<String> missing = new ArrayList<>();
        List<KubeObject> pods = state.livePods();
        for (KubeObject service : state.all("Service")) {
            Object selector = service.at("spec.selector");
            if (selector == null) {
                continue;
            }
            boolean notReadyToo = Boolean.TRUE.equals(service.at("spec.publishNotReadyAddresses"));
            java.util.Set<String> selected = new java.util.TreeSet<>();
            pods.stream().filter(p -> NamespaceState.selects(selector, p.labels()) && (notReadyToo || NamespaceState.ready(p)))
                    .forEach(p -> selected.add(p.name()));
            java.util.Set<String> published = new java.util.TreeSet<>();
            state.endpointSlicesOf(service.name()).forEach(slice -> slice.list("endpoints")
                    .forEach(ep -> published.add(String.valueOf(ep.at("targetRef.name")))));
            if (!selected.equals(published)) {
                missing.add("the EndpointSlices of " + service + " list " + published + ", not yet the pods it selects " + selected);
            }
        }
        return missing;
    }

    /**
     * Why a pod is not of its workload's current revision, or null: a StatefulSet's pod must carry its
     * {@code status.updateRevision} ({@code controller-revision-hash}), a Deployment's pod must belong to the ReplicaSet of
     * the Deployment's revision ({@code deployment.kubernetes.io/revision} on both). Judged where the snapshot holds the
     * owner; a pod of a workload not yet in the snapshot is newer than it and leaves it not done by its count or status.
     * The workloads' status alone says "done" for a rollout that finished after an old pod was listed.
     */
    static String staleRevision(NamespaceState state, KubeObject pod) {
        KubeObject owner = NamespaceState.controller(pod).orElse(null);
        if (owner == null || !state.reads(String.valueOf(owner.at("kind")))) {
            return null;
        }
        String kind = owner.at("kind").toString();
        java.util.Optional<KubeObject> workload = state.named(kind, String.valueOf(owner.at("name")));
        if (workload.isEmpty()) {
            return null;
        }
        if (kind.equals("StatefulSet")) {
            Object current = workload.get().at("status.updateRevision");
            Object own = pod.labels().get("controller-revision-hash");
            return current == null || current.equals(own) ? null
                    : "is of revision " + own + ", StatefulSet/" + workload.get().name() + "'s current one is " + current;
        }
        if (kind.equals("ReplicaSet")) {
            KubeObject replicaSet = workload.get();
            java.util.Optional<KubeObject> deployment = NamespaceState.controller(replicaSet).filter(o -> "Deployment".equals(o.at("kind")))
                    .flatMap(o -> state.named("Deployment", String.valueOf(o.at("name"))));
            if (deployment.isEmpty()) {
                return null;
            }
            Object current = deployment.get().annotations().get("deployment.kubernetes.io/revision");
            Object own = replicaSet.annotations().get("deployment.kubernetes.io/revision");
            return current == null || current.equals(own) ? null
                    : "is of ReplicaSet/" + replicaSet.name() + " (revision " + own + "), Deployment/" + deployment.get().name()
                    + " is at revision " + current;
        }
        return null;
    }

    /** Why a workload's status does not yet report its desired state, or null. */
    static String notDone(KubeObject w) {
        Object replicas = w.at("spec.replicas");
        return switch (w.kind()) {
            case "StatefulSet" -> same(w.at("status.observedGeneration"), w.at("metadata.generation"))
                    && same(w.at("status.readyReplicas"), replicas) && same(w.at("status.updatedReplicas"), replicas)
                    && same(w.at("status.currentRevision"), w.at("status.updateRevision"))
                    ? null : "ready " + w.at("status.readyReplicas") + "/" + replicas + ", updated " + w.at("status.updatedReplicas");
            case "Deployment" -> same(w.at("status.observedGeneration"), w.at("metadata.generation"))
                    && same(w.at("status.availableReplicas"), replicas) && same(w.at("status.updatedReplicas"), replicas)
                    && same(w.at("status.replicas"), replicas)
                    ? null : "available " + w.at("status.availableReplicas") + "/" + replicas + ", total " + w.at("status.replicas");
            // observedGeneration first: right after an upgrade or a rollback the status still describes the old spec
            case "LeaderWorkerSet" -> same(w.at("status.observedGeneration"), w.at("metadata.generation"))
                    && condition(w, "Available") && !condition(w, "UpdateInProgress")
                    && same(w.at("status.readyReplicas"), replicas) && same(w.at("status.updatedReplicas"), replicas)
                    && same(w.at("status.replicas"), replicas)
                    ? null : "conditions " + conditions(w) + ", ready " + w.at("status.readyReplicas") + "/" + replicas
                    + ", updated " + w.at("status.updatedReplicas") + ", observed generation " + w.at("status.observedGeneration")
                    + " of " + w.at("metadata.generation");
            case "MPIJob" -> condition(w, "Running") ? null : "conditions " + conditions(w);
            case "DaemonSet" -> same(w.at("status.observedGeneration"), w.at("metadata.generation"))
                    && same(w.at("status.numberReady"), w.at("status.desiredNumberScheduled"))
                    && same(w.at("status.updatedNumberScheduled"), w.at("status.desiredNumberScheduled"))
                    && same(w.at("status.numberAvailable"), w.at("status.desiredNumberScheduled"))
                    ? null : "ready " + w.at("status.numberReady") + "/" + w.at("status.desiredNumberScheduled") + ", updated "
                    + w.at("status.updatedNumberScheduled") + ", observed generation " + w.at("status.observedGeneration");
            case "Job" -> condition(w, "Complete") ? null : "conditions " + conditions(w) + ", active " + w.at("status.active")
                    + ", succeeded " + w.at("status.succeeded") + ", failed " + w.at("status.failed");
            // a CronJob runs on its schedule: nothing of it is awaited (a run it starts meanwhile is its Jobs' and pods')
            default -> null;
        };
    }

    static boolean condition(KubeObject o, String type) {
        return o.list("status.conditions").stream().anyMatch(c -> type.equals(c.at("type")) && "True".equals(c.at("status")));
    }

    private static List<String> conditions(KubeObject o) {
        return o.list("status.conditions").stream().map(c -> c.at("type") + "=" + c.at("status")
                + (c.at("reason") == null ? "" : " (" + c.at("reason") + ")")).toList();
    }

    private static boolean same(Object a, Object b) {
        return Objects.equals(a == null ? "0" : a.toString(), b == null ? "0" : b.toString());
    }

    /** Pods with node, phase and scheduling message; workloads' conditions; Warning events. */
    public static String describe(NamespaceState state) {
        StringBuilder out = new StringBuilder("pods:\n");
        for (KubeObject p : state.pods()) {
            String scheduling = p.list("status.conditions").stream().filter(c -> "PodScheduled".equals(c.at("type")) && c.at("message") != null)
                    .map(c -> " (" + c.at("message") + ")").findFirst().orElse("");
            out.append("  ").append(p.name()).append(" node=").append(p.at("spec.nodeName")).append(" phase=").append(p.at("status.phase"))
                    .append(" ready=").append(NamespaceState.ready(p)).append(scheduling).append('\n');
        }
        for (KubeObject w : state.workloads()) {
            out.append(w).append(" status: ").append(w.at("status")).append('\n');
        }
        out.append("warning events:\n");
        state.warnings().forEach(w -> out.append("  ").append(w).append('\n'));
        return out.toString();
    }

    /** Polls until {@code done} holds for the namespace; on timeout fails naming {@code what}, with the namespace described. */
    public static NamespaceState awaitUntil(KubeApi api, String namespace, java.util.function.Predicate<NamespaceState> done, String what,
            Duration timeout, Runnable alive) {
        return poll(api, namespace, timeout, alive, state -> done.test(state) ? List.of() : List.of(what),
                (state, missing) -> "no " + what + " in " + namespace + " within " + timeout.toSeconds() + " s:\n" + describe(state));
    }

    /**
     * Waits until the namespace has no pods left (after an uninstall) but Helm hooks' (Helm leaves a hook's objects
     * behind unless their delete policy removes them).
     */
    public static NamespaceState awaitNoPods(KubeApi api, String namespace, Duration timeout, Runnable alive) {
        return poll(api, namespace, timeout, alive, state -> state.pods().stream().allMatch(state::hook) ? List.of() : List.of("pods left"),
                (state, missing) -> "pods left in " + namespace + " " + timeout.toSeconds() + " s after uninstall:\n" + describe(state));
    }

    /**
     * Waits until an uninstalled release has left nothing behind once the garbage collector settled: no pod (but a Helm
     * hook's), no workload of the release (an LWS's StatefulSet goes after its pods) and no claim but the kept ones (a
     * claim in use waits for its pods: pvc-protection). On timeout fails naming what is left.
     */
    public static NamespaceState awaitUninstalled(KubeApi api, String namespace, Duration timeout, Runnable alive,
            java.util.Set<String> keptClaims) {
        return poll(api, namespace, timeout, alive, state -> {
            List<String> left = new java.util.ArrayList<>();
            if (!state.pods().stream().allMatch(state::hook)) {
                left.add("pods left");
            }
            if (!state.releaseWorkloads().isEmpty()) {
                left.add("workloads left after uninstall: " + state.releaseWorkloads());
            }
            List<String> claims = state.all("PersistentVolumeClaim").stream().filter(c -> !c.labels().containsKey(ClusterPreconditions.LABEL))
                    .map(KubeObject::name).sorted().toList();
            if (!new java.util.TreeSet<>(claims).equals(new java.util.TreeSet<>(keptClaims))) {
                left.add("claims left after uninstall " + claims + ", expected only the kept ones " + new java.util.TreeSet<>(keptClaims));
            }
            return left;
        }, (state, left) -> String.join("; ", left) + " (" + timeout.toSeconds() + " s after uninstall):\n" + describe(state));
    }

    /**
     * Reads the namespace until {@code missing} finds nothing: 100 ms after the first read, then each pause half as long
     * again as the one before, up to 500 ms (a read lists twenty kinds; a long wait need not list them ten times a
     * second on a machine whose cores the other test JVMs share); on timeout fails with {@code failure}'s text.
     */
    private static NamespaceState poll(KubeApi api, String namespace, Duration timeout, Runnable alive,
            Function<NamespaceState, List<String>> missing, BiFunction<NamespaceState, List<String>, String> failure) {
        alive.run();
        record Seen(NamespaceState state, List<String> left) {
        }
        return dev.nimchart.cluster.Poll.upTo(timeout).every(100).growingTo(Duration.ofMillis(500)).checking(alive)
                .until(() -> {
                    NamespaceState state = NamespaceState.read(api, namespace);
                    return new Seen(state, missing.apply(state));
                }, seen -> seen.left().isEmpty())
                .orElseThrow(seen -> new AssertionError(failure.apply(seen.state(), seen.left()))).state();
    }
}
