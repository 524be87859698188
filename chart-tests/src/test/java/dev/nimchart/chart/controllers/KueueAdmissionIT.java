package dev.nimchart.chart.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.ChartReleases;
import dev.nimchart.chart.repository.Example;
import dev.nimchart.chart.repository.Examples;
import dev.nimchart.chart.repository.OwnEnvironment;
import dev.nimchart.chart.repository.PodSecurityExceptions;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.cluster.Poll;
import dev.nimchart.controllers.ControllerEnvironment;
import dev.nimchart.controllers.DesiredState;
import dev.nimchart.controllers.InstalledRelease;
import dev.nimchart.controllers.Kueue;
import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.junit.ControllerTier;
import dev.nimchart.sessions.ControllerSession;
import dev.nimchart.sessions.TierNamespaces;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.render.ChartUnderTest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Gang admission and topology-aware placement by a real Kueue (v0.15.0, {@link Kueue}) with the real scheduler and
 * LeaderWorkerSet controller, for the Kueue example as the chart renders it (the queue label on the LeaderWorkerSet,
 * {@code podset-required-topology} and {@code podset-group-name} on both pod templates). A ClusterQueue whose GPU quota
 * holds one group and not two, a ResourceFlavor of the H100 racks with a Topology of the fake nodes' block, rack and
 * host labels: a second group does not start at all (no pod of it is scheduled, its Workload holds no quota) while the
 * first runs; when the first release is uninstalled, the second is admitted whole, every pod of it Ready; each group
 * lands inside one rack, as the values require.
 */
@ExtendWith(ControllerTier.class)
@ResourceLock(Kueue.ONE_AT_A_TIME)
class KueueAdmissionIT {

    private static final Path FILE = Examples.named("multi-node-kueue-topology-aware.yaml");
    private static final Duration WAIT = ReconciledExampleIT.RECONCILE_TIMEOUT;
    private static final String WORKLOADS = "/apis/kueue.x-k8s.io/v1beta2/namespaces/%s/workloads";
    private static final String HOSTNAME = "kubernetes.io/hostname";
    private static final String FLAVOR_LABEL = "node.kubernetes.io/instance-type";
    private static final String FLAVOR_VALUE = "dgx-h100";

    @Test
    void aGroupThatCannotFitWaitsWholeAndIsAdmittedWholeInsideOneRackWhenTheQuotaFrees(ControllerSession session) {
        Example e = Example.of(FILE);
        ControllerEnvironment env = OwnEnvironment.required(session, "a Kueue of the test's own on the tier's fake racks");
        KubeApi api = env.api();
        int podsPerGroup = e.integer("multiNode.workers");
        int gpusPerPod = e.gpuLimit();
        String queue = e.text("kueue.queueName");
        String rack = e.text("kueue.requiredTopology");
        int quota = podsPerGroup * gpusPerPod + gpusPerPod;
        assertThat(2 * podsPerGroup * gpusPerPod).as("two groups' GPUs against the quota").isGreaterThan(quota);
        String release = ChartUnderTest.releaseName(FILE);
        List<String> namespaces = new ArrayList<>();
        // The namespaces go while Kueue runs: their pods carry Kueue's finalizer until Kueue lets them go.
        try (Kueue kueue = Kueue.start(env)) {
            Runnable alive = () -> {
                env.requireAllRunning();
                kueue.requireRunning();
            };
            try {
                createQueues(api, rack, quota);
                String first = queuedNamespace(api, e, "kq-first-" + release, queue, namespaces);
                String second = queuedNamespace(api, e, "kq-second-" + release, queue, namespaces);

                InstalledRelease firstRelease = session.install(ChartReleases.of(first, FILE, Map.of("replicaCount", "1")));
                NamespaceState running = firstRelease.awaitReady(podsPerGroup, WAIT, alive);
                assertThat(admitted(api, first)).as("admitted Workloads of the first release (one per group)").hasSize(1);
                assertOneRack(api, running.livePods(), rack, "the first group");

                InstalledRelease secondRelease = session.install(ChartReleases.of(second, FILE, Map.of("replicaCount", "1")));
                KubeObject waiting = awaitWorkload(api, second, w -> condition(w, "QuotaReserved", "False") != null, alive,
                        "a Workload of the second release refused quota");
                assertThat(String.valueOf(condition(waiting, "QuotaReserved", "False").at("message")))
                        .as("why the second group waits").contains("nvidia.com/gpu");
                Poll.upTo(Duration.ofSeconds(5)).every(500).throughout(() -> {
                    List<KubeObject> pods = NamespaceState.read(api, second).livePods();
                    assertThat(pods).as("pods of the waiting group: none scheduled, each held by Kueue's gate")
                            .allSatisfy(p -> {
                                assertThat(p.at("spec.nodeName")).as("node of %s", p.name()).isNull();
                                assertThat(String.valueOf(p.at("spec.schedulingGates"))).as("scheduling gates of %s", p.name())
                                        .contains("kueue.x-k8s.io/admission");
                            });
                    assertThat(admitted(api, second)).as("admitted Workloads of the second release while the first runs").isEmpty();
                });

                firstRelease.uninstall();
                DesiredState.awaitNoPods(api, first, WAIT, alive);
                NamespaceState admittedLater = secondRelease.awaitReady(podsPerGroup, WAIT, alive);
                assertThat(admitted(api, second)).as("admitted Workloads of the second release once the quota freed").hasSize(1);
                assertOneRack(api, admittedLater.livePods(), rack, "the second group");
                assertThat(admittedLater.livePods()).as("pods of the admitted group on the flavor's nodes")
                        .allSatisfy(p -> assertThat(String.valueOf(p.at("spec.nodeSelector"))).as("node selector of %s", p.name())
                                .contains(FLAVOR_LABEL + "=" + FLAVOR_VALUE));
            } finally {
                namespaces.forEach(n -> TierNamespaces.delete(api, n, alive));
            }
        }
    }

    /** A Topology of the fake nodes' levels, a ResourceFlavor of the H100 racks and a ClusterQueue with this GPU quota. */
    private static void createQueues(KubeApi api, String rack, int gpuQuota) {
        KubeApi.require(api.post("/apis/kueue.x-k8s.io/v1beta2/topologies", Map.of("apiVersion", "kueue.x-k8s.io/v1beta2",
                "kind", "Topology", "metadata", Map.of("name", "racks"), "spec", Map.of("levels", List.of(
                        Map.of("nodeLabel", "topology.kubernetes.io/block"), Map.of("nodeLabel", rack), Map.of("nodeLabel", HOSTNAME))))),
                "create the Topology");
        KubeApi.require(api.post("/apis/kueue.x-k8s.io/v1beta2/resourceflavors", Map.of("apiVersion", "kueue.x-k8s.io/v1beta2",
                "kind", "ResourceFlavor", "metadata", Map.of("name", "h100-racks"), "spec", Map.of(
                        "nodeLabels", Map.of(FLAVOR_LABEL, FLAVOR_VALUE), "topologyName", "racks"))), "create the ResourceFlavor");
        KubeApi.require(api.post("/apis/kueue.x-k8s.io/v1beta2/clusterqueues", Map.of("apiVersion", "kueue.x-k8s.io/v1beta2",
                "kind", "ClusterQueue", "metadata", Map.of("name", "nim-gpus"), "spec", Map.of("namespaceSelector", Map.of(),
                        "resourceGroups", List.of(Map.of("coveredResources", List.of("cpu", "memory", "ephemeral-storage", "nvidia.com/gpu"),
                                "flavors", List.of(Map.of("name", "h100-racks", "resources", List.of(
                                        Map.of("name", "cpu", "nominalQuota", "1000"),
                                        Map.of("name", "memory", "nominalQuota", "100Ti"),
                                        Map.of("name", "ephemeral-storage", "nominalQuota", "1000Ti"),
                                        Map.of("name", "nvidia.com/gpu", "nominalQuota", Integer.toString(gpuQuota)))))))))),
                "create the ClusterQueue");
    }

    /** A namespace Kueue manages, with a LocalQueue of the values' queue name (the install provides what an administrator would). */
    private static String queuedNamespace(KubeApi api, Example e, String name, String queue, List<String> made) {
        String namespace = TierNamespaces.create(api, name, PodSecurityExceptions.level(e));
        made.add(namespace);
        Kueue.manage(api, namespace);
        KubeApi.require(api.post("/apis/kueue.x-k8s.io/v1beta2/namespaces/" + namespace + "/localqueues", Map.of(
                "apiVersion", "kueue.x-k8s.io/v1beta2", "kind", "LocalQueue", "metadata", Map.of("name", queue),
                "spec", Map.of("clusterQueue", "nim-gpus"))), "create the LocalQueue in " + namespace);
        return namespace;
    }

    @SuppressWarnings("unchecked")
    private static List<KubeObject> workloads(KubeApi api, String namespace) {
        return ((List<Object>) KubeApi.require(api.get(WORKLOADS.formatted(namespace)), "list the Workloads of " + namespace)
                .getOrDefault("items", List.of())).stream().map(o -> new KubeObject((Map<String, Object>) o)).toList();
    }

    private static List<KubeObject> admitted(KubeApi api, String namespace) {
        return workloads(api, namespace).stream().filter(w -> condition(w, "Admitted", "True") != null).toList();
    }

    private static KubeObject condition(KubeObject workload, String type, String status) {
        return workload.list("status.conditions").stream().filter(c -> type.equals(c.at("type")) && status.equals(c.at("status")))
                .findFirst().orElse(null);
    }

    private static KubeObject awaitWorkload(KubeApi api, String namespace, Predicate<KubeObject> done, Runnable alive, String what) {
        alive.run();
        List<KubeObject> found = dev.nimchart.cluster.Poll.upTo(WAIT).every(250).checking(alive)
                .until(() -> workloads(api, namespace), ws -> ws.stream().anyMatch(done))
                .orElseThrow(ws -> new AssertionError("no " + what + " within " + WAIT.toSeconds() + " s; Workloads: "
                        + ws.stream().map(w -> w.name() + " " + w.at("status.conditions")).toList()));
        return found.stream().filter(done).findFirst().orElseThrow();
    }

    @SuppressWarnings("unchecked")
    private static void assertOneRack(KubeApi api, List<KubeObject> pods, String rackLabel, String what) {
        Map<String, String> rackOfNode = ((List<Object>) KubeApi.require(api.get("/api/v1/nodes"), "list the nodes")
                .getOrDefault("items", List.of())).stream().map(o -> new KubeObject((Map<String, Object>) o))
                .filter(n -> n.labels().get(rackLabel) != null)
                .collect(Collectors.toMap(KubeObject::name, n -> n.labels().get(rackLabel).toString()));
        Set<String> racks = pods.stream().map(p -> rackOfNode.get(String.valueOf(p.at("spec.nodeName")))).collect(Collectors.toSet());
        assertThat(racks).as("racks of the nodes of %s (%s)", what, pods.stream().map(p -> p.name() + "@" + p.at("spec.nodeName")).toList())
                .hasSize(1).doesNotContainNull();
    }
}
