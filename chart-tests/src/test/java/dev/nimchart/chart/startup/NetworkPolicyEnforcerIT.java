package dev.nimchart.chart.startup;

import static dev.nimchart.chart.startup.PodNetworkProbe.Outcome.CONNECTED;
import static dev.nimchart.chart.startup.PodNetworkProbe.Outcome.TIMED_OUT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.cluster.BinaryAssets;
import dev.nimchart.cluster.ClusterSession;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.junit.ClusterTier;
import dev.nimchart.startup.NetworkPolicyEnforcer;
import dev.nimchart.startup.PodGroupRun;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The start-up tier's NetworkPolicy enforcer ({@link NetworkPolicyEnforcer}, kube-network-policies) on its own, on the
 * API-server tier's cluster: three pods of one namespace (Pod objects with a node and an address, as a kubelet would
 * report them) on a pod network with the enforcer, a TCP listener in the server's. With no policy, the client and a
 * stranger both connect; once a NetworkPolicy lets only pods labelled {@code app: client} in, the stranger's connection
 * is dropped (it times out) and the client's still goes through; once the policy is deleted, the stranger connects
 * again. So the enforcer reads the policies from the API server, follows their changes, and judges each connection by
 * its source pod's labels.
 */
@ExtendWith(ClusterTier.class)
class NetworkPolicyEnforcerIT {

    private static final int PORT = 7000;
    private static final Duration FOLLOW = Duration.ofSeconds(20);

    @Test
    void theEnforcerDropsWhatAPolicyRefusesAndFollowsThePolicysChanges(ClusterSession cluster) throws Exception {
        StartupIT.requireStartupHost();
        Path enforcerDir = BinaryAssets.of(cluster.settings()).networkPolicyEnforcer(line -> System.out.println("[netpol] " + line));
        KubeApi api = cluster.api();
        String ns = cluster.restrictedNamespace("netpol-enforcer");
        String server = pod(api, ns, "server", "198.18.100.10");
        String client = pod(api, ns, "client", "198.18.100.11");
        String stranger = pod(api, ns, "stranger", "198.18.100.12");
        Path dir = StartupIT.REPORT_DIR.resolve("netpol-enforcer").toAbsolutePath();
        try (PodGroupRun run = PodGroupRun.start(NamespaceState.of(ns, List.of()), List.of(), dir, Map.of(), PodGroupRun.Server.STANDIN, null,
                net -> NetworkPolicyEnforcer.start(enforcerDir, cluster.cluster().kubeConfigYaml(), net, dir.resolveSibling("netpol-enforcer-logs")))) {
            String serverNet = run.attachNamespace("a", server + "/17");
            String clientNet = run.attachNamespace("b", client + "/17");
            String strangerNet = run.attachNamespace("c", stranger + "/17");
            Process listener = new ProcessBuilder("ip", "netns", "exec", serverNet, "socat", "TCP-LISTEN:" + PORT + ",bind=" + server + ",fork,reuseaddr",
                    "SYSTEM:echo hello").redirectErrorStream(true).redirectOutput(dir.resolveSibling("netpol-enforcer-listener.log").toFile()).start();
            NetworkPolicyEnforcer enforcer = run.onPodNetwork(NetworkPolicyEnforcer.class).orElseThrow();
            try {
                assertThat(PodNetworkProbe.connectExpecting(clientNet, server, PORT, CONNECTED, FOLLOW)).as("the client, no policy").isEqualTo(CONNECTED);
                assertThat(PodNetworkProbe.connectExpecting(strangerNet, server, PORT, CONNECTED, FOLLOW)).as("the stranger, no policy").isEqualTo(CONNECTED);

                KubeApi.require(api.post("/apis/networking.k8s.io/v1/namespaces/" + ns + "/networkpolicies", Map.of("apiVersion", "networking.k8s.io/v1",
                        "kind", "NetworkPolicy", "metadata", Map.of("name", "server"), "spec", Map.of("podSelector", Map.of("matchLabels", Map.of("app", "server")),
                                "policyTypes", List.of("Ingress"), "ingress", List.of(Map.of("from", List.of(Map.of("podSelector",
                                        Map.of("matchLabels", Map.of("app", "client")))), "ports", List.of(Map.of("port", PORT, "protocol", "TCP"))))))),
                        "create the NetworkPolicy");
                assertThat(PodNetworkProbe.connectExpecting(strangerNet, server, PORT, TIMED_OUT, FOLLOW))
                        .as("the stranger once only app=client may connect; enforcer log %s", enforcer.log()).isEqualTo(TIMED_OUT);
                assertThat(PodNetworkProbe.connect(clientNet, server, PORT)).as("the client under the policy").isEqualTo(CONNECTED);

                KubeApi.require(api.delete("/apis/networking.k8s.io/v1/namespaces/" + ns + "/networkpolicies/server"), "delete the NetworkPolicy");
                assertThat(PodNetworkProbe.connectExpecting(strangerNet, server, PORT, CONNECTED, FOLLOW)).as("the stranger once the policy is gone")
                        .isEqualTo(CONNECTED);
                assertThat(enforcer.logText()).as("the enforcer judged the stranger's connections itself")
                        .contains("srcPod=\"" + ns + "/stranger\"");
                enforcer.requireAlive();
            } finally {
                listener.descendants().forEach(ProcessHandle::destroyForcibly);
                listener.destroyForcibly();
            }
        } finally {
            api.delete("/api/v1/namespaces/" + ns);
        }
    }

    /** A Pod on a node with this address, as its kubelet would report it (no scheduler or kubelet runs on this tier). */
    private static String pod(KubeApi api, String namespace, String name, String ip) throws IOException {
        KubeApi.require(api.post("/api/v1/namespaces/" + namespace + "/pods", PodNetworkProbe.pod(namespace, name, Map.of("app", name),
                Map.of("nodeName", "enforcer-node"))), "create the pod " + name);
        KubeApi.require(api.mergePatch("/api/v1/namespaces/" + namespace + "/pods/" + name + "/status", Map.of("status",
                Map.of("phase", "Running", "podIP", ip, "podIPs", List.of(Map.of("ip", ip))))), "give the pod " + name + " its address");
        return ip;
    }
}
