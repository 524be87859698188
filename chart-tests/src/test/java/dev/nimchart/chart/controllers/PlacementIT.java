package dev.nimchart.chart.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.ReleaseNamespace;
import dev.nimchart.chart.repository.Example;
import dev.nimchart.chart.repository.ChartReleases;
import dev.nimchart.chart.repository.Examples;
import dev.nimchart.chart.repository.Reconciled;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.controllers.ControllerEnvironment;
import dev.nimchart.controllers.DesiredState;
import dev.nimchart.controllers.InstalledRelease;
import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.sessions.ControllerSession;
import dev.nimchart.junit.ControllerTier;
import dev.nimchart.objects.KubeObject;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Placement with the real scheduler's DRA allocator and the real LeaderWorkerSet controller: GB200 NVL72 groups get
 * every claim allocated from the fake nodes' devices, stay inside one NVLink clique, and a group the devices cannot
 * hold is not scheduled; an upgrade with a rollout partition leaves the groups below it alone; RecreateGroupOnPodRestart
 * recreates a group whose worker is deleted, None recreates only that worker.
 */
@ExtendWith(ControllerTier.class)
class PlacementIT {

    private static final String CLIQUE = "nvidia.com/gpu.clique";
    private static final String MARKER = "nim-chart-tests/placement-marker";
    private static final Duration WAIT = ReconciledExampleIT.RECONCILE_TIMEOUT;

    @Test
    void nvl72GroupsGetTheirDevicesInsideOneCliqueAndAThirdGroupWaits(ControllerSession session) {
        Path file = Examples.named("multi-node-gb200-nvl72-computedomain.yaml");
        try (ReleaseNamespace ns = ReleaseNamespace.prefixed(session, file, "nvl72-")) {
            InstalledRelease installed = session.install(ChartReleases.of(ns.namespace, file));
            installed.awaitReady(8, WAIT);
            // A pod's status names its claims as the resource claim controller records them, which can trail the pod's
            // readiness in the copy read above (seen once with other classes running beside this one).
            NamespaceState state = DesiredState.awaitUntil(ns.api, ns.namespace, s -> s.livePods().stream()
                    .allMatch(p -> p.list("status.resourceClaimStatuses").size() == 2), "every pod's status naming its two claims",
                    WAIT, ns.env::requireAllRunning);
            Map<String, List<KubeObject>> groups = new Reconciled(ns.example, ns.release, state).groups();
            assertThat(groups).as("groups of the GB200 example").hasSize(2);

            List<KubeObject> claims = items(ns.api, "/apis/resource.k8s.io/v1/namespaces/" + ns.namespace + "/resourceclaims");
            assertThat(claims).as("claims: a GPU claim and a channel claim per pod").hasSize(16)
                    .allSatisfy(c -> assertThat(c.at("status.allocation")).as("allocation of claim %s", c.name()).isNotNull());
            Map<String, String> cliqueOfNode = new HashMap<>();
            for (KubeObject node : items(ns.api, "/api/v1/nodes")) {
                Object clique = node.labels().get(CLIQUE);
                if (clique != null) {
                    cliqueOfNode.put(node.name(), clique.toString());
                }
            }
            for (KubeObject pod : state.livePods()) {
                String node = String.valueOf(pod.at("spec.nodeName"));
                for (KubeObject claim : claimsOf(pod, claims)) {
                    assertThat(claim.list("status.allocation.devices.results")).as("devices of claim %s", claim.name())
                            .isNotEmpty().allSatisfy(r -> assertThat(r.at("pool")).as("pool (node) of a device of %s", claim.name()).isEqualTo(node));
                }
            }
            groups.forEach((group, pods) -> assertThat(pods.stream().map(p -> cliqueOfNode.get(String.valueOf(p.at("spec.nodeName")))).collect(Collectors.toSet()))
                    .as("NVLink cliques of the nodes of group %s", group).hasSize(1).doesNotContainNull());
            Set<String> cliques = groups.values().stream().map(p -> cliqueOfNode.get(String.valueOf(p.get(0).at("spec.nodeName")))).collect(Collectors.toSet());
            assertThat(cliques).as("one clique per group (exclusive topology)").hasSize(2);
            assertNoDeviceTwice(claims);

            // A third group: the two cliques are taken, so none of its pods is scheduled and no device is handed out twice.
            installed.upgrade(installed.release().withSets(Map.of("replicaCount", "3")));
            NamespaceState third = awaitState(ns.api, ns.namespace, s -> s.pods().stream().anyMatch(p -> "2".equals(p.label(Reconciled.LWS_GROUP))
                    && unschedulable(p)), ns.env, "a pod of group 2 marked unschedulable");
            assertThat(third.pods()).filteredOn(p -> "2".equals(p.label(Reconciled.LWS_GROUP)))
                    .as("pods of the third group").isNotEmpty().allSatisfy(p -> assertThat(p.at("spec.nodeName")).as("node of %s", p.name()).isNull());
            assertNoDeviceTwice(items(ns.api, "/apis/resource.k8s.io/v1/namespaces/" + ns.namespace + "/resourceclaims"));
        }
    }

    @Test
    void aPartitionedUpgradeLeavesTheGroupsBelowItOnTheOldRevision(ControllerSession session) {
        Path file = Examples.named("multi-node-llama-3.1-405b-lws.yaml");
        try (ReleaseNamespace ns = ReleaseNamespace.prefixed(session, file, "part-")) {
            int workers = ns.example.integer("multiNode.workers");
            InstalledRelease installed = session.install(ChartReleases.of(ns.namespace, file, Map.of("replicaCount", "3")));
            NamespaceState before = installed.awaitReady(3 * workers, WAIT);
            Map<String, Set<String>> uidsBefore = uidsByGroup(ns.example, ns.release, before);

            installed.upgrade(installed.release().withSets(Map.of("replicaCount", "3",
                    "multiNode.leaderWorkerSet.partition", "2", "podAnnotations." + MARKER.replace(".", "\\."), "new")));
            NamespaceState after = awaitState(ns.api, ns.namespace, s -> s.livePods().size() == 3 * workers
                    && s.livePods().stream().filter(p -> p.labels().get(Reconciled.LWS_GROUP).equals("2")).allMatch(p -> marked(p) && NamespaceState.ready(p)),
                    ns.env, "group 2 running the new revision");
            Map<String, Set<String>> uidsAfter = uidsByGroup(ns.example, ns.release, after);
            assertThat(uidsAfter).as("groups after the partitioned upgrade").hasSize(3);
            uidsAfter.forEach((group, uids) -> {
                if (group.endsWith("/2")) {
                    assertThat(uids).as("group %s (at the partition) was replaced", group).doesNotContainAnyElementsOf(uidsBefore.get(group));
                } else {
                    assertThat(uids).as("group %s (below the partition) keeps its pods", group).isEqualTo(uidsBefore.get(group));
                }
            });
            assertThat(after.livePods()).filteredOn(p -> !p.labels().get(Reconciled.LWS_GROUP).equals("2"))
                    .as("pods below the partition run the old pod template").noneMatch(PlacementIT::marked);
        }
    }

    @Test
    void recreateGroupOnPodRestartRecreatesTheGroupNoneOnlyThePod(ControllerSession session) {
        for (String policy : List.of("RecreateGroupOnPodRestart", "None")) {
            Path file = Examples.named("multi-node-llama-3.1-405b-lws.yaml");
            try (ReleaseNamespace ns = ReleaseNamespace.prefixed(session, file, "restart-" + policy.toLowerCase().substring(0, 4) + "-")) {
                int workers = ns.example.integer("multiNode.workers");
                InstalledRelease installed = session.install(ChartReleases.of(ns.namespace, file, Map.of("multiNode.leaderWorkerSet.restartPolicy", policy)));
                NamespaceState before = installed.awaitReady(workers, WAIT);
                KubeObject leader = before.livePods().stream().filter(p -> "0".equals(p.label(Reconciled.LWS_WORKER_INDEX))).findFirst().orElseThrow();
                KubeObject worker = before.livePods().stream().filter(p -> "1".equals(p.label(Reconciled.LWS_WORKER_INDEX))).findFirst().orElseThrow();
                String leaderUid = leader.at("metadata.uid").toString();
                String workerUid = worker.at("metadata.uid").toString();
                KubeApi.require(ns.api.delete("/api/v1/namespaces/" + ns.namespace + "/pods/" + worker.name()), "delete worker " + worker.name());
                NamespaceState after = awaitState(ns.api, ns.namespace, s -> s.livePods().size() == workers && s.livePods().stream().allMatch(NamespaceState::ready)
                        && s.livePods().stream().noneMatch(p -> p.at("metadata.uid").equals(workerUid)), ns.env, "the group whole again after deleting " + worker.name());
                boolean leaderKept = after.livePods().stream().anyMatch(p -> p.at("metadata.uid").equals(leaderUid));
                assertThat(leaderKept).as("restartPolicy %s: the leader survives the deletion of its worker", policy).isEqualTo(policy.equals("None"));
            }
        }
    }

    private static boolean marked(KubeObject pod) {
        return "new".equals(pod.annotations().get(MARKER));
    }

    private static boolean unschedulable(KubeObject pod) {
        return pod.list("status.conditions").stream().anyMatch(c -> "PodScheduled".equals(c.at("type")) && "False".equals(c.at("status")));
    }

    private static Map<String, Set<String>> uidsByGroup(Example e, String release, NamespaceState state) {
        Map<String, Set<String>> out = new HashMap<>();
        new Reconciled(e, release, state).groups().forEach((g, pods) ->
                out.put(g, pods.stream().map(p -> p.at("metadata.uid").toString()).collect(Collectors.toSet())));
        return out;
    }

    /** The claims a pod's status names (resourceClaimStatuses: the claims made for it from its templates). */
    private static List<KubeObject> claimsOf(KubeObject pod, List<KubeObject> claims) {
        Set<Object> names = pod.list("status.resourceClaimStatuses").stream().map(s -> s.at("resourceClaimName")).collect(Collectors.toSet());
        assertThat(names).as("claims of pod %s", pod.name()).hasSize(2);
        return claims.stream().filter(c -> names.contains(c.name())).toList();
    }

    private static void assertNoDeviceTwice(List<KubeObject> claims) {
        Set<String> seen = new HashSet<>();
        for (KubeObject claim : claims) {
            for (KubeObject r : claim.list("status.allocation.devices.results")) {
                String device = r.at("driver") + "/" + r.at("pool") + "/" + r.at("device");
                assertThat(seen.add(device)).as("device %s is allocated to one claim only (again in %s)", device, claim.name()).isTrue();
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static List<KubeObject> items(KubeApi api, String path) {
        return ((List<Object>) KubeApi.require(api.get(path), "list " + path).getOrDefault("items", List.of())).stream()
                .map(o -> new KubeObject((Map<String, Object>) o)).toList();
    }

    private static NamespaceState awaitState(KubeApi api, String namespace, Predicate<NamespaceState> done, ControllerEnvironment env, String what) {
        return DesiredState.awaitUntil(api, namespace, done, what, WAIT, env::requireAllRunning);
    }
}
