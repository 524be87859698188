package dev.nimchart.startup;

import dev.nimchart.cluster.CrdInstaller;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.cluster.LocalProcess;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.Yaml;

/**
 * A real NetworkPolicy engine on a start-up run's pod network: SIG Network's kube-network-policies (v0.8.0, built from
 * its module by this repository's {@code ci/build-netpol-enforcer.sh}, which replaces only the nftables expression that
 * hands a connection's first packet to user space, see there), run as its DaemonSet pod runs it on a node, with the
 * node being the network namespace that holds the pods' bridge ({@link PodGroupRun#podNetwork()}):
 * <ul>
 *   <li>it reads NetworkPolicies, Pods and Namespaces from the tier's API server with a ServiceAccount token, through
 *   upstream's own ClusterRole ({@code install-anp.yaml} of the module), as {@code rest.InClusterConfig} finds it: the
 *   token and CA at {@code /var/run/secrets/kubernetes.io/serviceaccount} (a tmpfs in a mount namespace of its own) and
 *   the server at {@code KUBERNETES_SERVICE_HOST:PORT}, a relay on the namespace's loopback to the API server on this
 *   machine's (socat, through a Unix socket: nothing joins the pod network to the host's);</li>
 *   <li>bridged traffic between the pods passes the bridge namespace's IPv4 netfilter hooks
 *   ({@code net.bridge.bridge-nf-call-iptables=1} there), where the enforcer's nftables table sends every new connection
 *   to its queue and its policy evaluation answers accept or drop; established connections are accepted;</li>
 *   <li>{@code --baseline-admin-network-policy}: upstream's mode in which every connection is judged, whatever node the
 *   pods are on (without it, only pods whose {@code spec.nodeName} is the enforcer's node are, and the tier's pods are
 *   spread over many fake nodes while sharing one network). With no BaselineAdminNetworkPolicy in the cluster the
 *   verdict is the NetworkPolicies' alone; the mode needs that CRD installed (copied beside the binary).</li>
 * </ul>
 * Its log ({@code -v=2}) holds one line per judged connection ("Evaluating packet", then the verdict). Stopped on
 * {@link #close()}, before the run's namespaces are removed.
 */
public final class NetworkPolicyEnforcer implements AutoCloseable {

    /** The enforcer's nftables table (upstream's default name). */
    static final String TABLE = "kube-network-policies";
    private static final String ACCOUNT = "kube-network-policies";
    private static final String ACCOUNT_NAMESPACE = "kube-system";

    private final List<LocalProcess> processes;
    private final LocalProcess enforcer;
    private final Path secrets;

    private NetworkPolicyEnforcer(List<LocalProcess> processes, LocalProcess enforcer, Path secrets) {
        this.processes = processes;
        this.enforcer = enforcer;
        this.secrets = secrets;
    }

    /**
     * Starts the enforcer of {@code enforcerDir} (its {@code kube-network-policies} and {@code crds/}) on the network
     * namespace {@code podNetwork}, reading the cluster of {@code kubeConfigYaml}; returns once its nftables rules are in
     * place (its caches synced). Logs go to {@code logDir}.
     */
    public static NetworkPolicyEnforcer start(Path enforcerDir, String kubeConfigYaml, String podNetwork, Path logDir) {
        KubeApi api = new KubeApi(kubeConfigYaml);
        CrdInstaller.install(api, enforcerDir.resolve("crds"));
        grantUpstreamRole(api);
        URI server = server(kubeConfigYaml);
        List<LocalProcess> started = new ArrayList<>();
        Path secrets = null;
        try {
            // A short path: a Unix socket's name is at most 107 bytes.
            secrets = Files.createTempDirectory("npe", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Files.writeString(secrets.resolve("token"), token(api));
            Files.write(secrets.resolve("ca.crt"), certificateAuthority(kubeConfigYaml));
            Path socket = secrets.resolve("api.sock");
            StartupHost.must(List.of("ip", "netns", "exec", podNetwork, "sysctl", "-q", "-w", "net.bridge.bridge-nf-call-iptables=1"));
            // The relay and the enforcer's metrics listen on the namespace's loopback, down in a new namespace.
            StartupHost.must(List.of("ip", "-n", podNetwork, "link", "set", "lo", "up"));
            started.add(LocalProcess.start(podNetwork + "-api-relay-host", List.of("socat", "UNIX-LISTEN:" + socket + ",fork",
                    "TCP:" + server.getHost() + ":" + server.getPort()), Map.of(), logDir));
            started.get(0).awaitReady("its socket exists", () -> Files.exists(socket), Duration.ofSeconds(10));
            started.add(LocalProcess.start(podNetwork + "-api-relay", List.of("ip", "netns", "exec", podNetwork, "socat",
                    "TCP-LISTEN:443,bind=127.0.0.1,reuseaddr,fork", "UNIX-CONNECT:" + socket), Map.of(), logDir));
            List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", podNetwork, "unshare", "--mount", "--propagation", "private",
                    "bash", "-c", """
                            set -e
                            mount -t tmpfs -o size=1m,mode=755 tmpfs /run
                            mkdir -p /run/secrets/kubernetes.io/serviceaccount
                            cp "$1/token" "$1/ca.crt" /run/secrets/kubernetes.io/serviceaccount/
                            shift
                            exec "$@"
                            """, "enforcer", secrets.toString(), enforcerDir.resolve("kube-network-policies").toString(),
                    "--hostname-override=" + podNetwork, "--baseline-admin-network-policy=true", "--disable-nri=true",
                    "--netfilter-bug-1766-fix=false", "--metrics-bind-address=127.0.0.1:0", "--v=2"));
            LocalProcess enforcer = LocalProcess.start(podNetwork + "-kube-network-policies", command,
                    Map.of("KUBERNETES_SERVICE_HOST", "127.0.0.1", "KUBERNETES_SERVICE_PORT", "443"), logDir);
            started.add(enforcer);
            enforcer.awaitReady("its nftables table holds the queue rule", () -> queueRuleInPlace(podNetwork), Duration.ofSeconds(60));
            return new NetworkPolicyEnforcer(started, enforcer, secrets);
        } catch (IOException | RuntimeException e) {
            new NetworkPolicyEnforcer(started, null, secrets).close();
            throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
        }
    }

    /**
     * Whether the enforcer's postrouting chain, with its queue verdict, is in the namespace's nftables ruleset ({@code nft}
     * shows the xtables NFQUEUE target as {@code queue num N} where it can translate it, else as {@code NFQUEUE}).
     */
    private static boolean queueRuleInPlace(String podNetwork) {
        StartupHost.Result chain = StartupHost.run(List.of("ip", "netns", "exec", podNetwork, "nft", "list", "chain", "inet", TABLE,
                "postrouting"), 10);
        return chain.exit() == 0 && (chain.output().contains("queue") || chain.output().contains("NFQUEUE"));
    }

    /** The enforcer's log: one "Evaluating packet" line per judged connection, the policies and the verdict. */
    public Path log() {
        return enforcer.log();
    }

    /** The enforcer's log text (empty when it cannot be read). */
    public String logText() {
        try {
            return Files.readString(enforcer.log());
        } catch (IOException e) {
            return "";
        }
    }

    /** Fails with the log's tail when the enforcer has exited. */
    public void requireAlive() {
        enforcer.requireAlive();
    }

    @Override
    public void close() {
        for (int i = processes.size() - 1; i >= 0; i--) {
            processes.get(i).close();
        }
        if (secrets != null) {
            try (var files = Files.list(secrets)) {
                for (Path f : files.toList()) {
                    Files.deleteIfExists(f);
                }
                Files.deleteIfExists(secrets);
            } catch (IOException e) {
                // a temporary directory left behind: nothing depends on it
            }
        }
    }

    /** Upstream's ServiceAccount, ClusterRole and binding (kube-network-policies' install-anp.yaml), created once. */
    private static void grantUpstreamRole(KubeApi api) {
        created(api.post("/api/v1/namespaces/" + ACCOUNT_NAMESPACE + "/serviceaccounts", Map.of("apiVersion", "v1", "kind", "ServiceAccount",
                "metadata", Map.of("name", ACCOUNT, "namespace", ACCOUNT_NAMESPACE))), "ServiceAccount");
        List<String> listWatch = List.of("list", "watch");
        created(api.post("/apis/rbac.authorization.k8s.io/v1/clusterroles", Map.of("apiVersion", "rbac.authorization.k8s.io/v1",
                "kind", "ClusterRole", "metadata", Map.of("name", ACCOUNT), "rules", List.of(
                        Map.of("apiGroups", List.of(""), "resources", List.of("pods", "namespaces", "nodes"), "verbs", listWatch),
                        Map.of("apiGroups", List.of("networking.k8s.io"), "resources", List.of("networkpolicies"), "verbs", listWatch),
                        Map.of("apiGroups", List.of("policy.networking.k8s.io"), "resources",
                                List.of("adminnetworkpolicies", "baselineadminnetworkpolicies"), "verbs", listWatch)))), "ClusterRole");
        created(api.post("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", Map.of("apiVersion", "rbac.authorization.k8s.io/v1",
                "kind", "ClusterRoleBinding", "metadata", Map.of("name", ACCOUNT),
                "roleRef", Map.of("apiGroup", "rbac.authorization.k8s.io", "kind", "ClusterRole", "name", ACCOUNT),
                "subjects", List.of(Map.of("kind", "ServiceAccount", "name", ACCOUNT, "namespace", ACCOUNT_NAMESPACE)))), "ClusterRoleBinding");
    }

    private static void created(KubeApi.Response response, String what) {
        if (!response.ok() && response.code() != 409) {
            throw new IllegalStateException("cannot create the enforcer's " + what + ": " + response.message());
        }
    }

    /** A bound token of the enforcer's ServiceAccount (TokenRequest), as the kubelet would project it. */
    private static String token(KubeApi api) {
        Map<String, Object> status = KubeApi.require(api.post("/api/v1/namespaces/" + ACCOUNT_NAMESPACE + "/serviceaccounts/" + ACCOUNT + "/token",
                Map.of("apiVersion", "authentication.k8s.io/v1", "kind", "TokenRequest", "spec", Map.of("expirationSeconds", 3600))),
                "request a token for the enforcer's ServiceAccount");
        Object token = status.get("status") instanceof Map<?, ?> s ? s.get("token") : null;
        if (token == null) {
            throw new IllegalStateException("the API server's TokenRequest answer holds no token");
        }
        return token.toString();
    }

    private static Map<?, ?> cluster(String kubeConfigYaml) {
        Object config = new Yaml().load(new StringReader(kubeConfigYaml));
        if (config instanceof Map<?, ?> m && m.get("clusters") instanceof List<?> clusters && !clusters.isEmpty()
                && clusters.get(0) instanceof Map<?, ?> entry && entry.get("cluster") instanceof Map<?, ?> cluster) {
            return cluster;
        }
        throw new IllegalStateException("the tier's kubeconfig names no cluster");
    }

    private static URI server(String kubeConfigYaml) {
        URI server = URI.create(String.valueOf(cluster(kubeConfigYaml).get("server")));
        if (!"127.0.0.1".equals(server.getHost()) && !"localhost".equals(server.getHost())) {
            throw new IllegalStateException("the enforcer is relayed to an API server on this machine's loopback, not " + server);
        }
        return server;
    }

    private static byte[] certificateAuthority(String kubeConfigYaml) throws IOException {
        Map<?, ?> cluster = cluster(kubeConfigYaml);
        Object data = cluster.get("certificate-authority-data");
        if (data != null) {
            return Base64.getDecoder().decode(data.toString().strip());
        }
        Object file = cluster.get("certificate-authority");
        if (file != null) {
            return Files.readAllBytes(Path.of(file.toString()));
        }
        throw new IllegalStateException("the tier's kubeconfig names no certificate authority");
    }
}
