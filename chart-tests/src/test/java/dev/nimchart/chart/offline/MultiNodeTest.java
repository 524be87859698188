package dev.nimchart.chart.offline;

import dev.nimchart.chart.repository.Examples;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.Example;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.PodTemplate;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every multi-node example: GPUs, groups, the NIM wiring the chart derives, and how a group starts. */
class MultiNodeTest {


    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.MULTI_NODE)
    void aReplicaUsesWorkersTimesGpusPerNodeGpus(Path file) {
        Example e = Example.of(file);
        int workers = e.integer("multiNode.workers");
        int gpusPerNode = e.integer("multiNode.gpusPerNode");
        int replicas = e.integer("replicaCount");
        int gpus = e.templates.stream().mapToInt(t -> t.pods() * t.gpus(e.manifest)).sum();
        assertThat(gpus).as("%s: GPUs of all replicas", e.name()).isEqualTo(replicas * workers * gpusPerNode);
        int gpuPods = e.templates.stream().filter(PodTemplate::gpuPod).mapToInt(PodTemplate::pods).sum();
        assertThat(gpuPods).as("%s: GPU pods", e.name()).isEqualTo(replicas * workers);
        for (PodTemplate t : e.gpuTemplates()) {
            assertThat(t.gpus(e.manifest)).as("%s: %s", e.name(), t).isEqualTo(gpusPerNode);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.MULTI_NODE)
    void theMpiLauncherRequestsNoGpu(Path file) {
        Example e = Example.of(file);
        for (PodTemplate t : e.templates) {
            if (t.role().equals("launcher")) {
                assertThat(t.nim().at("resources.limits[nvidia.com/gpu]")).as(e.name()).isNull();
                assertThat(t.nim().at("resources.requests[nvidia.com/gpu]")).as(e.name()).isNull();
                assertThat(t.nim().at("resources")).as(e.name()).isEqualTo(ExampleRenderingTest.emptyToNull(e.values.at("multiNode.mpiJob.launcherResources")));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.MULTI_NODE)
    void theChartDerivesTheNimMultiNodeVariables(Path file) {
        Example e = Example.of(file);
        Map<String, KubeObject> user = e.userEnv();
        for (PodTemplate t : e.gpuTemplates()) {
            Map<String, KubeObject> env = PodTemplate.env(t.nim());
            String where = e.name() + ": " + t;
            expectValue(env, user, "NIM_MULTI_NODE", "1", where);
            expectValue(env, user, "NIM_NUM_COMPUTE_NODES", e.text("multiNode.workers"), where);
            expectValue(env, user, "NIM_GPUS_PER_NODE", e.text("multiNode.gpusPerNode"), where);
            expectValue(env, user, "NIM_TENSOR_PARALLEL_SIZE", e.text("multiNode.gpusPerNode"), where);
            expectValue(env, user, "NIM_PIPELINE_PARALLEL_SIZE", e.text("multiNode.workers"), where);
            expectValue(env, user, "CLUSTER_START_TIMEOUT", e.text("multiNode.clusterStartTimeout"), where);
            expectValue(env, user, "NIM_JSONL_LOGGING", "0", where);
            expectValue(env, user, "NGC_HOME", e.text("model.nimCache").replaceAll("/$", "") + "/ngc", where);
            expectValue(env, user, "HF_HOME", e.text("model.nimCache").replaceAll("/$", "") + "/huggingface", where);
            if (e.mode().equals("mpijob")) {
                assertThat(env.get("NIM_NODE_RANK").at("valueFrom.fieldRef.fieldPath")).as(where)
                        .isEqualTo("metadata.labels['training.kubeflow.org/replica-index']");
            }
            if (e.mode().equals("leaderworkerset")) {
                assertThat(env.get("NIM_NODE_RANK").at("valueFrom.fieldRef.fieldPath")).as(where)
                        .isEqualTo("metadata.labels['leaderworkerset.sigs.k8s.io/worker-index']");
                expectValue(env, user, "NIM_LEADER_IP_ADDRESS", "$(LWS_LEADER_ADDRESS)", where);
                assertThat(env).as("%s: NIM_LEADER_ADDRESS appears in no NVIDIA source", where).doesNotContainKey("NIM_LEADER_ADDRESS");
                expectValue(env, user, "NIM_LEADER_ROLE", t.role().equals("leader") ? "1" : "0", where);
            }
            int tp = Integer.parseInt((String) env.get("NIM_TENSOR_PARALLEL_SIZE").at("value"));
            int pp = Integer.parseInt((String) env.get("NIM_PIPELINE_PARALLEL_SIZE").at("value"));
            assertThat(tp * pp).as("%s: tensor x pipeline parallel uses every GPU of the replica", where)
                    .isEqualTo(e.integer("multiNode.workers") * e.integer("multiNode.gpusPerNode"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.MULTI_NODE)
    void theBackendFollowsTheFlagWithOneGroupPerReplica(Path file) {
        Example e = Example.of(file);
        if (e.mode().equals("leaderworkerset")) {
            KubeObject lws = e.manifest.one("LeaderWorkerSet");
            assertThat(lws.at("spec.leaderWorkerTemplate.size")).as(e.name()).isEqualTo(e.integer("multiNode.workers"));
            assertThat(lws.at("spec.leaderWorkerTemplate.restartPolicy")).as(e.name()).isEqualTo(e.text("multiNode.leaderWorkerSet.restartPolicy"));
            assertThat(lws.at("spec.startupPolicy")).isEqualTo(e.text("multiNode.leaderWorkerSet.startupPolicy"));
            if (!e.flag("autoscaling.enabled")) {
                assertThat(lws.at("spec.replicas")).as(e.name()).isEqualTo(e.integer("replicaCount"));
            }
            assertThat(e.manifest.ofKind("MPIJob")).isEmpty();
        } else {
            List<KubeObject> jobs = e.manifest.ofKind("MPIJob");
            assertThat(jobs).as(e.name()).hasSize(e.integer("replicaCount"));
            for (KubeObject job : jobs) {
                assertThat(job.at("spec.slotsPerWorker")).isEqualTo(e.integer("multiNode.gpusPerNode"));
                // AtStartup: worker 0 becomes Ready only once the server it hosts answers, which needs the launcher.
                assertThat(job.at("spec.launcherCreationPolicy")).isEqualTo("AtStartup");
                assertThat(job.at("spec.mpiReplicaSpecs.Launcher.replicas")).isEqualTo(1);
                assertThat(job.at("spec.mpiReplicaSpecs.Worker.replicas")).isEqualTo(e.integer("multiNode.workers"));
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> workerAnnotations = (Map<String, Object>) e.values.at("multiNode.mpiJob.workerAnnotations");
            for (PodTemplate t : e.templates) {
                if (t.role().equals("mpi-worker")) {
                    assertThat(t.pod().annotations()).as(e.name()).containsAllEntriesOf(workerAnnotations);
                } else {
                    workerAnnotations.keySet().forEach(k -> assertThat(t.pod().annotations()).doesNotContainKey(k));
                }
            }
            assertThat(e.manifest.ofKind("LeaderWorkerSet")).isEmpty();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.MULTI_NODE)
    void theLaunchModeDecidesHowAGroupStarts(Path file) {
        Example e = Example.of(file);
        boolean mpi = e.launchMode().equals("mpi");
        KubeObject scripts = e.manifest.ofKind("ConfigMap").stream().filter(c -> c.name().endsWith("-mpi")).findFirst().orElse(null);
        String libraryPath = e.libraryPathPrefix();
        assertThat(scripts != null).as("%s: the start-up scripts ConfigMap (MPI, or a library path to prepend)", e.name())
                .isEqualTo(mpi || !libraryPath.isEmpty());
        for (PodTemplate t : e.templates) {
            Object command = withoutLibraryPath(t, libraryPath, e.name());
            String where = e.name() + ": " + t;
            switch (t.role()) {
                case "leader" -> assertThat(command).as(where).isEqualTo(
                        customOr(e, "customCommand", mpi ? List.of("/bin/bash", "/opt/nim-llm/mpi/leader.sh") : null));
                case "worker" -> assertThat(command).as(where).isEqualTo(
                        customOr(e, "multiNode.workerCustomCommand", mpi ? List.of("/bin/bash", "/opt/nim-llm/mpi/worker.sh") : null));
                case "mpi-worker" -> assertThat(command).as(where).isEqualTo(List.of("/bin/bash", "/opt/nim-llm/mpi/worker.sh"));
                case "launcher" -> assertThat(command).as(where)
                        .isEqualTo(customOr(e, "customCommand", List.of("/bin/bash", "/opt/nim-llm/mpi/launcher.sh")));
                default -> throw new AssertionError(where);
            }
            boolean customWorker = ExampleRenderingTest.emptyToNull(e.values.at("multiNode.workerCustomCommand")) != null;
            boolean runsSshd = mpi && (t.role().equals("mpi-worker") || t.role().equals("worker") && !customWorker);
            boolean sshPort = t.nim().list("ports").stream().anyMatch(p -> "ssh".equals(p.at("name")));
            assertThat(sshPort).as("%s exposes sshd", where).isEqualTo(runsSshd);
            if (mpi && e.mode().equals("leaderworkerset")) {
                assertThat(t.volumes()).as("%s mounts the group's SSH key", where)
                        .anyMatch(v -> v.at("secret.secretName") != null && "ssh-key".equals(v.at("name")));
            }
        }
    }

    /**
     * The role's own command: a GPU pod of a provider with plugin directories runs it through library-path.sh, which
     * must come first with exactly those directories (the MPI launcher never does).
     */
    private static Object withoutLibraryPath(PodTemplate t, String libraryPath, String name) {
        Object command = t.nim().at("command");
        List<Object> wrapper = List.of("/bin/bash", "/opt/nim-llm/mpi/library-path.sh", libraryPath, "--");
        if (libraryPath.isEmpty() || !t.gpuPod()) {
            assertThat(String.valueOf(command)).as("%s: %s runs no library-path.sh", name, t).doesNotContain("library-path.sh");
            return command;
        }
        assertThat(command).as("%s: %s prepends %s to LD_LIBRARY_PATH", name, t, libraryPath).isInstanceOf(List.class);
        List<?> list = (List<?>) command;
        assertThat(list.subList(0, Math.min(4, list.size()))).as("%s: %s starts with library-path.sh", name, t).isEqualTo(wrapper);
        List<?> own = list.subList(4, list.size());
        // No command of its own: the image's ENTRYPOINT, which the wrapper must then name.
        return own.equals(List.of("/opt/nvidia/nvidia_entrypoint.sh")) ? null : own;
    }

    private static Object customOr(Example e, String key, List<String> fallback) {
        Object custom = ExampleRenderingTest.emptyToNull(e.values.at(key));
        return custom != null ? custom : fallback;
    }

    private static void expectValue(Map<String, KubeObject> env, Map<String, KubeObject> user, String name, String derived,
            String where) {
        assertThat(env).as(where).containsKey(name);
        Object expected = user.containsKey(name) ? user.get(name).raw() : Map.of("name", name, "value", derived);
        assertThat(env.get(name).raw()).as("%s: %s", where, name).isEqualTo(expected);
    }
}
