package dev.nimchart.tiers.startup;

import dev.nimchart.tiers.ChartRules;
import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.sessions.Timings;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.PodTemplate;
import dev.nimchart.startup.ContainerCommand;
import dev.nimchart.startup.PodGroupRun;
import dev.nimchart.startup.PodGroupRun.PodRun;
import dev.nimchart.startup.GroupLabels;
import dev.nimchart.startup.PodRestarts;
import dev.nimchart.startup.StartupHost;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import tools.jackson.databind.json.JsonMapper;

/**
 * How the start-up tier starts a reconciled release's pods on this machine, and what it holds of them as they start,
 * the same for every chart whose pods run the programs the tier stands in for (NIM's start-up contract: the stand-in
 * server, sshd and mpirun, {@code nim-serve-ray} with the real Ray):
 * <ul>
 *   <li><b>native and MPI</b> ({@link #held}): every pod but a Job's (an MPI launcher) starts with the stand-in holding its
 *   readiness. With a launcher, the other pods must be Ready first (sshd listens) and the serving pod (MPIJob worker 0,
 *   whose server the launcher starts) must not; then the launcher starts. Within the group's start time every rank
 *   joins and each serving pod's server listens, its readiness probe fails while the server answers 503, and passes once
 *   released to answer 200.</li>
 *   <li><b>Ray</b> ({@link #ray}): the workers start first, and each one's startup probe ({@code ray status}) fails with
 *   no head to join; then the heads. Within the group's start time every head is Ready; each worker's startup probe then
 *   passes (3 attempts, 1 s apart, as the kubelet allows a failure threshold); and Ray's GCS holds exactly each group's
 *   pod IPs, alive.</li>
 * </ul>
 * Both: the containers the tier runs no program for bind their declared ports in the pod's network namespace first, so
 * two binds of one port fail the start ({@code PodGroupRun}, {@code PodPorts}); and no in-cluster address a pod dials
 * goes through a proxy, as Python's requests and curl read the pod's environment ({@link PodGroupRun#proxiedInClusterAddresses}).
 * Then the chart's own rules ({@link ChartRules#started}) look at the running group; every failure of the tier's checks
 * and the rules' is reported together.
 */
final class GroupStart {

    /** The stand-in's switch that holds /v1/health/ready at 503 until the tier releases it. */
    static final String HOLD_READY = "STANDIN_HOLD_READY";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final String name;
    private final NamespaceState state;
    private final Path runDir;
    private final Path timings;
    private final Duration limit;
    /** The Ray installation the pods' {@code ray} and {@code nim-serve-ray} run (the settings' {@code rayDir}). */
    private final Path rayDir;

    /**
     * What runs on the pods' network before they start (a NetworkPolicy enforcer, {@link StartupChecks}, or nothing).
     */
    private final java.util.function.Function<String, AutoCloseable> onPodNetwork;
    private final java.util.function.Consumer<String> say;

    /** {@code say}: where the start's restarts are said as they happen (the tier's progress). */
    GroupStart(String name, NamespaceState state, Path runDir, Path timings, Duration limit, Path rayDir,
            java.util.function.Function<String, AutoCloseable> onPodNetwork, java.util.function.Consumer<String> say) {
        this.onPodNetwork = onPodNetwork;
        this.rayDir = rayDir;
        this.name = name;
        this.state = state;
        this.runDir = runDir;
        this.timings = timings;
        this.limit = limit;
        this.say = say;
    }

    /** Starts the group as its pods ask (Ray or not), checks how it started, then hands it to the chart's rules. */
    void run(ChartRules rules, ChartRules.Reconciled reconciled) {
        List<KubeObject> pods = podsToStart(state);
        if (pods.isEmpty()) {
            throw new AssertionError(name + ": no pod to start (every pod done, a hook, or an endpoint picker)");
        }
        if (pods.stream().anyMatch(GroupStart::rayHead)) {
            ray(pods, rules, reconciled);
        } else {
            held(pods, rules, reconciled);
        }
    }

    /**
     * The pods the tier starts: every live pod that has not completed and is no hook, the pods of Jobs only as an
     * MPIJob's launcher (a chart's own Job, such as a cache pre-fill, has done its work), and no Inference Gateway
     * endpoint picker (it routes to the model's pods and runs no model).
     */
    static List<KubeObject> podsToStart(NamespaceState state) {
        return state.servingPods().stream().filter(p -> !PodTemplate.ENDPOINT_PICKER.equals(p.label("app.kubernetes.io/component")))
                .sorted(Comparator.comparing(KubeObject::name)).toList();
    }

    private void held(List<KubeObject> pods, ChartRules rules, ChartRules.Reconciled reconciled) {
        List<KubeObject> jobPods = pods.stream().filter(GroupLabels::ownedByJob).toList();
        List<KubeObject> others = pods.stream().filter(p -> !GroupLabels.ownedByJob(p)).toList();
        List<KubeObject> serving = GroupLabels.serving(pods);
        List<String> servingNames = serving.stream().map(KubeObject::name).toList();
        PodRestarts restarts = new PodRestarts(state);
        long started = System.nanoTime();
        try (PodGroupRun run = PodGroupRun.start(state, others, runDir, Map.of(HOLD_READY, "1"), PodGroupRun.Server.STANDIN, rayDir,
                onPodNetwork)) {
            // The serving pods' runs, looked up afresh each time: a restart replaces a pod's run.
            Supplier<List<PodRun>> servers = () -> servingNames.stream().map(run::pod).toList();
            try {
                if (!jobPods.isEmpty()) {
                    // Before a Job's pods run (an MPI launcher dials every worker's sshd): the other pods are Ready, but a
                    // serving pod whose server the Job starts is not.
                    Supplier<List<PodRun>> rest = () -> run.pods().stream().filter(p -> !servingNames.contains(p.pod().name())).toList();
                    require(run.awaitRestarting(limit, () -> rest.get().stream().allMatch(run::readinessProbePasses), restarts),
                            "%s: pods %s Ready before the Job's pods start (their servers listen)%s; logs:%n%s", name,
                            rest.get().stream().map(p -> p.pod().name()).toList(), said(restarts), run.logs());
                    for (PodRun server : servers.get()) {
                        require(!run.readinessProbePasses(server), "%s: %s Ready before the Job's pods started its server", name,
                                server.pod().name());
                    }
                    jobPods.forEach(run::add);
                }
                boolean joined = run.awaitRestarting(limit, () -> groupsJoined(run.records(), servingNames.size())
                        && servers.get().stream().allMatch(s -> run.httpStatus(s, serverPort(s), "/v1/health/live") == 200), restarts);
                Timings.record(timings, "group joined (every rank started, server listening): " + name, Duration.ofNanos(System.nanoTime() - started));
                require(joined, "%s: every rank of the %s groups started and the serving pods %s listen within %s%s; logs:%n%s", name,
                        servingNames.size(), servingNames, limit, said(restarts), run.logs());
                for (PodRun server : servers.get()) {
                    require(run.httpStatus(server, serverPort(server), "/v1/health/ready") == 503, "%s: the stand-in on %s is held not ready",
                            name, server.pod().name());
                    require(!run.readinessProbePasses(server), "%s: the readiness probe of %s while its server answers 503 (the Service must"
                            + " not send it requests yet); logs:%n%s", name, server.pod().name(), run.logs());
                }
                run.releaseReadiness();
                boolean up = run.await(Duration.ofSeconds(30), () -> servers.get().stream()
                        .allMatch(s -> run.readinessProbePasses(s) && run.httpStatus(s, serverPort(s), "/v1/health/ready") == 200));
                require(up, "%s: the serving pods %s are Ready once their server answers; logs:%n%s", name, servingNames, run.logs());
                require(run.pods().stream().allMatch(p -> p.process().isAlive()), "%s: every process keeps running; logs:%n%s", name, run.logs());
            } finally {
                recordRestarts(restarts);
            }
            handOver(rules, new ChartRules.Started(reconciled, run, serving, Map.of()), new ArrayList<>(run.proxiedInClusterAddresses()));
        }
    }

    /** The restarts of this start, after "; " (empty when none). */
    private static String said(PodRestarts restarts) {
        return restarts.said().isEmpty() ? "" : "; restarts: " + String.join("; ", restarts.said());
    }

    /** Every restart of this start, in the timings file (a green start that needed one shows it) and in the tier's progress. */
    private void recordRestarts(PodRestarts restarts) {
        for (String line : restarts.said()) {
            Timings.record(timings, "restart during the start of " + name + ": " + line, Duration.ofNanos(0));
            say.accept(name + ": " + line);
        }
    }

    /** Whether every group of ranks the stand-in recorded is complete (as many records as its size), and there are as many groups. */
    private static boolean groupsJoined(List<Map<String, Object>> records, int groups) {
        Map<Object, List<Map<String, Object>>> byGroup = records.stream().collect(Collectors.groupingBy(r -> r.get("group")));
        return byGroup.size() == groups && byGroup.values().stream()
                .allMatch(g -> g.size() >= ((Number) g.get(0).get("size")).intValue());
    }

    private void ray(List<KubeObject> pods, ChartRules rules, ChartRules.Reconciled reconciled) {
        List<KubeObject> heads = pods.stream().filter(GroupStart::rayHead).toList();
        List<KubeObject> workers = pods.stream().filter(p -> !heads.contains(p)).toList();
        List<String> headNames = heads.stream().map(KubeObject::name).toList();
        PodRestarts restarts = new PodRestarts(state);
        long started = System.nanoTime();
        try (PodGroupRun run = PodGroupRun.start(state, workers, runDir, Map.of(), PodGroupRun.Server.STANDIN, rayDir, onPodNetwork)) {
            // Workers first: no head to join yet, so `ray status` in each worker fails, as the kubelet runs it.
            for (PodRun w : run.pods()) {
                require(!run.probePasses(w, "startupProbe"), "%s: the startup probe of %s before its head runs; log:%n%s", name,
                        w.pod().name(), w.logText());
            }
            heads.forEach(run::add);
            // The heads' runs, looked up afresh each time: a restart replaces a pod's run.
            Supplier<List<PodRun>> headRuns = () -> headNames.stream().map(run::pod).toList();
            boolean formed;
            try {
                formed = run.awaitRestarting(limit, () -> headRuns.get().stream().allMatch(run::readinessProbePasses), restarts);
            } finally {
                recordRestarts(restarts);
            }
            Timings.record(timings, "Ray group ready (head up, every worker joined, serving pod Ready): " + name,
                    Duration.ofNanos(System.nanoTime() - started));
            require(formed, "%s: the leaders %s Ready within %s%s; logs:%n%s", name, headNames, limit, said(restarts), run.logs());
            List<String> failures = new ArrayList<>(run.proxiedInClusterAddresses());
            for (PodRun w : run.pods().stream().filter(p -> workers.contains(p.pod())).toList()) {
                // As the kubelet: one slow `ray status` (a CI run on a loaded machine) is a failed attempt, not a failed probe.
                if (!run.startupProbeSucceeds(w)) {
                    failures.add(String.format("%s: the startup probe of %s once it joined (its failureThreshold attempts, periodSeconds"
                            + " apart); log:%n%s", name, w.pod().name(), w.logText()));
                }
            }
            Map<String, List<Map<String, Object>>> nodesByGroup = new TreeMap<>();
            for (PodRun head : headRuns.get()) {
                String group = GroupLabels.groupKey(head.pod());
                List<KubeObject> groupPods = pods.stream().filter(p -> GroupLabels.groupKey(p).equals(group)).toList();
                List<Map<String, Object>> nodes = rayNodes(run, head, rayPort(head.pod()), rayDir);
                nodesByGroup.put(group, nodes);
                Set<String> podIps = groupPods.stream().map(p -> String.valueOf(p.at("status.podIP"))).collect(Collectors.toCollection(TreeSet::new));
                Set<String> aliveIps = nodes.stream().filter(n -> Boolean.TRUE.equals(n.get("alive"))).map(n -> String.valueOf(n.get("ip")))
                        .collect(Collectors.toCollection(TreeSet::new));
                if (!aliveIps.equals(podIps)) {
                    failures.add(String.format("%s: the alive nodes Ray reports for group %s: %s, not the group's pod IPs %s", name, group,
                            aliveIps, podIps));
                }
                // One alive node per pod; a dead one only for a container the kubelet restarted (Ray keeps the node it
                // lost in its table, and the restarted container joins as a new node).
                long alive = nodes.stream().filter(n -> Boolean.TRUE.equals(n.get("alive"))).count();
                if (alive != podIps.size() || restarts.said().isEmpty() && nodes.size() != podIps.size()) {
                    failures.add(String.format("%s: Ray's nodes of group %s: %d, %d alive, not one per pod (%d): %s", name, group, nodes.size(),
                            alive, podIps.size(), nodes));
                }
            }
            handOver(rules, new ChartRules.Started(reconciled, run, heads, nodesByGroup), failures);
        }
    }

    /** The chart's rules on the running group; their failures reported with the tier's own. */
    private static void handOver(ChartRules rules, ChartRules.Started started, List<String> failures) {
        try {
            rules.started(started);
        } catch (AssertionError e) {
            failures.add(e.getMessage());
        }
        if (!failures.isEmpty()) {
            throw new AssertionError(failures.size() == 1 ? failures.get(0)
                    : failures.size() + " failures:\n" + String.join("\n", failures));
        }
    }

    /** Whether a pod's serving container starts a Ray head (the stand-in's {@code nim-serve-ray --head}). */
    static boolean rayHead(KubeObject pod) {
        List<String> command = ContainerCommand.of(PodGroupRun.nimContainer(pod));
        return command.stream().anyMatch(w -> w.endsWith("nim-serve-ray")) && command.contains("--head") && !command.contains("--head-address");
    }

    /** The port a Ray head listens on: its {@code --port}. */
    private static int rayPort(KubeObject head) {
        List<String> command = ContainerCommand.of(PodGroupRun.nimContainer(head));
        int i = command.indexOf("--port");
        if (i < 0 || i + 1 >= command.size()) {
            throw new AssertionError("the Ray head " + head.name() + " names no --port: " + command);
        }
        return Integer.parseInt(command.get(i + 1));
    }

    /** The port the stand-in server of a pod listens on: its NIM_SERVER_PORT, else 8000 (as NIM). */
    private static int serverPort(PodRun pod) {
        String port = pod.env().get("NIM_SERVER_PORT");
        return port == null || port.isBlank() ? 8000 : Integer.parseInt(port);
    }

    /** The nodes of the Ray cluster whose head listens on the pod's IP and port, as Ray's GCS reports them. */
    static List<Map<String, Object>> rayNodes(PodGroupRun run, PodRun head, int port, Path rayDir) {
        String script = "import json, sys\n"
                + "from ray._private.internal_api import get_state_from_address\n"
                + "nodes = get_state_from_address(sys.argv[1]).node_table()\n"
                + "print(json.dumps([{'ip': n['NodeManagerAddress'], 'alive': n['Alive'], 'gpus': int(n['Resources'].get('GPU', 0))} for n in nodes]))\n";
        StartupHost.Result result = run.inNetwork(head, List.of("timeout", "60", rayDir.resolve("bin/python3").toString(), "-c", script,
                head.ip() + ":" + port), 90);
        require(result.exit() == 0, "asking Ray for its nodes: %s", result.output());
        String json = result.output().lines().filter(l -> l.startsWith("[")).reduce((a, b) -> b).orElse("[]");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> nodes = JSON.readValue(json, List.class);
        return nodes;
    }


    private static void require(boolean holds, String format, Object... args) {
        if (!holds) {
            throw new AssertionError(String.format(format, args));
        }
    }
}
