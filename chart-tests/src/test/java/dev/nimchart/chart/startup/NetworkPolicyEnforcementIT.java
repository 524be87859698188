package dev.nimchart.chart.startup;

import static dev.nimchart.chart.startup.PodNetworkProbe.Outcome.CONNECTED;
import static dev.nimchart.chart.startup.PodNetworkProbe.Outcome.TIMED_OUT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.controllers.ReconciledExampleIT;
import dev.nimchart.chart.repository.Example;
import dev.nimchart.chart.repository.Examples;
import dev.nimchart.chart.repository.NimLlmRules;
import dev.nimchart.chart.repository.RepositoryChart;
import dev.nimchart.chart.startup.PodNetworkProbe.Outcome;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.junit.ChartTiers;
import dev.nimchart.junit.ControllerTier;
import dev.nimchart.sessions.TierNamespaces;
import dev.nimchart.sessions.TierSessions;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.startup.NetworkPolicyEnforcer;
import dev.nimchart.startup.ContainerCommand;
import dev.nimchart.startup.PodGroupRun;
import dev.nimchart.startup.PodGroupRun.PodRun;
import dev.nimchart.tiers.ChartRules;
import dev.nimchart.tiers.Tier;
import dev.nimchart.tiers.startup.StartupChecks;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The chart's NetworkPolicies enforced for real on the start-up tier's pod network by SIG Network's kube-network-policies
 * ({@link NetworkPolicyEnforcer}; the tier runs it wherever a release renders a NetworkPolicy, so {@link StartupIT} and
 * {@link RayStartupIT} start, join and serve those examples with their policies enforced). Here, with the group running
 * under the enforcer, connections are opened from three kinds of pod (real Pod objects, so the enforcer knows them by
 * namespace and labels, each dialling from a network namespace of its own with the address the cluster gave it):
 * <ul>
 *   <li>a <b>stranger</b>: a pod of another namespace, and a pod of the release's namespace without the group's labels;</li>
 *   <li>a <b>declared client</b>: a pod of a namespace {@code networkPolicy.ingressFrom} names;</li>
 *   <li>the group's <b>own pods</b>, and a pod of another group of the same release.</li>
 * </ul>
 * With the policies on, a stranger's connection to the group's control ports (Ray's GCS, sshd) is dropped (it times out:
 * the port listens, the group's own pods connect to it), and so is one from another group; the declared client reaches
 * the API port, and the stranger does too where {@code ingressFrom} is empty. With the policies off
 * ({@code networkPolicy.enabled: false}) and the same enforcer running, the stranger connects: the check fails where the
 * isolation is missing.
 */
@ExtendWith({ControllerTier.class, ChartTiers.class})
class NetworkPolicyEnforcementIT {

    static final Path REPORT_DIR = StartupIT.REPORT_DIR.resolve("netpol");
    /** LeaderWorkerSet groups started by mpirun over SSH, two replicas, API clients from the api-gateway and monitoring namespaces. */
    static final String MPI_EXAMPLE = "multi-node-nemotron-340b-3-node.yaml";
    /** One LeaderWorkerSet group forming a Ray cluster, no ingressFrom (the API port open to every pod). */
    static final String RAY_EXAMPLE = "multi-node-ray-nim3-4-node-group.yaml";
    /** LeaderWorkerSet groups behind an Inference Gateway, with GAIE's endpoint picker (the tier starts multi-node groups). */
    static final String PICKER_EXAMPLE = "multi-node-inference-gateway-keda.yaml";
    /** A connection the enforcer allows may need its watch to have caught up with a new pod first. */
    private static final Duration SETTLE = Duration.ofSeconds(60);

    @Test
    void aStrangerCannotOpenSshdOrTheApiWhileTheGroupsOwnPodsAndTheDeclaredClientsCan(TierSessions tiers) {
        StartupIT.requireStartupHost();
        start(tiers, MPI_EXAMPLE, List.of(), false, started -> {
            Dialers d = dialers(started, "api-gateway");
            int ssh = Example.of(Examples.named(MPI_EXAMPLE)).integer("multiNode.sshPort");
            List<PodRun> leaders = leaders(started);
            assertThat(leaders).as("two groups").hasSize(2);
            PodRun leader = leaders.get(0);
            PodRun worker = workerOf(started.run(), leader);
            PodRun otherLeader = leaders.get(1);
            Dials dials = new Dials();
            dials.expect("the group's leader to its worker's sshd", leader.netns(), worker, ssh, CONNECTED);
            dials.expect("a stranger (another namespace) to a worker's sshd", d.stranger, worker, ssh, TIMED_OUT);
            dials.expect("a pod of the release's namespace without group labels to a worker's sshd", d.neighbour, worker, ssh, TIMED_OUT);
            dials.expect("the declared client (namespace api-gateway) to a worker's sshd", d.client, worker, ssh, TIMED_OUT);
            dials.expect("another group's leader to this group's worker's sshd", otherLeader.netns(), worker, ssh, TIMED_OUT);
            dials.expect("the declared client (namespace api-gateway) to the leader's API port", d.client, leader, serverPort(leader), CONNECTED);
            dials.expect("a stranger (another namespace) to the leader's API port", d.stranger, leader, serverPort(leader), TIMED_OUT);
            assertProbesAsExpected(dials.failures(), started, d, worker, ssh, MPI_EXAMPLE + " with its NetworkPolicies enforced");
        });
    }

    @Test
    void aStrangerCannotOpenTheRayGcsWhileTheGroupsOwnPodsCan(TierSessions tiers) {
        StartupIT.requireStartupHost();
        start(tiers, RAY_EXAMPLE, List.of(), false, started -> {
            Dialers d = dialers(started, null);
            PodRun head = started.run().pod(started.servingPods().get(0).name());
            int gcs = rayPort(head.pod());
            PodRun worker = workerOf(started.run(), head);
            Dials dials = new Dials();
            dials.expect("a worker of the group to the Ray GCS", worker.netns(), head, gcs, CONNECTED);
            dials.expect("a stranger (another namespace) to the Ray GCS", d.stranger, head, gcs, TIMED_OUT);
            dials.expect("a pod of the release's namespace without group labels to the Ray GCS", d.neighbour, head, gcs, TIMED_OUT);
            dials.expect("a stranger to the API port (ingressFrom is empty: open to every pod)", d.stranger, head, serverPort(head), CONNECTED);
            assertProbesAsExpected(dials.failures(), started, d, head, gcs, RAY_EXAMPLE + " with its NetworkPolicies enforced");
        });
    }

    /**
     * The endpoint picker's policy, with the gateway's namespace declared for ext-proc and monitoring's for metrics (as
     * values a production release sets): a stranger opens none of the picker's three ports, the gateway only ext-proc,
     * monitoring only metrics, and no one the health port. The tier starts no picker (it runs no model): its pod, as the
     * Deployment created it with its address, gets a network namespace of its own with a listener on each port of its
     * container ({@link PodNetworkProbe#listen}), so what is judged is the policy, not the picker.
     */
    @Test
    void aStrangerCannotOpenThePickersPortsWhileTheDeclaredGatewayAndMonitoringCan(TierSessions tiers) {
        StartupIT.requireStartupHost();
        Path declared = valuesFile("picker-peers.yaml", """
                networkPolicy:
                  endpointPicker:
                    extProcFrom:
                      - namespaceSelector:
                          matchLabels:
                            kubernetes.io/metadata.name: envoy-gateway-system
                    metricsFrom:
                      - namespaceSelector:
                          matchLabels:
                            kubernetes.io/metadata.name: monitoring
                """);
        start(tiers, PICKER_EXAMPLE, List.of(declared), false, started -> {
            Dialers d = dialers(started, "envoy-gateway-system");
            String monitoring = client(started, "monitoring", "m");
            Picker picker = picker(started);
            try (AutoCloseable listening = PodNetworkProbe.listen(picker.netns, List.of(picker.extProc, picker.health, picker.metrics))) {
                Dials dials = new Dials();
                dials.expect("the gateway (namespace envoy-gateway-system) to the picker's ext-proc port", d.client, picker.at(), picker.extProc, CONNECTED);
                dials.expect("monitoring to the picker's metrics port", monitoring, picker.at(), picker.metrics, CONNECTED);
                dials.expect("a stranger (another namespace) to the picker's ext-proc port", d.stranger, picker.at(), picker.extProc, TIMED_OUT);
                dials.expect("a stranger (another namespace) to the picker's metrics port", d.stranger, picker.at(), picker.metrics, TIMED_OUT);
                dials.expect("a pod of the release's namespace to the picker's ext-proc port", d.neighbour, picker.at(), picker.extProc, TIMED_OUT);
                dials.expect("the gateway to the picker's metrics port", d.client, picker.at(), picker.metrics, TIMED_OUT);
                dials.expect("monitoring to the picker's ext-proc port", monitoring, picker.at(), picker.extProc, TIMED_OUT);
                dials.expect("the gateway to the picker's health port (open to no one)", d.client, picker.at(), picker.health, TIMED_OUT);
                assertProbesAsExpected(dials.failures(), started, d, picker.at(), picker.extProc, PICKER_EXAMPLE + " with the picker's NetworkPolicy enforced");
            } catch (Exception e) {
                throw e instanceof RuntimeException r ? r : new IllegalStateException(e);
            }
        });
    }

    /**
     * Air-gap mode's egress policy: the MPI groups with {@code airGap.enabled} start and serve (mpirun reaches every
     * worker's sshd, so the group's own traffic passes), and a group's leader cannot open a port that listens on a pod
     * outside the release (a stand-in for a registry or NGC mirror inside the cluster), while a pod of the release's
     * namespace that no policy selects opens the same port. The enforcer's log names the leader's connection.
     */
    @Test
    void anAirGappedGroupReachesItsOwnPodsButNoPortOutsideTheRelease(TierSessions tiers) {
        StartupIT.requireStartupHost();
        Path airGap = valuesFile("air-gap.yaml", "airGap:\n  enabled: true\n");
        start(tiers, MPI_EXAMPLE, List.of(airGap), false, started -> {
            assertThat(started.reconciled().rendered().ofKind("NetworkPolicy").stream().map(KubeObject::name))
                    .as("air-gap mode renders the egress policy").anyMatch(n -> n.endsWith("-egress"));
            Dialers d = dialers(started, null);
            PodRun leader = leaders(started).get(0);
            String strangerIp = d.strangerIp;
            int port = 8443;
            try (AutoCloseable listening = PodNetworkProbe.listen(d.stranger, List.of(port))) {
                Dials dials = new Dials();
                Target outside = new Target(d.strangerPod, strangerIp);
                dials.expect("a pod no policy selects to a port outside the release", d.neighbour, outside, port, CONNECTED);
                dials.expect("the air-gapped group's leader to a port outside the release", leader.netns(), outside, port, TIMED_OUT);
                List<String> failures = dials.failures();
                String judged = "srcPod=\"" + started.reconciled().namespace() + "/" + leader.pod().name() + "\" dstPod=\"" + d.strangerPod + "\"";
                if (!enforcer(started).logText().contains(judged)) {
                    failures.add("the enforcer's log names no connection " + judged + " (" + enforcer(started).log() + ")");
                }
                enforcer(started).requireAlive();
                assertThat(failures).as("%s with airGap.enabled and its policies enforced; enforcer log %s", MPI_EXAMPLE, enforcer(started).log())
                        .isEmpty();
            } catch (Exception e) {
                throw e instanceof RuntimeException r ? r : new IllegalStateException(e);
            }
        });
    }

    /** The same two groups with {@code networkPolicy.enabled: false} and the same enforcer running: the stranger gets in. */
    @Test
    void withThePoliciesOffTheStrangerOpensSshdAndTheRayGcs(TierSessions tiers) {
        StartupIT.requireStartupHost();
        Path off = policiesOff();
        start(tiers, MPI_EXAMPLE, List.of(off), true, started -> {
            assertThat(started.reconciled().rendered().ofKind("NetworkPolicy")).as("no NetworkPolicy rendered").isEmpty();
            Dialers d = dialers(started, null);
            PodRun worker = workerOf(started.run(), leaders(started).get(0));
            int ssh = Example.of(Examples.named(MPI_EXAMPLE)).integer("multiNode.sshPort");
            Dials dials = new Dials();
            dials.expect("a stranger (another namespace) to a worker's sshd, no policy", d.stranger, worker, ssh, CONNECTED);
            assertProbesAsExpected(dials.failures(), started, d, worker, ssh, MPI_EXAMPLE + " without NetworkPolicies");
        });
        start(tiers, RAY_EXAMPLE, List.of(off), true, started -> {
            Dialers d = dialers(started, null);
            PodRun head = started.run().pod(started.servingPods().get(0).name());
            Dials dials = new Dials();
            dials.expect("a stranger (another namespace) to the Ray GCS, no policy", d.stranger, head, rayPort(head.pod()), CONNECTED);
            assertProbesAsExpected(dials.failures(), started, d, head, rayPort(head.pod()), RAY_EXAMPLE + " without NetworkPolicies");
        });
        start(tiers, PICKER_EXAMPLE, List.of(off), true, started -> {
            Dialers d = dialers(started, null);
            Picker picker = picker(started);
            try (AutoCloseable listening = PodNetworkProbe.listen(picker.netns, List.of(picker.extProc, picker.metrics))) {
                Dials dials = new Dials();
                dials.expect("a stranger (another namespace) to the picker's ext-proc port, no policy", d.stranger, picker.at(), picker.extProc, CONNECTED);
                dials.expect("a stranger (another namespace) to the picker's metrics port, no policy", d.stranger, picker.at(), picker.metrics, CONNECTED);
                assertProbesAsExpected(dials.failures(), started, d, picker.at(), picker.extProc, PICKER_EXAMPLE + " without NetworkPolicies");
            } catch (Exception e) {
                throw e instanceof RuntimeException r ? r : new IllegalStateException(e);
            }
        });
    }

    /** A pod the tier does not start, as a destination: its name and address. */
    record Target(String name, String ip) {
    }

    /** The endpoint picker's pod: its address in a network namespace of its own, and its container's three ports by name. */
    record Picker(String name, String ip, String netns, int extProc, int health, int metrics) {
        Target at() {
            return new Target(name, ip);
        }
    }

    private static Picker picker(ChartRules.Started started) {
        KubeObject pod = started.reconciled().state().livePods().stream()
                .filter(p -> "endpoint-picker".equals(String.valueOf(p.labels().get("app.kubernetes.io/component"))))
                .findFirst().orElseThrow(() -> new AssertionError("no endpoint picker pod in " + started.reconciled().namespace()));
        String ip = String.valueOf(pod.at("status.podIP"));
        KubeObject container = pod.list("spec.containers").get(0);
        Map<String, Integer> ports = new java.util.HashMap<>();
        container.list("ports").forEach(p -> ports.put(String.valueOf(p.at("name")), Integer.parseInt(String.valueOf(p.at("containerPort")))));
        assertThat(ports).as("the picker's container ports").containsKeys("grpc-ext-proc", "grpc-health", "http-metrics");
        return new Picker(pod.name(), ip, started.run().attachNamespace("p", ip + "/17"), ports.get("grpc-ext-proc"), ports.get("grpc-health"),
                ports.get("http-metrics"));
    }

    /** The network namespaces the check dials from, each holding the address of a real pod of the cluster. */
    record Dialers(String stranger, String strangerPod, String strangerIp, String neighbour, String neighbourPod, String client) {
    }

    /**
     * A stranger in a namespace of its own, a pod without labels in the release's namespace and, where {@code clientNamespace}
     * is given, a client in that namespace: created in the cluster, each attached to the pod network with its address.
     */
    private static Dialers dialers(ChartRules.Started started, String clientNamespace) {
        KubeApi api = started.reconciled().api();
        String release = started.reconciled().namespace();
        String strangers = TierNamespaces.create(api, release + "-strangers", "restricted");
        String stranger = PodNetworkProbe.podWithAddress(api, strangers, "stranger", Map.of("app", "stranger"), SETTLE);
        String neighbour = PodNetworkProbe.podWithAddress(api, release, "neighbour", Map.of("app", "neighbour"), SETTLE);
        String client = clientNamespace == null ? null : client(started, clientNamespace, "c");
        return new Dialers(started.run().attachNamespace("s", stranger + "/17"), strangers + "/stranger", stranger,
                started.run().attachNamespace("n", neighbour + "/17"), release + "/neighbour", client);
    }

    /** A client pod in {@code namespace} (created, kept if it exists), attached to the pod network: its network namespace. */
    private static String client(ChartRules.Started started, String namespace, String suffix) {
        KubeApi api = started.reconciled().api();
        PodNetworkProbe.namespace(api, namespace);
        return started.run().attachNamespace(suffix, PodNetworkProbe.podWithAddress(api, namespace, "client-" + started.reconciled().namespace(),
                Map.of("app", "client"), SETTLE) + "/17");
    }

    /**
     * The connections of one check, dialled side by side: each that must time out waits out the probe's whole connect
     * timeout, and one after another they kept the machine-wide group-start slot for that long. Independent: each
     * dial is a process of its own (several may leave one client's namespace). Their failures come back in the order
     * they were written, each naming who dialled whom and what happened.
     */
    private static final class Dials {
        private final List<java.util.concurrent.CompletableFuture<Optional<String>>> pending = new ArrayList<>();

        void expect(String what, String fromNetns, PodRun to, int port, Outcome expected) {
            expect(what, fromNetns, new Target(to.pod().name(), to.ip()), port, expected);
        }

        void expect(String what, String fromNetns, Target to, int port, Outcome expected) {
            pending.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                Outcome got = expected == CONNECTED ? PodNetworkProbe.connectExpecting(fromNetns, to.ip(), port, CONNECTED, SETTLE)
                        : PodNetworkProbe.connect(fromNetns, to.ip(), port);
                return got == expected ? Optional.<String>empty()
                        : Optional.of(String.format("%s (%s %s:%d): %s, expected %s", what, to.name(), to.ip(), port, got, expected));
            }, DIALLING));
        }

        /** Waits for every dial; the failures, a list the check may add to. */
        List<String> failures() {
            List<String> failures = new ArrayList<>();
            pending.forEach(p -> p.join().ifPresent(failures::add));
            return failures;
        }
    }

    /** Threads for the dials (daemons: a JVM's exit does not wait for them). */
    private static final java.util.concurrent.ExecutorService DIALLING = java.util.concurrent.Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "netpol-dial");
        t.setDaemon(true);
        return t;
    });

    /**
     * The enforcer judged the stranger's connections itself (its log names the stranger's pod as their source). Under
     * load its pod watch may learn the stranger after the first dial (the log then names no source pod): the stranger
     * dials {@code to}:{@code port} again, once a second, until the log names it or {@link #SETTLE} is spent.
     */
    private static void assertJudged(List<String> failures, ChartRules.Started started, Dialers d, Target to, int port) {
        boolean named = dev.nimchart.cluster.Poll.upTo(SETTLE).every(1000)
                .checking(() -> PodNetworkProbe.connect(d.stranger, to.ip(), port))
                .until(() -> enforcer(started).logText().contains("srcPod=\"" + d.strangerPod + "\""));
        if (!named) {
            failures.add("the enforcer's log names no connection from " + d.strangerPod + " (" + enforcer(started).log() + ")");
        }
        enforcer(started).requireAlive();
    }

    /** {@link #assertJudged}, then every probe of {@code what} found what it expected (connected or timed out). */
    private static void assertProbesAsExpected(List<String> failures, ChartRules.Started started, Dialers d, PodRun to, int port, String what) {
        assertProbesAsExpected(failures, started, d, new Target(to.pod().name(), to.ip()), port, what);
    }

    private static void assertProbesAsExpected(List<String> failures, ChartRules.Started started, Dialers d, Target to, int port, String what) {
        assertJudged(failures, started, d, to, port);
        assertThat(failures).as("%s; enforcer log %s", what, enforcer(started).log()).isEmpty();
    }

    private static NetworkPolicyEnforcer enforcer(ChartRules.Started started) {
        return started.run().onPodNetwork(NetworkPolicyEnforcer.class)
                .orElseThrow(() -> new AssertionError("no NetworkPolicy enforcer runs on the pod network"));
    }

    /**
     * Installs the example (with {@code more} values files) on the controller tier, starts its pods through the start-up
     * tier with the enforcer on their network, and runs {@code check} while they run, after nim-llm's own start-up rules.
     */
    private static void start(TierSessions tiers, String example, List<Path> more, boolean enforceAlways, Consumer<ChartRules.Started> check) {
        Path file = Examples.named(example);
        NimLlmRules nim = new NimLlmRules(f -> f.toAbsolutePath().normalize().equals(file.toAbsolutePath().normalize()));
        ChartRules rules = new StartedAlsoChecks(nim, started -> {
            try {
                check.accept(started);
            } finally {
                removeDialers(started);
            }
        });
        StartupChecks startup = (StartupChecks) RepositoryChart.check().withSessions(tiers).withRules(rules)
                .withReconcileTimeout(ReconciledExampleIT.RECONCILE_TIMEOUT).tierCheck(Tier.STARTUP);
        if (enforceAlways) {
            startup.enforcingNetworkPoliciesAlways();
        }
        startup.install(file, more);
    }

    private static void removeDialers(ChartRules.Started started) {
        KubeApi api = started.reconciled().api();
        String namespace = started.reconciled().namespace();
        api.delete("/api/v1/namespaces/" + namespace + "/pods/neighbour?gracePeriodSeconds=0");
        api.delete("/api/v1/namespaces/" + namespace + "-strangers");
        for (String clients : List.of("api-gateway", "envoy-gateway-system", "monitoring")) {
            api.delete("/api/v1/namespaces/" + clients + "/pods/client-" + namespace + "?gracePeriodSeconds=0");
        }
    }

    private static Path policiesOff() {
        return valuesFile("network-policy-off.yaml", "networkPolicy:\n  enabled: false\n");
    }

    /** A values file of this name and text under the report directory. */
    private static Path valuesFile(String name, String text) {
        try {
            Files.createDirectories(REPORT_DIR);
            Path file = REPORT_DIR.resolve(name).toAbsolutePath();
            Files.writeString(file, text);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The serving pods' runs (the groups' leaders), by name. */
    private static List<PodRun> leaders(ChartRules.Started started) {
        return started.servingPods().stream().map(p -> started.run().pod(p.name())).toList();
    }

    /** A pod of the same LeaderWorkerSet group as {@code leader} other than the leader. */
    private static PodRun workerOf(PodGroupRun run, PodRun leader) {
        String group = String.valueOf(leader.pod().labels().get("leaderworkerset.sigs.k8s.io/group-key"));
        return run.pods().stream().filter(p -> p != leader && group.equals(String.valueOf(p.pod().labels().get("leaderworkerset.sigs.k8s.io/group-key"))))
                .findFirst().orElseThrow(() -> new AssertionError("no worker in the group of " + leader.pod().name()));
    }

    /** The port the stand-in server of a pod listens on: its NIM_SERVER_PORT, else 8000 (as NIM). */
    private static int serverPort(PodRun pod) {
        String port = pod.env().get("NIM_SERVER_PORT");
        return port == null || port.isBlank() ? 8000 : Integer.parseInt(port);
    }

    /** The port a Ray head listens on: its {@code --port}. */
    private static int rayPort(KubeObject head) {
        List<String> command = ContainerCommand.of(PodGroupRun.nimContainer(head));
        int i = command.indexOf("--port");
        assertThat(i).as("the Ray head %s names its --port: %s", head.name(), command).isNotNegative();
        return Integer.parseInt(command.get(i + 1));
    }

    /** nim-llm's rules, with one more check on the running group after nim-llm's own start-up rules. */
    private record StartedAlsoChecks(NimLlmRules nim, Consumer<ChartRules.Started> also) implements ChartRules {
        @Override
        public boolean standardLabels() {
            return nim.standardLabels();
        }

        @Override
        public Optional<String> preflightTemplate() {
            return nim.preflightTemplate();
        }

        @Override
        public String releaseName(Path valuesFile) {
            return nim.releaseName(valuesFile);
        }

        @Override
        public String podSecurityLevel(Path valuesFile, Tier tier) {
            return nim.podSecurityLevel(valuesFile, tier);
        }

        @Override
        public boolean explainsWarning(Path valuesFile, String warning) {
            return nim.explainsWarning(valuesFile, warning);
        }

        @Override
        public int expectedPods(Path valuesFile, RenderedManifest rendered) {
            return nim.expectedPods(valuesFile, rendered);
        }

        @Override
        public boolean startsUp(Path valuesFile) {
            return nim.startsUp(valuesFile);
        }

        @Override
        public Optional<Duration> startupTimeout(Path valuesFile) {
            return nim.startupTimeout(valuesFile);
        }

        @Override
        public void started(Started release) {
            nim.started(release);
            also.accept(release);
        }
    }
}
