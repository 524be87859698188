package dev.nimchart.chart.repository;

import dev.nimchart.tiers.ChartRules;
import dev.nimchart.chart.controllers.ReconciledExampleIT;
import dev.nimchart.startup.ObjectDns;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.startup.ContainerCommand;
import dev.nimchart.startup.ContainerEnvironment;
import dev.nimchart.startup.PodGroupRun;
import dev.nimchart.startup.PodGroupRun.PodRun;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.assertj.core.api.SoftAssertions;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * nim-llm's own rules on the start-up tier ({@link NimLlmRules#started}): the library started the group and checked how
 * it started (ranks joined, readiness held then passed; a Ray cluster of exactly the group's pods); these hold what
 * each process of nim-llm's start-up contract was started with. For native and MPI groups: every rank ran the
 * contract's command with its own pod's rank, role, leader and rendezvous addresses, devices and NIM/NCCL/FI/UCX/CUDA
 * variables, and wrote only where its pod lets it; for Ray groups: each pod ran {@code nim-serve-ray} in its Ray role
 * with its own environment, and Ray's nodes carry the pod's GPUs.
 */
public final class NimLlmStartup {

    /** Variables a rank must see with its own pod's value (device, network, NIM multi-node settings, and its home). */
    static final String POD_OWN = "^(NIM_.*|NCCL_.*|FI_.*|UCX_.*|CUDA_.*|MASTER_PORT|NVIDIA_VISIBLE_DEVICES|HOME)$";

    private NimLlmStartup() {
    }

    /** nim-llm's rules on a started group (the start-up tier's hand-over). */
    public static void check(ChartRules.Started started) {
        ChartRules.Reconciled release = started.reconciled();
        Example e = Example.of(release.valuesFile());
        Reconciled r = new Reconciled(e, release.release(), release.state());
        PodGroupRun run = started.run();
        assertThat(Reconciled.names(started.servingPods())).as("%s: the pods the start-up tier served from", e.name())
                .isEqualTo(Reconciled.names(r.servingPods()));
        if (e.launchMode().equals("ray")) {
            ray(e, r, run, started.rayNodes());
        } else {
            ranks(e, r, run);
        }
    }

    private static void ranks(Example e, Reconciled r, PodGroupRun run) {
        boolean mpi = ChartScripts.usesMpi(r.servingPods().get(0)) || e.mode().equals("mpijob");
        int expectedRanks = r.groups().size() * (mpi ? e.integer("multiNode.workers") * e.integer("multiNode.gpusPerNode") : e.integer("multiNode.workers"));
        List<Map<String, Object>> records = run.records();
        assertThat(records).as("%s: ranks recorded; logs:%n%s", e.name(), run.logs()).hasSize(expectedRanks);
        assertThat(records.stream().map(rec -> rec.get("group")).distinct().count()).as("%s: groups the ranks joined", e.name())
                .isEqualTo(r.groups().size());
        SoftAssertions soft = new SoftAssertions();
        ranksRanTheContractCommandWithTheirOwnPodsEnvironment(soft, e, r, run, records, mpi);
        ranksWroteOnlyWhereThePodLetsThem(soft, e, records);
        soft.assertAll();
    }

    private static void ray(Example e, Reconciled r, PodGroupRun run, Map<String, List<Map<String, Object>>> rayNodes) {
        int port = e.integer("multiNode.ray.port");
        int gpusPerNode = e.integer("multiNode.gpusPerNode");
        SoftAssertions soft = new SoftAssertions();
        soft.assertThat(rayNodes).as("%s: a Ray cluster per group", e.name()).hasSize(r.groups().size());
        for (Map.Entry<String, List<Map<String, Object>>> group : rayNodes.entrySet()) {
            List<Map<String, Object>> nodes = group.getValue();
            soft.assertThat(nodes).as("%s: Ray's nodes of group %s, each with its pod's GPUs", e.name(), group.getKey())
                    .allSatisfy(n -> assertThat(((Number) n.get("gpus")).intValue()).isEqualTo(gpusPerNode));
            soft.assertThat(nodes.stream().mapToInt(n -> ((Number) n.get("gpus")).intValue()).sum()).as("%s: GPUs of the Ray cluster",
                    e.name()).isEqualTo(e.integer("multiNode.workers") * gpusPerNode);
        }
        everyPodRanItsRayRoleWithItsOwnEnvironment(soft, e, r, run, port);
        soft.assertAll();
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
        List<String> starterArgs = withoutLibraryPath(ContainerCommand.of(ReconciledExampleIT.nimContainer(starter)));
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
                List<String> podCommand = withoutLibraryPath(ContainerCommand.of(ReconciledExampleIT.nimContainer(pod)));
                soft.assertThat(argv).as("%s: the command of its own pod", where)
                        .isEqualTo(podCommand.get(0).equals(ContainerCommand.IMAGE_ENTRYPOINT.get(0)) ? podCommand.subList(1, podCommand.size()) : podCommand);
                if (!Boolean.TRUE.equals(rec.get("serving"))) {
                    soft.assertThat(rec.get("leaderReached")).as("%s: reached its leader at NIM_LEADER_IP_ADDRESS=%s", where,
                            env.get("NIM_LEADER_IP_ADDRESS")).isEqualTo(true);
                }
            }
            String index = pod.label(e.mode().equals("mpijob") ? Reconciled.MPI_INDEX : Reconciled.LWS_WORKER_INDEX);
            soft.assertThat(env.get("NIM_NODE_RANK")).as("%s: NIM_NODE_RANK", where).isEqualTo(index);
            if (e.mode().equals("leaderworkerset")) {
                soft.assertThat(env.get("NIM_LEADER_ROLE")).as("%s: NIM_LEADER_ROLE", where).isEqualTo("0".equals(index) ? "1" : "0");
                KubeObject leader = r.groups().get(Reconciled.groupKey(pod)).stream()
                        .filter(p -> "0".equals(p.label(Reconciled.LWS_WORKER_INDEX))).findFirst().orElseThrow();
                soft.assertThat(dns.resolve(String.valueOf(env.get("NIM_LEADER_IP_ADDRESS")))).as("%s: NIM_LEADER_IP_ADDRESS=%s", where,
                        env.get("NIM_LEADER_IP_ADDRESS")).contains("Pod/" + leader.name());
            }
            soft.assertThat(env.get("NVIDIA_VISIBLE_DEVICES")).as("%s: the GPUs of its own pod", where).startsWith("GPU-" + pod.name() + "-");
            // The provider's plugin directories first, then the image's own LD_LIBRARY_PATH, kept.
            soft.assertThat(env.get("LD_LIBRARY_PATH")).as("%s: LD_LIBRARY_PATH (plugin directories %s, then the image's %s)", where,
                    libraryPath, ContainerEnvironment.IMAGE_LD_LIBRARY_PATH).isEqualTo(
                            libraryPath.isEmpty() ? ContainerEnvironment.IMAGE_LD_LIBRARY_PATH : libraryPath + ":" + ContainerEnvironment.IMAGE_LD_LIBRARY_PATH);
            // torch.distributed's rendezvous: the leader of its own group (LWS leader, MPIJob worker 0), and a port.
            KubeObject groupLeader = r.groups().get(Reconciled.groupKey(pod)).stream()
                    .filter(p -> "0".equals(p.label(e.mode().equals("mpijob") ? Reconciled.MPI_INDEX : Reconciled.LWS_WORKER_INDEX))
                            && !"launcher".equals(p.label(Reconciled.MPI_ROLE)))
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
            soft.assertThat(env.get("NIM_NODE_RANK")).as(where).isEqualTo(own.pod().label(Reconciled.LWS_WORKER_INDEX));
            soft.assertThat(env.get("NIM_JSONL_LOGGING")).as("%s: JSON logging off", where).isEqualTo("0");
            if (e.flag("airGap.enabled")) {
                soft.assertThat(env.keySet()).as("%s: air-gap mode, no credential in the serving process (docs/model-sources.md)", where)
                        .doesNotContain("NGC_API_KEY", "NGC_CLI_API_KEY", "HF_TOKEN", "MODELSCOPE_API_TOKEN");
            }
            soft.assertThat(env.get("NVIDIA_VISIBLE_DEVICES")).as("%s: the GPUs of its own pod", where).startsWith("GPU-" + own.pod().name() + "-");
            soft.assertThat(env.get("LD_LIBRARY_PATH")).as("%s: LD_LIBRARY_PATH", where).isEqualTo(
                    libraryPath.isEmpty() ? ContainerEnvironment.IMAGE_LD_LIBRARY_PATH : libraryPath + ":" + ContainerEnvironment.IMAGE_LD_LIBRARY_PATH);
            // vLLM compiles on every node of the Ray cluster: each pod wrote the engine caches in its own home.
            soft.assertThat(env.get("HOME")).as("%s: HOME", where).isEqualTo(e.text("home.path"));
            soft.assertThat((List<?>) rec.get("caches")).as("%s: the engine caches, in the home %s", where, e.text("home.path"))
                    .isNotEmpty().allMatch(path -> path.toString().startsWith(e.text("home.path") + "/"));
            if (!leader) {
                soft.assertThat(rec.get("leaderReached")).as("%s: reached its head at %s", where, env.get("LWS_LEADER_ADDRESS")).isEqualTo(true);
            }
        }
    }

    private static String hostname(KubeObject pod) {
        return pod.at("spec.hostname") == null ? pod.name() : pod.at("spec.hostname").toString();
    }

}
