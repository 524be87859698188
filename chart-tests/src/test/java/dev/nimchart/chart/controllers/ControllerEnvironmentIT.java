package dev.nimchart.chart.controllers;

import dev.nimchart.chart.repository.OwnEnvironment;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.cluster.KubeApi;
import dev.nimchart.cluster.LocalProcess;
import dev.nimchart.sessions.ControllerSession;
import dev.nimchart.junit.ControllerTier;
import dev.nimchart.objects.KubeObject;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The controller tier itself: every process runs, every fake node is Ready with its GPUs, the LWS webhooks are registered. */
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
}
