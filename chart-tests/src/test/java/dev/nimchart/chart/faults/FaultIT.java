package dev.nimchart.chart.faults;

import dev.nimchart.chart.repository.OwnEnvironment;
import dev.nimchart.settings.SettingsFromProperties;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.controllers.ReleaseKeepsakes;
import dev.nimchart.chart.repository.ChartReleases;
import dev.nimchart.chart.repository.Example;
import dev.nimchart.chart.repository.Examples;
import dev.nimchart.chart.repository.PodSecurityExceptions;
import dev.nimchart.chart.repository.Reconciled;
import dev.nimchart.chart.startup.StartupIT;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.controllers.ClusterPreconditions;
import dev.nimchart.controllers.ControllerEnvironment;
import dev.nimchart.controllers.DesiredState;
import dev.nimchart.controllers.FakeGpuNodes;
import dev.nimchart.controllers.InstalledRelease;
import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.sessions.ControllerSession;
import dev.nimchart.junit.ControllerTier;
import dev.nimchart.sessions.TierNamespaces;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.startup.PodGroupRun.PodRun;
import dev.nimchart.startup.PodGroupRun;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fault suite on the controller tier: what a cluster does to a running or starting release, for the
 * LeaderWorkerSet examples (mpi, native, Ray), the MPIJob example and the StatefulSet example. Each fault is injected
 * once, with every random choice drawn from {@link FaultLog#SEED}, and has a time limit; after it the release is back
 * in its desired state ({@link DesiredState}: every pod scheduled and Ready, the group whole again, each Service's
 * endpoints exactly its Ready pods) and nothing is lost ({@link ReleaseKeepsakes}: the cache claims keep their UID and
 * volume, the SSH key is the same). Each fault's outcome and time to recover go to {@link FaultLog}.
 */
@ExtendWith(ControllerTier.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FaultIT {

    static final Path LWS_MPI = Examples.named("multi-node-llama-3.1-405b-lws.yaml");
    static final Path LWS_NATIVE = Examples.named("multi-node-deepseek-r1-sglang.yaml");
    static final Path LWS_RAY = Examples.named("multi-node-ray-nim2-llama-3.1-405b.yaml");
    static final Path MPIJOB = Examples.named("multi-node-llama-3.1-405b-mpijob.yaml");
    static final Path STATEFUL = Examples.named("single-node-llama-70b-8gpu-pvc.yaml");
    /** The time limit of a fault the controllers repair by themselves. */
    static final Duration LIMIT = Duration.ofSeconds(60);
    /**
     * A deleted node's pods go only once the pod garbage collector has seen the node gone for its 40 s quarantine
     * (kube-controller-manager, not configurable), checked every 20 s.
     */
    static final Duration NODE_LIMIT = Duration.ofSeconds(120);
    private static final String MARKER = "nim-chart-tests/fault-marker";

    /** Every kind of workload the chart makes: the three LeaderWorkerSet flavours, the MPIJob and the StatefulSet. */
    static Stream<Path> everyWorkloadKind() {
        return Stream.of(LWS_MPI, LWS_NATIVE, LWS_RAY, MPIJOB, STATEFUL);
    }

    /**
     * One release per example, its faults one after the other. {@code helm upgrade} right after {@code helm install},
     * while the pods are still being made: every pod ends on the new revision, with the key and the claims of the
     * install. Then pods deleted: a worker drawn by the seed (the StatefulSet's pod), then, in a multi-node release,
     * the serving pod (the LWS leader, the MPIJob's worker 0). The controllers replace each; a LeaderWorkerSet group
     * is recreated whole (RecreateGroupOnPodRestart) and the other groups are left alone.
     */
    @Order(1)
    @ParameterizedTest(name = "{0}")
    @MethodSource("everyWorkloadKind")
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void anUpgradeWhileStartingWinsAndADeletedPodIsReplacedItsGroupReformedAndNothingIsLost(Path file, ControllerSession session) {
        Release r = Release.installed(session, file, "pod", Map.of());
        try {
            NamespaceState starting = NamespaceState.read(session.environment().api(), r.namespace);
            Object key = ReleaseKeepsakes.sshKey(starting);
            Set<String> claims = claimNamesAndUids(starting);
            NamespaceState state = FaultLog.inject("helm upgrade while starting", r.example.name(),
                    () -> r.upgrade(Map.of(markerKey(), "upgraded")), () -> r.awaitMarked("upgraded", LIMIT));
            assertThat(ReleaseKeepsakes.sshKey(state)).as("%s: the SSH key after the upgrade", r.example.name()).isEqualTo(key);
            assertThat(claimNamesAndUids(state)).as("%s: the cache claims after the upgrade", r.example.name()).containsAll(claims);
            for (String fault : r.example.multiNode() ? List.of("worker pod deleted", "leader pod deleted") : List.of("worker pod deleted")) {
                state = deletePodAndRecover(r, fault, state);
            }
        } finally {
            r.remove();
        }
    }

    private static NamespaceState deletePodAndRecover(Release r, String fault, NamespaceState before) {
        Reconciled reconciled = new Reconciled(r.example, r.release, before);
        List<KubeObject> candidates = fault.startsWith("leader") ? reconciled.servingPods()
                : r.example.multiNode() ? reconciled.gpuPods().stream().filter(p -> !reconciled.servingPods().contains(p)).toList()
                : reconciled.gpuPods();
        KubeObject victim = pick(candidates);
        String group = Reconciled.groupKey(victim);
        ReleaseKeepsakes kept = ReleaseKeepsakes.of(before);
        boolean leaderWorkerSet = r.example.mode().equals("leaderworkerset");
        Map<String, List<KubeObject>> groupsBefore = reconciled.groups();
        // A LeaderWorkerSet recreates the whole group (RecreateGroupOnPodRestart), asynchronously: the replaced pod can be
        // Ready before the LWS controller deletes the rest of its group, so recovery means every pod of that group is new.
        Set<String> gone = leaderWorkerSet ? uids(groupsBefore.get(group)) : Set.of(uid(victim));
        NamespaceState after = FaultLog.inject(fault, r.example.name(), () -> r.deletePod(victim.name()),
                () -> r.awaitWithout(gone, LIMIT));
        assertThat(after.livePodUids()).as("%s: %s (uid %s) replaced", r.example.name(), victim.name(), uid(victim))
                .doesNotContain(uid(victim));
        if (leaderWorkerSet) {
            Map<String, List<KubeObject>> groupsAfter = new Reconciled(r.example, r.release, after).groups();
            assertThat(uids(groupsAfter.get(group))).as("%s, %s: group %s re-formed: every pod new", r.example.name(), fault, group)
                    .doesNotContainAnyElementsOf(uids(groupsBefore.get(group)));
            groupsBefore.keySet().stream().filter(g -> !g.equals(group)).forEach(g -> assertThat(uids(groupsAfter.get(g)))
                    .as("%s, %s: group %s, not hit, keeps its pods", r.example.name(), fault, g).isEqualTo(uids(groupsBefore.get(g))));
        }
        assertThat(ReleaseKeepsakes.of(after)).as("%s: cache claims and SSH key after %s", r.example.name(), fault).isEqualTo(kept);
        return after;
    }

    /**
     * A node hosting a pod of a group turns NotReady (its pods drop out of the Services' endpoints), then is deleted,
     * while spare nodes exist: the group re-forms on the spare nodes; the node is restored afterwards for the tests
     * that share the environment.
     */
    @Order(2)
    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void aNodeTurnedNotReadyThenDeletedLosesItsPodsFromTheEndpointsAndTheGroupReformsOnSpareNodes(ControllerSession session) {
        ControllerEnvironment env = OwnEnvironment.required(session, "turning a fake node NotReady");
        Release r = Release.installed(session, LWS_MPI, "node", Map.of());
        String node = null;
        try {
            NamespaceState before = r.await(LIMIT);
            KubeObject victim = pick(new Reconciled(r.example, r.release, before).gpuPods());
            node = String.valueOf(victim.at("spec.nodeName"));
            String lost = node;
            ReleaseKeepsakes kept = ReleaseKeepsakes.of(before);
            NamespaceState after = FaultLog.inject("node NotReady, then deleted", r.example.name(), () -> {
                FakeGpuNodes.turnNotReady(env.api(), lost);
                // The node lifecycle controller marks its pods not Ready; the endpoints then drop them.
                DesiredState.awaitUntil(env.api(), r.namespace, s -> s.livePods().stream().filter(p -> lost.equals(p.at("spec.nodeName")))
                        .noneMatch(NamespaceState::ready) && DesiredState.endpointsDiffer(s).isEmpty(),
                        "pods of the NotReady node " + lost + " not Ready and out of the endpoints", LIMIT, env::requireAllRunning);
                KubeApi.require(env.api().delete("/api/v1/nodes/" + lost), "delete the node " + lost);
            }, () -> r.awaitWithout(Set.of(uid(victim)), NODE_LIMIT));
            assertThat(after.livePods()).as("%s: pods on the deleted node %s", r.example.name(), node)
                    .noneMatch(p -> lost.equals(p.at("spec.nodeName")));
            assertThat(ReleaseKeepsakes.of(after)).as("%s: cache claims and SSH key after losing a node", r.example.name()).isEqualTo(kept);
        } finally {
            r.remove();
            if (node != null) {
                FakeGpuNodes.restore(env.api(), env.settings(), node);
            }
        }
    }

    static Stream<Path> rollingReleases() {
        return Stream.of(LWS_MPI, STATEFUL);
    }

    /**
     * {@code helm rollback} while the upgrade's rolling update is stuck half done (the new revision's first pods cannot
     * be scheduled, the rest still run the first revision): every pod ends on the first revision's template, Ready,
     * without anyone deleting a stuck pod by hand, and nothing is lost.
     */
    @Order(4)
    @ParameterizedTest(name = "{0}")
    @MethodSource("rollingReleases")
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aRollbackInTheMiddleOfARollingUpdateEndsOnTheFirstRevision(Path file, ControllerSession session) {
        Map<String, String> three = Map.of("replicaCount", "3");
        Release r = Release.installed(session, file, "roll", three);
        try {
            NamespaceState first = r.await(LIMIT);
            ReleaseKeepsakes kept = ReleaseKeepsakes.of(first);
            Map<String, String> upgrade = new LinkedHashMap<>(three);
            upgrade.put(markerKey(), "rolling");
            // The new revision's pods fit no node, as a bad revision's pods never become Ready: the rollout stops after its
            // first step (one StatefulSet pod, one LeaderWorkerSet group), half done, which is when a user rolls back.
            upgrade.put("nodeSelector." + MARKER, "no-such-node");
            r.upgrade(upgrade);
            List<KubeObject> midway = r.podsWhen(pods -> pods.stream().anyMatch(p -> marked(p, "rolling")), LIMIT);
            assertThat(midway).as("%s: the rollout is half done when the rollback starts (some pods still on the first revision)",
                    r.example.name()).anyMatch(p -> !marked(p, "rolling"));
            NamespaceState after = FaultLog.inject("helm rollback mid rolling update", r.example.name(),
                    () -> r.handle.rollback(1), () -> r.awaitMarked(null, LIMIT));
            assertThat(ReleaseKeepsakes.of(after)).as("%s: cache claims and SSH key after the rollback", r.example.name()).isEqualTo(kept);
        } finally {
            r.remove();
        }
    }

    /**
     * {@code helm uninstall} right after {@code helm install}, while pods are still being made: no pod, workload or
     * generated key is left, and the only claims left are the ones the chart marks {@code keep}.
     */
    @Order(5)
    @ParameterizedTest(name = "{0}")
    @MethodSource("everyWorkloadKind")
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void anUninstallDuringStartUpLeavesOnlyTheKeptClaims(Path file, ControllerSession session) {
        Release r = Release.installed(session, file, "unin", Map.of());
        try {
            // Left: the claims the release did not make, its claims marked keep; allowed: per-pod claims its StatefulSet retains.
            Set<String> mustStay = new java.util.TreeSet<>(r.claimsBefore);
            mustStay.addAll(ReleaseKeepsakes.keptClaimNames(r.rendered.ofKind("PersistentVolumeClaim")));
            Set<String> mayStay = new java.util.TreeSet<>(mustStay);
            mayStay.addAll(ReleaseKeepsakes.retainedStatefulSetClaims(r.rendered));
            NamespaceState after = FaultLog.inject("helm uninstall during start-up", r.example.name(),
                    () -> r.handle.uninstall(),
                    () -> DesiredState.awaitUntil(r.api(), r.namespace, s -> s.pods().isEmpty() && s.workloads().isEmpty()
                            && s.all("Job").isEmpty(), "no pod and no workload", LIMIT, r.alive()));
            assertThat(ReleaseKeepsakes.sshKey(after)).as("%s: the generated SSH key after uninstall", r.example.name()).isNull();
            Set<String> left = after.all("PersistentVolumeClaim").stream().map(KubeObject::name).collect(Collectors.toSet());
            assertThat(left).as("%s: claims left after uninstall: the kept ones (and ones the release did not make)", r.example.name())
                    .containsAll(mustStay);
            assertThat(left).as("%s: claims left after uninstall: nothing but the kept ones, the ones the release did not make, and"
                    + " per-pod claims its StatefulSet retains", r.example.name()).isSubsetOf(mayStay);
        } finally {
            r.remove();
        }
    }

    /**
     * kube-apiserver and etcd stopped and started again under running releases (LeaderWorkerSet, MPIJob, StatefulSet):
     * each is back in its desired state with the same pods, claims and key, and the environment serves a new release
     * afterwards, so the tests sharing it are unaffected. Runs last in this class.
     */
    static Stream<Path> startedGroups() {
        return Stream.of(LWS_MPI, LWS_NATIVE, LWS_RAY);
    }

    /**
     * The start-up tier: a group's processes run (each pod in its network namespace) until the serving pod is Ready;
     * then a worker's main process is killed (drawn by the seed). The serving pod stops passing its readiness probe (no
     * traffic to a group that lost a rank); the kubelet's report of the restart (the container's restartCount) makes
     * the LeaderWorkerSet recreate the group, and the new pods' start-up runs again, to a Ready serving pod, with every
     * rank joined again.
     */
    @Order(6)
    @ParameterizedTest(name = "{0}")
    @MethodSource("startedGroups")
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void aKilledWorkerProcessTakesTheServingPodOutAndTheGroupReformsAndStartsAgain(Path file, ControllerSession session) throws Exception {
        StartupIT.requireStartupHost();
        Release r = Release.installed(session, file, "kill", Map.of());
        Path dir = StartupIT.REPORT_DIR.resolve("faults").resolve(r.example.name()).toAbsolutePath();
        try {
            Reconciled first = new Reconciled(r.example, r.release, r.await(LIMIT));
            Duration limit = Duration.ofSeconds(r.example.integer("multiNode.clusterStartTimeout"));
            int ranks;
            KubeObject victim = pick(first.gpuPods().stream().filter(p -> !first.servingPods().contains(p)).toList());
            try (PodGroupRun run = PodGroupRun.start(first.state(), first.gpuPods(), dir.resolve("first"), Map.of(), SettingsFromProperties.shared().rayDir())) {
                PodRun serving = run.pod(first.servingPods().get(0).name());
                assertThat(run.await(limit, () -> run.readinessProbePasses(serving)))
                        .as("%s: the serving pod Ready before the fault; logs:%n%s", r.example.name(), run.logs()).isTrue();
                ranks = run.records().size();
                PodRun killed = run.pod(victim.name());
                NamespaceState after = FaultLog.inject("worker process killed", r.example.name(), () -> {
                    killed.process().descendants().forEach(ProcessHandle::destroyForcibly);
                    killed.process().destroyForcibly();
                    if (!Example.launchMode(r.example.values).equals("native")) {
                        // mpirun loses a rank and ends the leader's server; a Ray head loses a node. In native mode each
                        // pod runs its own server and nothing of the chart's sees the worker go: the serving pod stays
                        // Ready until the LeaderWorkerSet recreates the group on the kubelet's report (docs/faults.md).
                        boolean out = until(LIMIT, () -> !run.readinessProbePasses(serving));
                        assertThat(out).as("%s: the serving pod %s stops passing its readiness probe once %s's process is killed;"
                                + " logs:%n%s", r.example.name(), serving.pod().name(), victim.name(), run.logs()).isTrue();
                    }
                    r.reportRestart(victim);
                }, () -> {
                    NamespaceState reformed = r.awaitWithout(first.state().livePodUids(), LIMIT);
                    Reconciled second = new Reconciled(r.example, r.release, reformed);
                    run.close();
                    try (PodGroupRun again = PodGroupRun.start(reformed, second.gpuPods(), dir.resolve("again"), Map.of(), SettingsFromProperties.shared().rayDir())) {
                        PodRun newServing = again.pod(second.servingPods().get(0).name());
                        boolean ready = again.await(limit, () -> again.readinessProbePasses(newServing));
                        assertThat(ready).as("%s: the re-formed group's serving pod Ready again; logs:%n%s", r.example.name(),
                                again.logs()).isTrue();
                        assertThat(again.records()).as("%s: every rank of the re-formed group started again", r.example.name()).hasSize(ranks);
                    }
                    return reformed;
                });
                assertThat(ReleaseKeepsakes.of(after)).as("%s: cache claims and SSH key after the group re-formed", r.example.name())
                        .isEqualTo(ReleaseKeepsakes.of(first.state()));
            }
        } finally {
            r.remove();
        }
    }

    @Order(10)
    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void aControlPlaneRestartUnderRunningReleasesChangesNothingAndTheClusterServesNewReleasesAfter(ControllerSession session) {
        ControllerEnvironment env = OwnEnvironment.required(session, "restarting kube-apiserver and etcd");
        List<Release> releases = new ArrayList<>();
        try {
            for (Path file : List.of(LWS_MPI, MPIJOB, STATEFUL)) {
                releases.add(Release.installed(session, file, "cp", Map.of()));
            }
            Map<Release, NamespaceState> before = new LinkedHashMap<>();
            releases.forEach(r -> before.put(r, r.await(LIMIT)));
            List<NamespaceState> after = FaultLog.inject("kube-apiserver and etcd restarted", "3 releases", env::restartControlPlane,
                    () -> releases.stream().map(r -> r.await(LIMIT)).toList());
            for (int i = 0; i < releases.size(); i++) {
                Release r = releases.get(i);
                assertThat(after.get(i).livePodUids()).as("%s: pods after the control-plane restart", r.example.name())
                        .isEqualTo(before.get(r).livePodUids());
                assertThat(ReleaseKeepsakes.of(after.get(i))).as("%s: cache claims and SSH key after the control-plane restart", r.example.name())
                        .isEqualTo(ReleaseKeepsakes.of(before.get(r)));
            }
            Release fresh = Release.installed(session, LWS_NATIVE, "cpnew", Map.of());
            releases.add(fresh);
            fresh.await(LIMIT);
        } finally {
            releases.forEach(Release::remove);
        }
    }

    // ---- helpers

    /** One release of an example in a namespace of its own, installed without waiting. */
    record Release(ControllerSession session, Example example, Path file, String release, String namespace, RenderedManifest rendered,
            Set<String> claimsBefore, InstalledRelease handle) {

        /** Installed with the values file and --set overrides, after what an administrator provides (claims, volumes). */
        static Release installed(ControllerSession session, Path file, String label, Map<String, String> sets) {
            KubeApi api = session.environment().api();
            Example e = Example.of(file);
            String release = ChartUnderTest.releaseName(file);
            String namespace = TierNamespaces.create(api, "f" + label + "-" + release, PodSecurityExceptions.level(e));
            InstalledRelease handle = session.install(ChartReleases.of(namespace, file, sets));
            // The claims the release did not make: the existing claims its pods mount, made for the namespace before the install.
            Set<String> claimsBefore = NamespaceState.read(api, namespace).all("PersistentVolumeClaim").stream()
                    .filter(c -> c.labels().containsKey(ClusterPreconditions.LABEL)).map(KubeObject::name)
                    .collect(Collectors.toCollection(java.util.TreeSet::new));
            return new Release(session, e, file, release, namespace, handle.rendered(), claimsBefore, handle);
        }

        KubeApi api() {
            return session.environment().api();
        }

        Runnable alive() {
            return session.environment()::requireAllRunning;
        }

        NamespaceState await(Duration limit) {
            return handle.awaitReady(currentPods(), limit);
        }

        /** The desired state, with none of these pod UIDs left. */
        NamespaceState awaitWithout(Set<String> gone, Duration limit) {
            int pods = currentPods();
            return DesiredState.awaitUntil(api(), namespace, s -> DesiredState.missing(s, pods).isEmpty()
                    && s.livePodUids().stream().noneMatch(gone::contains), "desired state without the pods " + gone, limit, alive());
        }

        /** The desired state with every pod carrying the marker annotation of this value (null: no marker at all). */
        NamespaceState awaitMarked(String value, Duration limit) {
            int pods = currentPods();
            return DesiredState.awaitUntil(api(), namespace, s -> DesiredState.missing(s, pods).isEmpty()
                    && s.livePods().stream().allMatch(p -> marked(p, value)), "desired state with every pod's " + MARKER + " = " + value,
                    limit, alive());
        }

        /** Pods the release's workloads ask for now (replicaCount may differ from the example's). */
        private int currentPods() {
            NamespaceState state = NamespaceState.read(api(), namespace);
            List<KubeObject> owned = state.workloads().stream().filter(w -> w.list("metadata.ownerReferences").isEmpty()).toList();
            return dev.nimchart.controllers.ExpectedPods.fromWorkloads(RenderedManifest.of(owned));
        }

        /** The release's pods (only pods, not being deleted) once they satisfy the condition, polled without pause. */
        @SuppressWarnings("unchecked")
        List<KubeObject> podsWhen(java.util.function.Predicate<List<KubeObject>> condition, Duration limit) {
            return dev.nimchart.cluster.Poll.upTo(limit).every(0)
                    .until(() -> ((List<Object>) KubeApi.require(api().get("/api/v1/namespaces/" + namespace + "/pods"), "list pods")
                            .getOrDefault("items", List.of())).stream().map(o -> new KubeObject((Map<String, Object>) o))
                            .filter(p -> p.at("metadata.deletionTimestamp") == null).toList(), condition)
                    .orElseThrow(pods -> new AssertionError(String.format("%s: the condition on the pods within %s; pods: %s", example.name(), limit,
                            pods.stream().map(KubeObject::name).toList())));
        }

        void upgrade(Map<String, String> sets) {
            handle.upgrade(handle.release().withSets(sets));
        }

        /**
         * What the kubelet reports when a container's process ended and it started it again: the container's
         * restartCount one higher, its last state terminated.
         */
        void reportRestart(KubeObject pod) {
            KubeObject live = new KubeObject(KubeApi.require(api().get("/api/v1/namespaces/" + namespace + "/pods/" + pod.name()),
                    "read the pod " + pod.name()));
            List<Map<String, Object>> statuses = new ArrayList<>();
            for (KubeObject c : live.list("status.containerStatuses")) {
                Map<String, Object> status = new LinkedHashMap<>(c.raw());
                if (c.at("name").equals(PodGroupRun.nimContainer(live).at("name"))) {
                    status.put("restartCount", Integer.parseInt(String.valueOf(c.at("restartCount"))) + 1);
                    status.put("lastState", Map.of("terminated", Map.of("exitCode", 137, "reason", "Error",
                            "startedAt", String.valueOf(c.at("state.running.startedAt")), "finishedAt", java.time.Instant.now().toString())));
                }
                statuses.add(status);
            }
            KubeApi.require(api().mergePatch("/api/v1/namespaces/" + namespace + "/pods/" + pod.name() + "/status",
                    Map.of("status", Map.of("containerStatuses", statuses))), "report the restart of " + pod.name());
        }

        void deletePod(String name) {
            KubeApi.require(api().delete("/api/v1/namespaces/" + namespace + "/pods/" + name), "delete the pod " + name);
        }

        /**
         * Deletes the namespace; its pods, which a terminating namespace's controllers can no longer replace, are deleted
         * at once (grace period 0) rather than after the namespace controller's graceful pass: cleaning up, not a fault.
         */
        void remove() {
            api().delete("/api/v1/namespaces/" + namespace);
            api().delete("/api/v1/namespaces/" + namespace + "/pods?gracePeriodSeconds=0");
            TierNamespaces.delete(api(), namespace, alive());
        }
    }

    private static boolean until(Duration limit, java.util.function.BooleanSupplier condition) {
        return dev.nimchart.cluster.Poll.upTo(limit).every(500).until(condition);
    }

    private static String markerKey() {
        return "podAnnotations." + MARKER;
    }

    private static boolean marked(KubeObject pod, String value) {
        Object v = pod.annotations().get(MARKER);
        return value == null ? v == null : value.equals(v);
    }

    private static KubeObject pick(List<KubeObject> candidates) {
        assertThat(candidates).as("pods to choose the fault's victim from").isNotEmpty();
        List<KubeObject> sorted = candidates.stream().sorted(java.util.Comparator.comparing(KubeObject::name)).toList();
        return sorted.get(new Random(FaultLog.SEED).nextInt(sorted.size()));
    }

    private static String uid(KubeObject o) {
        return String.valueOf(o.at("metadata.uid"));
    }

    private static Set<String> uids(List<KubeObject> pods) {
        return pods == null ? Set.of() : pods.stream().map(FaultIT::uid).collect(Collectors.toCollection(java.util.TreeSet::new));
    }

    private static Set<String> claimNamesAndUids(NamespaceState state) {
        return ReleaseKeepsakes.claims(state).keySet();
    }
}
