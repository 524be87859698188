package dev.nimchart.chart.startup;

import dev.nimchart.cluster.KubeApi;
import dev.nimchart.objects.KubeObject;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Who can open a TCP connection to whom on a start-up run's pod network: one attempt from inside a network namespace,
 * with bash's {@code /dev/tcp}, told apart as the kernel answers it. A NetworkPolicy enforcer drops the first packet of
 * a refused connection, so the attempt times out ({@link Outcome#TIMED_OUT}); nothing listening answers with a reset
 * ({@link Outcome#REFUSED}). Also the pods a check dials from: real Pod objects (kwok gives them their address), so that
 * the enforcer knows them by namespace and labels as it would know any pod.
 */
final class PodNetworkProbe {

    /** How long a connection attempt may take before it counts as dropped. */
    static final int CONNECT_SECONDS = 3;

    enum Outcome { CONNECTED, TIMED_OUT, REFUSED }

    private PodNetworkProbe() {
    }

    /** One attempt to connect from the network namespace {@code netns} to ip:port. */
    static Outcome connect(String netns, String ip, int port) {
        try {
            Process p = new ProcessBuilder("ip", "netns", "exec", netns, "timeout", Integer.toString(CONNECT_SECONDS), "bash", "-c",
                    "exec 3<>\"/dev/tcp/$1/$2\"", "probe", ip, Integer.toString(port)).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            if (!p.waitFor(CONNECT_SECONDS + 10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return Outcome.TIMED_OUT;
            }
            return switch (p.exitValue()) {
                case 0 -> Outcome.CONNECTED;
                case 124 -> Outcome.TIMED_OUT;
                default -> Outcome.REFUSED;
            };
        } catch (IOException e) {
            throw new IllegalStateException("cannot run ip netns exec " + netns + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * The outcome once it is {@code expected}, trying for up to {@code within} (an enforcer learns of a new pod from its
     * watch a moment after the pod has its address), or the last outcome.
     */
    static Outcome connectExpecting(String netns, String ip, int port, Outcome expected, Duration within) {
        return dev.nimchart.cluster.Poll.upTo(within).every(0).until(() -> connect(netns, ip, port), expected::equals).last();
    }

    /**
     * Creates a Pod that passes the restricted Pod Security level in {@code namespace} with {@code labels}, and returns
     * its address once the cluster gave it one (kwok, on a fake node).
     */
    static String podWithAddress(KubeApi api, String namespace, String name, Map<String, String> labels, Duration within) {
        KubeApi.require(api.post("/api/v1/namespaces/" + namespace + "/pods", pod(namespace, name, labels, Map.of())),
                "create the pod " + namespace + "/" + name);
        return dev.nimchart.cluster.Poll.upTo(within)
                .until(() -> api.read("v1", "Pod", namespace, name).map(p -> p.at("status.podIP")).map(String::valueOf).orElse(""),
                        ip -> !ip.isBlank() && !ip.equals("null"))
                .orElseThrow(ip -> new AssertionError("the pod " + namespace + "/" + name + " got no address within " + within));
    }

    /**
     * A Pod that passes the restricted Pod Security level, with {@code labels} and more {@code spec} fields (such as a
     * {@code nodeName}: on an API server without a scheduler).
     */
    static Map<String, Object> pod(String namespace, String name, Map<String, String> labels, Map<String, Object> moreSpec) {
        Map<String, Object> spec = new java.util.LinkedHashMap<>(Map.of(
                "securityContext", Map.of("runAsNonRoot", true, "runAsUser", 1000, "seccompProfile", Map.of("type", "RuntimeDefault")),
                "containers", List.of(Map.of("name", "client", "image", "registry.example/client:1.0",
                        "securityContext", Map.of("allowPrivilegeEscalation", false, "capabilities", Map.of("drop", List.of("ALL")))))));
        spec.putAll(moreSpec);
        return Map.of("apiVersion", "v1", "kind", "Pod", "metadata", Map.of("name", name, "namespace", namespace, "labels", labels), "spec", spec);
    }

    /**
     * Listens on {@code ports} inside the network namespace {@code netns} (accepting and closing every connection) until
     * closed: a stand-in for a pod the tier does not start, so that a policy selecting that pod is enforced on a port
     * that is open.
     */
    static AutoCloseable listen(String netns, List<Integer> ports) {
        String script = "import select, socket, sys\n"
                + "socks = []\n"
                + "for p in sys.argv[1:]:\n"
                + "    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(('0.0.0.0', int(p))); s.listen(64)\n"
                + "    socks.append(s)\n"
                + "print('listening', flush=True)\n"
                + "while True:\n"
                + "    for s in select.select(socks, [], [])[0]:\n"
                + "        s.accept()[0].close()\n";
        List<String> command = new java.util.ArrayList<>(List.of("ip", "netns", "exec", netns, "python3", "-c", script));
        ports.forEach(p -> command.add(Integer.toString(p)));
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String first = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream())).readLine();
            if (!"listening".equals(first)) {
                p.destroyForcibly();
                throw new IllegalStateException("cannot listen on " + ports + " in " + netns + ": " + first);
            }
            return () -> {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            };
        } catch (IOException e) {
            throw new IllegalStateException("cannot run ip netns exec " + netns + ": " + e.getMessage(), e);
        }
    }

    /** Creates a namespace of exactly this name (a policy's namespaceSelector names it); one that exists is kept. */
    static void namespace(KubeApi api, String name) {
        KubeApi.Response r = api.post("/api/v1/namespaces", Map.of("apiVersion", "v1", "kind", "Namespace", "metadata", Map.of("name", name)));
        if (!r.ok() && r.code() != 409) {
            throw new IllegalStateException("cannot create the namespace " + name + ": " + r.message());
        }
    }
}
