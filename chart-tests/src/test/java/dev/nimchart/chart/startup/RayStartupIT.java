package dev.nimchart.chart.startup;

import dev.nimchart.settings.SettingsFromProperties;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.controllers.ReconciledExampleIT;
import dev.nimchart.chart.repository.Example;
import dev.nimchart.chart.repository.Examples;
import dev.nimchart.chart.repository.Reconciled;
import dev.nimchart.chart.startup.StartupIT.Installed;
import dev.nimchart.junit.ControllerTier.ControllerSession;
import dev.nimchart.junit.ControllerTier;
import dev.nimchart.junit.Timings;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.startup.KubeletStartupProbe;
import dev.nimchart.startup.PodGroupRun.PodRun;
import dev.nimchart.startup.PodGroupRun;
import dev.nimchart.startup.StartupHost;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * The start-up tier for groups that form a Ray cluster (NIM 2.x and 3.x): the pods the controllers reconciled run on
 * this machine as in {@link StartupIT} (own network namespace and pod IP, /etc/hosts from the headless Services, uid
 * 1000, the kubelet's environment), and the stand-in for the image's {@code nim-serve-ray} runs the real Ray
 * ({@code ci/install-ray.sh}, pinned): the leader a Ray head on the chart's port, each worker a Ray worker joining the
 * address the chart gave it. What Ray itself reports about the cluster is the evidence.
 */
@ExtendWith(ControllerTier.class)
class RayStartupIT {

    static final Path REPORT_DIR = StartupIT.REPORT_DIR.resolve("ray");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.nimchart.chart.repository.Examples#multiNodeWithRay")
    void everyGroupFormsOneRayClusterOfExactlyItsPodsAndTheLeaderIsReadyOnlyThen(Path file, ControllerSession session) throws Exception {
        StartupIT.requireStartupHost();
        Example e = Example.of(file);
        Installed in = StartupIT.install(session, e, file, Map.of());
        try {
            Reconciled r = in.reconciled();
            int port = e.integer("multiNode.ray.port");
            int gpusPerNode = e.integer("multiNode.gpusPerNode");
            Duration limit = Duration.ofSeconds(e.integer("multiNode.clusterStartTimeout"));
            List<KubeObject> leaders = r.servingPods();
            List<KubeObject> workers = r.gpuPods().stream().filter(p -> !leaders.contains(p)).toList();
            long started = System.nanoTime();
            try (PodGroupRun run = PodGroupRun.start(r.state(), workers, REPORT_DIR.resolve(e.name()).toAbsolutePath(), Map.of(), SettingsFromProperties.shared().rayDir())) {
                // Workers first: no head to join yet, so `ray status` in each worker fails, as the kubelet runs it.
                for (PodRun w : run.pods()) {
                    assertThat(run.probePasses(w, "startupProbe")).as("%s: the startup probe of %s before its head runs; log:%n%s", e.name(),
                            w.pod().name(), w.logText()).isFalse();
                }
                List<PodRun> heads = leaders.stream().map(run::add).toList();
                boolean formed = StartupIT.await(limit, run, () -> heads.stream().allMatch(run::readinessProbePasses));
                Timings.record(StartupIT.REPORT_DIR, "Ray group ready (head up, every worker joined, serving pod Ready): " + e.name(),
                        Duration.ofNanos(System.nanoTime() - started));
                assertThat(formed).as("%s: the leaders %s Ready within clusterStartTimeout %s; logs:%n%s", e.name(),
                        Reconciled.names(leaders), limit, StartupIT.logs(run)).isTrue();
                SoftAssertions soft = new SoftAssertions();
                for (PodRun w : run.pods().stream().filter(p -> workers.contains(p.pod())).toList()) {
                    // As the kubelet: a startup probe succeeds once it passes within its failure threshold; one slow
                    // `ray status` (a CI run on a loaded machine) is a failed attempt, not a failed probe.
                    soft.assertThat(passesWithinAttempts(run, w, 3)).as("%s: the startup probe of %s once it joined (3 attempts, 1 s apart); log:%n%s",
                            e.name(), w.pod().name(), w.logText()).isTrue();
                }
                for (Map.Entry<String, List<KubeObject>> group : r.groups().entrySet()) {
                    PodRun head = run.pods().stream().filter(p -> group.getValue().contains(p.pod()) && leaders.contains(p.pod())).findFirst()
                            .orElseThrow();
                    List<Map<String, Object>> nodes = rayNodes(run, head, port);
                    Set<String> podIps = group.getValue().stream().map(p -> String.valueOf(p.at("status.podIP"))).collect(Collectors.toCollection(TreeSet::new));
                    Set<String> aliveIps = nodes.stream().filter(n -> Boolean.TRUE.equals(n.get("alive"))).map(n -> String.valueOf(n.get("ip")))
                            .collect(Collectors.toCollection(TreeSet::new));
                    soft.assertThat(aliveIps).as("%s: the alive nodes Ray reports for group %s", e.name(), group.getKey())
                            .isEqualTo(podIps);
                    soft.assertThat(nodes).as("%s: Ray's nodes of group %s, each with its pod's GPUs", e.name(), group.getKey())
                            .hasSize(podIps.size()).allSatisfy(n -> assertThat(((Number) n.get("gpus")).intValue()).isEqualTo(gpusPerNode));
                    soft.assertThat(nodes.stream().mapToInt(n -> ((Number) n.get("gpus")).intValue()).sum()).as("%s: GPUs of the Ray cluster",
                            e.name()).isEqualTo(e.integer("multiNode.workers") * gpusPerNode);
                }
                everyPodRanItsRayRoleWithItsOwnEnvironment(soft, e, r, run, port);
                soft.assertAll();
            }
        } finally {
            in.remove(session);
        }
    }

    /**
     * A group whose worker never comes: the leader's Ray head runs and its server answers, but it never becomes Ready,
     * and its startup probe ends it (the kubelet restarts it, the LeaderWorkerSet recreates the group) within the budget
     * the chart set; a worker whose head never comes is ended by its own startup probe within clusterStartTimeout.
     */
    @Test
    void aGroupMissingAPodNeverBecomesReadyAndItsProbesEndItWithinTheChartsBudget(ControllerSession session) throws Exception {
        StartupIT.requireStartupHost();
        Path file = Examples.multiNodeWithRay().findFirst().orElseThrow();
        Example e = Example.of(file);
        Installed in = StartupIT.install(session, e, file, Map.of("multiNode.clusterStartTimeout", "6", "startupProbe.initialDelaySeconds", "0",
                "startupProbe.periodSeconds", "2", "startupProbe.failureThreshold", "4", "multiNode.ray.workerStartupProbe.periodSeconds", "2"));
        try {
            Reconciled r = in.reconciled();
            KubeObject leader = r.servingPods().get(0);
            KubeObject worker = r.gpuPods().stream().filter(p -> p != leader).findFirst().orElseThrow();
            try (PodGroupRun run = PodGroupRun.start(r.state(), List.of(leader), REPORT_DIR.resolve(e.name() + "-alone").toAbsolutePath(), Map.of(), SettingsFromProperties.shared().rayDir())) {
                PodRun head = run.pods().get(0);
                KubeletStartupProbe.Outcome outcome = KubeletStartupProbe.run(run, head);
                KubeObject nim = PodGroupRun.nimContainer(leader);
                assertThat(outcome.started()).as("%s: the leader without its workers is never started; log:%n%s", e.name(), head.logText()).isFalse();
                assertThat(outcome.runs()).as("%s: probe runs until the restart", e.name()).isEqualTo(4);
                assertThat(outcome.elapsed()).as("%s: ended within the budget the chart set (%s)", e.name(), KubeletStartupProbe.budget(nim))
                        .isLessThanOrEqualTo(KubeletStartupProbe.budget(nim).plusSeconds(10));
                assertThat(head.logText()).as("%s: the head itself ran", e.name()).contains("starting the Ray head");
            }
            try (PodGroupRun run = PodGroupRun.start(r.state(), List.of(worker), REPORT_DIR.resolve(e.name() + "-orphan").toAbsolutePath(), Map.of(), SettingsFromProperties.shared().rayDir())) {
                PodRun orphan = run.pods().get(0);
                KubeletStartupProbe.Outcome outcome = KubeletStartupProbe.run(run, orphan);
                KubeObject nim = PodGroupRun.nimContainer(worker);
                assertThat(outcome.started()).as("%s: a worker whose head never comes is never started; log:%n%s", e.name(), orphan.logText()).isFalse();
                assertThat(KubeletStartupProbe.budget(nim)).as("%s: the worker's budget is clusterStartTimeout (6 s) rounded up to a period", e.name())
                        .isEqualTo(Duration.ofSeconds(6));
                assertThat(outcome.elapsed()).as("%s: ended within its budget", e.name()).isLessThanOrEqualTo(Duration.ofSeconds(6 + 10));
            }
        } finally {
            in.remove(session);
        }
    }

    private static void everyPodRanItsRayRoleWithItsOwnEnvironment(SoftAssertions soft, Example e, Reconciled r, PodGroupRun run, int port) {
        List<Map<String, Object>> records = run.records();
        soft.assertThat(records).as("%s: one record per pod", e.name()).hasSize(r.gpuPods().size());
        String libraryPath = e.libraryPathPrefix();
        for (Map<String, Object> rec : records) {
            PodRun own = run.pods().stream().filter(p -> p.ip().equals(rec.get("ip"))).findFirst().orElse(null);
            soft.assertThat(own).as("%s: the pod of the record from %s", e.name(), rec.get("ip")).isNotNull();
            if (own == null) {
                continue;
            }
            String where = e.name() + ": " + own.pod().name();
            @SuppressWarnings("unchecked")
            Map<String, String> env = (Map<String, String>) rec.get("env");
            boolean leader = r.servingPods().contains(own.pod());
            List<String> args = new ArrayList<>();
            ((List<?>) ReconciledExampleIT.nimContainer(own.pod()).at("args")).forEach(a -> args.add(String.valueOf(a)));
            soft.assertThat(rec.get("argv")).as("%s: nim-serve-ray ran with the Ray role of its pod", where)
                    .isEqualTo(leader ? List.of("nim-serve-ray", "--head", "--port", Integer.toString(port))
                            : List.of("nim-serve-ray", "--head-address", env.get("LWS_LEADER_ADDRESS") + ":" + port));
            soft.assertThat(env.get("NIM_LEADER_ROLE")).as(where).isEqualTo(leader ? "1" : "0");
            soft.assertThat(env.get("NIM_NODE_RANK")).as(where).isEqualTo(Reconciled.label(own.pod(), Reconciled.LWS_WORKER_INDEX));
            soft.assertThat(env.get("NIM_JSONL_LOGGING")).as("%s: JSON logging off", where).isEqualTo("0");
            if (e.flag("airGap.enabled")) {
                soft.assertThat(env.keySet()).as("%s: air-gap mode, no credential in the serving process (docs/model-sources.md)", where)
                        .doesNotContain("NGC_API_KEY", "NGC_CLI_API_KEY", "HF_TOKEN", "MODELSCOPE_API_TOKEN");
            }
            soft.assertThat(env.get("NVIDIA_VISIBLE_DEVICES")).as("%s: the GPUs of its own pod", where).startsWith("GPU-" + own.pod().name() + "-");
            soft.assertThat(env.get("LD_LIBRARY_PATH")).as("%s: LD_LIBRARY_PATH", where).isEqualTo(
                    libraryPath.isEmpty() ? PodGroupRun.IMAGE_LD_LIBRARY_PATH : libraryPath + ":" + PodGroupRun.IMAGE_LD_LIBRARY_PATH);
            // vLLM compiles on every node of the Ray cluster: each pod wrote the engine caches in its own home.
            soft.assertThat(env.get("HOME")).as("%s: HOME", where).isEqualTo(e.text("home.path"));
            soft.assertThat((List<?>) rec.get("caches")).as("%s: the engine caches, in the home %s", where, e.text("home.path"))
                    .isNotEmpty().allMatch(path -> path.toString().startsWith(e.text("home.path") + "/"));
            if (!leader) {
                soft.assertThat(rec.get("leaderReached")).as("%s: reached its head at %s", where, env.get("LWS_LEADER_ADDRESS")).isEqualTo(true);
            }
        }
    }

    /** The nodes of the Ray cluster whose head listens on the pod's IP and port, as Ray's GCS reports them. */
    static List<Map<String, Object>> rayNodes(PodGroupRun run, PodRun head, int port) {
        String script = "import json, sys\n"
                + "from ray._private.internal_api import get_state_from_address\n"
                + "nodes = get_state_from_address(sys.argv[1]).node_table()\n"
                + "print(json.dumps([{'ip': n['NodeManagerAddress'], 'alive': n['Alive'], 'gpus': int(n['Resources'].get('GPU', 0))} for n in nodes]))\n";
        StartupHost.Result result = run.inNetwork(head, List.of("timeout", "60", SettingsFromProperties.shared().rayDir().resolve("bin/python3").toString(), "-c", script,
                head.ip() + ":" + port), 90);
        assertThat(result.exit()).as("asking Ray for its nodes: %s", result.output()).isZero();
        String json = result.output().lines().filter(l -> l.startsWith("[")).reduce((a, b) -> b).orElse("[]");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> nodes = JSON.readValue(json, List.class);
        return nodes;
    }

    private static boolean passesWithinAttempts(PodGroupRun run, PodRun pod, int attempts) {
        for (int i = 0; i < attempts; i++) {
            if (run.probePasses(pod, "startupProbe")) {
                return true;
            }
            dev.nimchart.cluster.LocalProcess.sleep(1000);
        }
        return false;
    }
}
