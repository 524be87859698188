package dev.nimchart.chart.startup;

import dev.nimchart.settings.SettingsFromProperties;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.controllers.ReconciledExampleIT;
import dev.nimchart.chart.repository.ChartReleases;
import dev.nimchart.chart.repository.ChartScripts;
import dev.nimchart.chart.repository.Example;
import dev.nimchart.chart.repository.Examples;
import dev.nimchart.chart.repository.PodSecurityExceptions;
import dev.nimchart.chart.repository.Reconciled;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.controllers.InstalledRelease;
import dev.nimchart.controllers.DesiredState;
import dev.nimchart.controllers.ObjectDns;
import dev.nimchart.junit.ControllerTier.ControllerSession;
import dev.nimchart.junit.ControllerTier;
import dev.nimchart.junit.TierNamespaces;
import dev.nimchart.junit.Timings;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.startup.PodGroupRun.PodRun;
import dev.nimchart.startup.PodGroupRun;
import dev.nimchart.startup.StartupHost;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The start-up tier: for every multi-node example, the pods the controllers reconciled are started on this machine,
 * each pod's main process in its own network namespace with its pod IP, the DNS names the headless Services publish,
 * its mounted ConfigMap scripts and Secret files, and the environment the kubelet gives it; with real sshd and
 * mpirun, and a stand-in for NIM's server that records how each rank was started. Needs root and ip netns: with
 * CI=true it runs or fails; otherwise it is skipped with the reason.
 */
@ExtendWith(ControllerTier.class)
public class StartupIT {

    public static final Path REPORT_DIR = Path.of("target", "startup-tier");
    /** Variables a rank must see with its own pod's value (device, network, NIM multi-node settings, and its home). */
    static final String POD_OWN = "^(NIM_.*|NCCL_.*|FI_.*|UCX_.*|CUDA_.*|MASTER_PORT|NVIDIA_VISIBLE_DEVICES|HOME)$";
    /** The stand-in's switch that holds /v1/health/ready at 503 until the test releases it. */
    static final String HOLD_READY = "STANDIN_HOLD_READY";

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.nimchart.chart.repository.Examples#multiNodeWithoutRay")
    void everyRankStartsWithItsOwnPodsRankRoleAndNetworkAndTheServingPodIsReadyOnlyOnceItsServerIs(Path file, ControllerSession session)
            throws Exception {
        requireStartupHost();
        Example e = Example.of(file);
        Installed in = install(session, e, file, Map.of());
        try {
            Reconciled r = in.reconciled;
            boolean mpi = ChartScripts.usesMpi(r.servingPods().get(0)) || e.mode().equals("mpijob");
            int expectedRanks = r.groups().size() * (mpi ? e.integer("multiNode.workers") * e.integer("multiNode.gpusPerNode") : e.integer("multiNode.workers"));
            long started = System.nanoTime();
            // The stand-in holds its readiness until released: every rank runs and the server listens, but is not ready.
            try (PodGroupRun run = PodGroupRun.start(r.state(), r.gpuPods(), REPORT_DIR.resolve(e.name()).toAbsolutePath(), Map.of(HOLD_READY, "1"), SettingsFromProperties.shared().rayDir())) {
                List<PodRun> servers = r.servingPods().stream().map(p -> run.pod(p.name())).toList();
                String serving = Reconciled.names(r.servingPods()).toString();
                int port = e.integer("model.openaiPort");
                Duration limit = Duration.ofSeconds(e.integer("multiNode.clusterStartTimeout"));
                if (!r.launchers().isEmpty()) {
                    // MPIJob, before its launcher runs: every worker's sshd listens, so the other workers are Ready
                    // (the operator publishes their names), but worker 0, whose server has not started, is not.
                    List<PodRun> others = run.pods().stream().filter(p -> !servers.contains(p)).toList();
                    boolean sshdUp = await(limit, run, () -> others.stream().allMatch(run::readinessProbePasses));
                    assertThat(sshdUp).as("%s: workers %s Ready on sshd; logs:%n%s", e.name(), others.stream().map(p -> p.pod().name()).toList(),
                            logs(run)).isTrue();
                    for (PodRun server : servers) {
                        assertThat(run.readinessProbePasses(server)).as("%s: %s before the launcher started its server (sshd listens)", e.name(),
                                server.pod().name()).isFalse();
                    }
                    r.launchers().forEach(run::add);
                }
                boolean joined = await(limit, run, () -> run.records().size() >= expectedRanks
                        && servers.stream().allMatch(server -> run.httpStatus(server, port, "/v1/health/live") == 200));
                Timings.record(REPORT_DIR, "group joined (every rank started, server listening): " + e.name(),
                        Duration.ofNanos(System.nanoTime() - started));
                assertThat(joined).as("%s: every rank of %s started and the serving pods %s listen within clusterStartTimeout %s; logs:%n%s",
                        e.name(), expectedRanks, serving, limit, logs(run)).isTrue();
                for (PodRun server : servers) {
                    assertThat(run.httpStatus(server, port, "/v1/health/ready")).as("%s: the stand-in on %s is held not ready", e.name(),
                            server.pod().name()).isEqualTo(503);
                    assertThat(run.readinessProbePasses(server)).as("%s: the readiness probe of %s while its server answers 503 (the"
                            + " Service must not send it requests yet); logs:%n%s", e.name(), server.pod().name(), logs(run)).isFalse();
                }
                run.releaseReadiness();
                boolean up = await(Duration.ofSeconds(30), run, () -> servers.stream()
                        .allMatch(server -> run.readinessProbePasses(server) && run.httpStatus(server, port, "/v1/health/ready") == 200));
                assertThat(up).as("%s: the serving pods %s are Ready once their server answers; logs:%n%s", e.name(), serving, logs(run))
                        .isTrue();

                List<Map<String, Object>> records = run.records();
                assertThat(records).as("%s: ranks recorded; logs:%n%s", e.name(), logs(run)).hasSize(expectedRanks);
                assertThat(records.stream().map(rec -> rec.get("group")).distinct().count()).as("%s: groups the ranks joined", e.name())
                        .isEqualTo(r.groups().size());
                SoftAssertions soft = new SoftAssertions();
                ranksRanTheContractCommandWithTheirOwnPodsEnvironment(soft, e, r, run, records, mpi);
                ranksWroteOnlyWhereThePodLetsThem(soft, e, records);
                soft.assertAll();
            }
        } finally {
            in.remove(session);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"multi-node-llama-3.1-405b-lws.yaml", "multi-node-llama-3.1-405b-mpijob.yaml"})
    void theStarterGivesUpWithAClearLineWhenAWorkerNeverComes(String name, ControllerSession session) throws Exception {
        requireStartupHost();
        Path file = Examples.named(name);
        Example e = Example.of(file);
        int timeout = 6;
        Installed in = install(session, e, file, Map.of("multiNode.clusterStartTimeout", Integer.toString(timeout)));
        try {
            Reconciled r = in.reconciled;
            // Only the pod that runs mpirun: the LWS leader, or the MPIJob launcher; its workers never start.
            KubeObject starter = e.mode().equals("mpijob") ? r.launchers().get(0) : r.servingPods().get(0);
            try (PodGroupRun run = PodGroupRun.start(r.state(), List.of(starter), REPORT_DIR.resolve(e.name() + "-alone").toAbsolutePath(), Map.of(), SettingsFromProperties.shared().rayDir())) {
                PodRun alone = run.pods().get(0);
                long t0 = System.nanoTime();
                boolean ended = alone.process().waitFor(timeout + 30, TimeUnit.SECONDS);
                long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0);
                assertThat(ended).as("%s: %s ended within clusterStartTimeout + 30 s; log:%n%s", name, starter.name(), alone.logText()).isTrue();
                assertThat(alone.process().exitValue()).as("%s: exit code; log:%n%s", name, alone.logText()).isNotZero();
                assertThat(alone.logText()).as(name).contains("did not accept SSH on port " + e.integer("multiNode.sshPort"))
                        .contains("within CLUSTER_START_TIMEOUT=" + timeout + "s; giving up");
                assertThat(seconds).as("%s: it waited the timeout first", name).isGreaterThanOrEqualTo(timeout - 1);
                assertThat(run.records()).as("%s: no rank started", name).isEmpty();
            }
        } finally {
            in.remove(session);
        }
    }

    /**
     * Every rank started on a read-only root filesystem when its pod asks for one (the image's files and /etc refused
     * its writes), could write to /tmp, the pod's emptyDir, and wrote the GPU engines' caches in the pod's home.
     */
    private static void ranksWroteOnlyWhereThePodLetsThem(SoftAssertions soft, Example e, List<Map<String, Object>> records) {
        boolean readOnlyRoot = e.gpuTemplates().stream()
                .allMatch(t -> Boolean.TRUE.equals(t.nim().at("securityContext.readOnlyRootFilesystem")));
        for (Map<String, Object> rec : records) {
            Map<?, ?> writable = (Map<?, ?>) rec.get("writable");
            String rank = e.name() + ": rank " + rec.get("rank") + " on " + rec.get("hostname");
            soft.assertThat(writable.get("/tmp")).as("%s writes to /tmp", rank).isEqualTo(true);
            soft.assertThat(writable.get("/opt/nim")).as("%s writes to the image's files", rank).isEqualTo(!readOnlyRoot);
            soft.assertThat(writable.get("/etc")).as("%s writes to /etc", rank).isEqualTo(!readOnlyRoot);
            // The engine caches (Triton, vLLM, Inductor, FlashInfer, CUDA): written, where the engines write by default
            // given the rank's own environment, inside the pod's writable home (the stand-in exits when it cannot write).
            List<?> caches = (List<?>) rec.get("caches");
            soft.assertThat(caches).as("%s wrote the engine caches", rank).isNotEmpty();
            soft.assertThat(caches).as("%s wrote the engine caches in the home %s", rank, e.text("home.path"))
                    .allMatch(path -> path.toString().startsWith(e.text("home.path") + "/"));
        }
    }

    private static void ranksRanTheContractCommandWithTheirOwnPodsEnvironment(SoftAssertions soft, Example e, Reconciled r, PodGroupRun run,
            List<Map<String, Object>> records, boolean mpi) {
        ObjectDns dns = new ObjectDns(r.state());
        KubeObject starter = e.mode().equals("mpijob") ? r.launchers().get(0) : r.servingPods().get(0);
        List<String> starterArgs = withoutLibraryPath(PodGroupRun.containerCommand(ReconciledExampleIT.nimContainer(starter)));
        String libraryPath = e.libraryPathPrefix();
        Map<String, Long> ranksPerHost = records.stream().collect(Collectors.groupingBy(rec -> rec.get("hostname").toString(), Collectors.counting()));
        for (Map<String, Object> rec : records) {
            String host = rec.get("hostname").toString();
            Optional<PodRun> own = run.pods().stream().filter(p -> hostname(p.pod()).equals(host)).findFirst();
            soft.assertThat(own).as("%s: the pod of rank %s on host %s", e.name(), rec.get("rank"), host).isPresent();
            if (own.isEmpty()) {
                continue;
            }
            KubeObject pod = own.get().pod();
            String where = e.name() + ": rank " + rec.get("rank") + " on " + pod.name();
            @SuppressWarnings("unchecked")
            Map<String, String> env = (Map<String, String>) rec.get("env");
            @SuppressWarnings("unchecked")
            List<String> argv = (List<String>) rec.get("argv");
            if (mpi) {
                // mpirun's rank command: the args after leader.sh / launcher.sh.
                soft.assertThat(argv).as("%s: the command mpirun ran", where).isEqualTo(starterArgs.subList(2, starterArgs.size()));
                soft.assertThat(ranksPerHost.get(host)).as("%s: ranks on this pod (gpusPerNode)", where).isEqualTo((long) e.integer("multiNode.gpusPerNode"));
            } else {
                // The command of its own pod, as the last program it execs runs it (the image's entrypoint and
                // library-path.sh exec what follows them).
                List<String> podCommand = withoutLibraryPath(PodGroupRun.containerCommand(ReconciledExampleIT.nimContainer(pod)));
                soft.assertThat(argv).as("%s: the command of its own pod", where)
                        .isEqualTo(podCommand.get(0).equals(PodGroupRun.IMAGE_ENTRYPOINT.get(0)) ? podCommand.subList(1, podCommand.size()) : podCommand);
                if (!Boolean.TRUE.equals(rec.get("serving"))) {
                    soft.assertThat(rec.get("leaderReached")).as("%s: reached its leader at NIM_LEADER_IP_ADDRESS=%s", where,
                            env.get("NIM_LEADER_IP_ADDRESS")).isEqualTo(true);
                }
            }
            String index = Reconciled.label(pod, e.mode().equals("mpijob") ? Reconciled.MPI_INDEX : Reconciled.LWS_WORKER_INDEX);
            soft.assertThat(env.get("NIM_NODE_RANK")).as("%s: NIM_NODE_RANK", where).isEqualTo(index);
            if (e.mode().equals("leaderworkerset")) {
                soft.assertThat(env.get("NIM_LEADER_ROLE")).as("%s: NIM_LEADER_ROLE", where).isEqualTo("0".equals(index) ? "1" : "0");
                KubeObject leader = r.groups().get(Reconciled.groupKey(pod)).stream()
                        .filter(p -> "0".equals(Reconciled.label(p, Reconciled.LWS_WORKER_INDEX))).findFirst().orElseThrow();
                soft.assertThat(dns.resolve(String.valueOf(env.get("NIM_LEADER_IP_ADDRESS")))).as("%s: NIM_LEADER_IP_ADDRESS=%s", where,
                        env.get("NIM_LEADER_IP_ADDRESS")).contains("Pod/" + leader.name());
            }
            soft.assertThat(env.get("NVIDIA_VISIBLE_DEVICES")).as("%s: the GPUs of its own pod", where).startsWith("GPU-" + pod.name() + "-");
            // The provider's plugin directories first, then the image's own LD_LIBRARY_PATH, kept.
            soft.assertThat(env.get("LD_LIBRARY_PATH")).as("%s: LD_LIBRARY_PATH (plugin directories %s, then the image's %s)", where,
                    libraryPath, PodGroupRun.IMAGE_LD_LIBRARY_PATH).isEqualTo(
                            libraryPath.isEmpty() ? PodGroupRun.IMAGE_LD_LIBRARY_PATH : libraryPath + ":" + PodGroupRun.IMAGE_LD_LIBRARY_PATH);
            // torch.distributed's rendezvous: the leader of its own group (LWS leader, MPIJob worker 0), and a port.
            KubeObject groupLeader = r.groups().get(Reconciled.groupKey(pod)).stream()
                    .filter(p -> "0".equals(Reconciled.label(p, e.mode().equals("mpijob") ? Reconciled.MPI_INDEX : Reconciled.LWS_WORKER_INDEX))
                            && !"launcher".equals(Reconciled.label(p, Reconciled.MPI_ROLE)))
                    .findFirst().orElseThrow();
            soft.assertThat(dns.resolve(String.valueOf(env.get("MASTER_ADDR")))).as("%s: MASTER_ADDR=%s", where, env.get("MASTER_ADDR"))
                    .contains("Pod/" + groupLeader.name());
            soft.assertThat(env.get("MASTER_PORT")).as("%s: MASTER_PORT", where).isEqualTo(Integer.toString(e.integer("multiNode.masterPort")));
            Map<String, String> podEnv = own.get().env();
            for (Map.Entry<String, String> v : podEnv.entrySet()) {
                if (v.getKey().matches(POD_OWN)) {
                    soft.assertThat(env.get(v.getKey())).as("%s: %s as its own pod has it", where, v.getKey()).isEqualTo(v.getValue());
                }
            }
        }
    }

    /** A container command without library-path.sh DIRS -- in front: the command it execs. */
    private static List<String> withoutLibraryPath(List<String> command) {
        return command.size() > 3 && command.get(1).endsWith("/library-path.sh") && command.get(3).equals("--")
                ? command.subList(4, command.size()) : command;
    }

    public static boolean await(Duration limit, PodGroupRun run, BooleanSupplier ready) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            if (ready.getAsBoolean()) {
                return true;
            }
            if (run.pods().stream().anyMatch(p -> !p.process().isAlive())) {
                return false;
            }
            Thread.sleep(500);
        }
        return false;
    }

    public static String logs(PodGroupRun run) {
        StringBuilder out = new StringBuilder();
        for (PodRun p : run.pods()) {
            String log = p.logText();
            out.append("--- ").append(p.pod().name()).append(p.process().isAlive() ? "" : " (exited " + p.process().exitValue() + ")").append('\n')
                    .append(log.length() > 3000 ? log.substring(log.length() - 3000) : log).append('\n');
        }
        return out.toString();
    }

    private static String hostname(KubeObject pod) {
        return pod.at("spec.hostname") == null ? pod.name() : pod.at("spec.hostname").toString();
    }

    record Installed(String release, String namespace, Reconciled reconciled) {
        void remove(ControllerSession session) {
            TierNamespaces.delete(session.environment().api(), namespace, session.environment()::requireAllRunning);
        }
    }

    static Installed install(ControllerSession session, Example e, Path file, Map<String, String> sets) {
        KubeApi api = session.environment().api();
        String release = ChartUnderTest.releaseName(file);
        String namespace = TierNamespaces.create(api, "startup-" + release + (sets.isEmpty() ? "" : "-alone"), PodSecurityExceptions.level(e));
        InstalledRelease installed = session.install(ChartReleases.of(namespace, file, sets));
        return new Installed(release, namespace, new Reconciled(e, release,
                installed.awaitReady(Reconciled.expectedPods(e), ReconciledExampleIT.RECONCILE_TIMEOUT)));
    }

    public static void requireStartupHost() {
        Optional<String> reason = StartupHost.unavailableReason(SettingsFromProperties.shared());
        if (reason.isPresent()) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new AssertionError("CI=true and the start-up tier cannot run here: " + reason.get());
            }
            System.out.println("[startup tier] SKIPPED (CI is not true; with CI=true this fails the build): " + reason.get());
            Assumptions.abort("start-up tier skipped: " + reason.get());
        }
    }
}
