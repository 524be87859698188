package dev.nimchart.chart.controllers;

import dev.nimchart.chart.repository.OwnEnvironment;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.cluster.KubeApi;
import dev.nimchart.cluster.LocalProcess;
import dev.nimchart.cluster.Poll;
import dev.nimchart.sessions.ControllerSession;
import dev.nimchart.junit.ControllerTier;
import dev.nimchart.objects.KubeObject;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The controller tier itself: every process runs, every fake node is Ready with its GPUs, the LWS webhooks are
 * registered; a controller that loses its leader lease is restarted as the kubelet restarts its container.
 */
@ExtendWith(ControllerTier.class)
class ControllerEnvironmentIT {

    @Test
    void everyProcessRunsAndEveryFakeNodeIsReadyWithItsGpus(ControllerSession session) {
        OwnEnvironment.required(session, "the controller tier's own processes and fake nodes");
        assertThat(session.environment().processes()).extracting(LocalProcess::name).containsExactly(
                "etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok", "lws-controller", "mpi-operator");
        assertThat(session.environment().processes()).allMatch(LocalProcess::alive);
        KubeApi api = session.environment().api();
        List<KubeObject> nodes = new KubeObject(KubeApi.require(api.get("/api/v1/nodes"), "list nodes")).list("items");
        assertThat(nodes).extracting(KubeObject::name).containsExactlyInAnyOrderElementsOf(session.environment().nodes());
        for (KubeObject node : nodes) {
            assertThat(node.list("status.conditions")).as("%s conditions", node.name())
                    .anyMatch(c -> "Ready".equals(c.at("type")) && "True".equals(c.at("status")));
            assertThat(node.at("status.addresses[0].address")).as("%s address", node.name()).asString().startsWith("198.18.");
        }
        assertThat(nodes).filteredOn(n -> n.at("status.allocatable[nvidia.com/gpu]") != null).hasSizeGreaterThanOrEqualTo(6);
        KubeObject webhooks = new KubeObject(KubeApi.require(
                api.get("/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations"), "list webhooks"));
        assertThat(webhooks.list("items")).as("LWS mutating webhooks").isNotEmpty();
        KubeObject kubernetes = new KubeObject(KubeApi.require(api.get("/api/v1/namespaces/default/services/kubernetes"), "read"));
        assertThat(kubernetes.at("spec.clusterIP")).as("the Service range").isEqualTo("198.19.0.1");
    }

    /**
     * What a loaded machine does by chance (the API server answering a renewal after client-go's 10 s renew deadline),
     * made on purpose: mpi-operator's Lease is taken by another holder, so mpi-operator cannot renew it and exits
     * ("Leader election stopped"). The tier's liveness check restarts it, as the kubelet would, instead of failing
     * whatever test was waiting; the new process waits out the other holder's lease and leads again.
     */
    @Test
    void aControllerThatLostItsLeaderLeaseIsRestartedAsTheKubeletWould(ControllerSession session) {
        OwnEnvironment.required(session, "the controller tier's own processes");
        KubeApi api = session.environment().api();
        LocalProcess operator = session.environment().processes().stream().filter(p -> p.name().equals("mpi-operator")).findFirst().orElseThrow();
        long pid = operator.pid();
        String path = "/apis/coordination.k8s.io/v1/namespaces/mpi-operator/leases/mpi-operator";
        KubeObject lease = new KubeObject(Poll.upTo(Duration.ofSeconds(60)).every(500).until(() -> api.get(path), KubeApi.Response::ok)
                .orElseThrow(r -> new AssertionError("mpi-operator's lease: " + r.message())).body());
        String holder = String.valueOf(lease.at("spec.holderIdentity"));

        Map<String, Object> spec = new LinkedHashMap<>();
        String now = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
                .withZone(java.time.ZoneOffset.UTC).format(Instant.now()); // a Lease's MicroTime
        spec.put("holderIdentity", "another-holder");
        spec.put("leaseDurationSeconds", 20);
        spec.put("acquireTime", now);
        spec.put("renewTime", now);
        KubeApi.require(api.mergePatch(path, Map.of("spec", spec)), "take mpi-operator's lease");

        assertThat(Poll.upTo(Duration.ofSeconds(60)).every(500).until(() -> !operator.alive()))
                .as("mpi-operator exits once it cannot renew its lease").isTrue();
        assertThat(operator.tail()).contains("Leader election stopped");
        session.environment().requireAllRunning();
        assertThat(operator.alive()).as("restarted").isTrue();
        assertThat(operator.pid()).as("a new process").isNotEqualTo(pid);
        assertThat(Poll.upTo(Duration.ofSeconds(90)).every(1000)
                .until(() -> new KubeObject(KubeApi.require(api.get(path), "read the lease")).at("spec.holderIdentity"),
                        h -> h != null && !"another-holder".equals(h)).held())
                .as("the restarted mpi-operator leads again (it held %s before)", holder).isTrue();
        session.environment().requireAllRunning();
    }
}
