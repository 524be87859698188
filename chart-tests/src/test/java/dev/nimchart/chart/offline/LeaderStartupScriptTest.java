package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.ChartScripts;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the leader start-up script the chart ships (taken from the rendered ConfigMap) with bash: it must really give
 * up after CLUSTER_START_TIMEOUT with a clear line and a non-zero exit, and start mpirun once every worker listens.
 */
class LeaderStartupScriptTest {

    @TempDir
    static Path scripts;

    @BeforeAll
    static void writeTheRenderedScripts() throws IOException {
        ChartScripts.writeRendered("multi-node-llama-3.1-405b-lws.yaml", scripts, List.of("common.sh", "leader.sh"));
        Path mpirun = scripts.resolve("fake-mpirun");
        Files.writeString(mpirun, "#!/bin/bash\necho \"mpirun $*\"\nwhile [ $# -gt 0 ]; do if [ \"$1\" = --hostfile ]; then cat \"$2\"; fi; shift; done\n");
        Files.setPosixFilePermissions(mpirun, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @Test
    void theLeaderGivesUpAfterTheClusterStartTimeout() throws Exception {
        int closedPort = freePort();
        long start = System.nanoTime();
        Result r = runLeader(Map.of("CLUSTER_START_TIMEOUT", "3", "NIM_MPI_WORKER_HOSTS", "127.0.0.1",
                "NIM_MPI_SSH_PORT", String.valueOf(closedPort)));
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(r.exit).as(r.output).isEqualTo(1);
        assertThat(r.output).contains("FAILED: worker 127.0.0.1 did not accept SSH on port " + closedPort)
                .contains("CLUSTER_START_TIMEOUT=3s").doesNotContain("mpirun ");
        assertThat(took).as("gave up near the deadline, not never").isLessThan(Duration.ofSeconds(20));
    }

    @Test
    void workerAddressesFollowTheLeaderWorkerSetNaming() throws Exception {
        Result r = runLeader(Map.of("CLUSTER_START_TIMEOUT", "1", "LWS_LEADER_ADDRESS", "nim-0.nim.inference.svc.invalid",
                "NIM_NUM_COMPUTE_NODES", "3"));
        assertThat(r.exit).as(r.output).isEqualTo(1);
        assertThat(r.output).contains("waiting for worker nim-0-1.nim.inference.svc.invalid:")
                .contains("FAILED: worker nim-0-1.nim.inference.svc.invalid");
    }

    @Test
    void theLeaderStartsMpirunOnAllRanksOnceEveryWorkerListens() throws Exception {
        try (ServerSocket worker = new ServerSocket(0)) {
            Result r = runLeader(Map.of("CLUSTER_START_TIMEOUT", "20", "NIM_MPI_WORKER_HOSTS", "127.0.0.1",
                    "NIM_MPI_SSH_PORT", String.valueOf(worker.getLocalPort())));
            assertThat(r.exit).as(r.output).isZero();
            assertThat(r.output).contains("worker 127.0.0.1 is reachable")
                    .contains("-n 16 --hostfile")
                    .contains("plm_rsh_args -p " + worker.getLocalPort() + " -i /etc/nim-llm/ssh/private.key")
                    .contains("/opt/nim/start_server.sh")
                    .contains("localhost slots=8").contains("127.0.0.1 slots=8")
                    // Nothing of the leader's environment is forwarded: each rank gets its own pod's (worker.sh's SetEnv).
                    .doesNotContain(" -x ");
        }
    }

    @Test
    void aCountFromEnvNeverReachesBashArithmeticUnchecked() throws Exception {
        Path marker = scripts.resolve("arithmetic-ran");
        Result r = runLeader(Map.of("CLUSTER_START_TIMEOUT", "a[$(touch " + marker + ")]", "NIM_MPI_WORKER_HOSTS", "127.0.0.1"));
        assertThat(r.exit).as(r.output).isEqualTo(2);
        assertThat(r.output).contains("FAILED: CLUSTER_START_TIMEOUT must be a whole number").doesNotContain("mpirun ");
        assertThat(marker).as("bash arithmetic ran the text of CLUSTER_START_TIMEOUT").doesNotExist();

        r = runLeader(Map.of("CLUSTER_START_TIMEOUT", "2", "NIM_NUM_COMPUTE_NODES", "a[$(touch " + marker + ")]"));
        assertThat(r.exit).as(r.output).isEqualTo(2);
        assertThat(marker).as("bash arithmetic ran the text of NIM_NUM_COMPUTE_NODES").doesNotExist();
    }

    @Test
    void workerHostsAndTheSshPortNeverBecomeShellCode() throws Exception {
        Path marker = scripts.resolve("host-ran");
        Result r = runLeader(Map.of("CLUSTER_START_TIMEOUT", "2", "NIM_MPI_WORKER_HOSTS", "x$(touch " + marker + ")"));
        assertThat(r.exit).as(r.output).isEqualTo(2);
        assertThat(r.output).contains("is not a host name");
        assertThat(marker).as("a worker host ran as shell code").doesNotExist();

        r = runLeader(Map.of("CLUSTER_START_TIMEOUT", "2", "NIM_MPI_WORKER_HOSTS", "127.0.0.1",
                "NIM_MPI_SSH_PORT", "1;touch " + marker + ";#"));
        assertThat(r.exit).as(r.output).isEqualTo(2);
        assertThat(r.output).contains("FAILED: NIM_MPI_SSH_PORT must be a whole number");
        assertThat(marker).as("the SSH port ran as shell code").doesNotExist();
    }

    private record Result(int exit, String output) {
    }

    private static Result runLeader(Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", scripts.resolve("leader.sh").toString(), "/opt/nim/start_server.sh");
        pb.environment().clear();
        pb.environment().put("PATH", System.getenv("PATH"));
        pb.environment().putAll(Map.of("LWS_LEADER_ADDRESS", "nim-0.nim.inference", "NIM_NUM_COMPUTE_NODES", "2",
                "NIM_GPUS_PER_NODE", "8", "NIM_MPI_SSH_KEY", "/etc/nim-llm/ssh/private.key", "NGC_API_KEY", "nvapi-test",
                "NIM_TENSOR_PARALLEL_SIZE", "8", "NIM_MPIRUN", scripts.resolve("fake-mpirun").toString()));
        pb.environment().putAll(env);
        pb.redirectErrorStream(true);
        Process p = pb.start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("leader.sh did not end within 60 s");
        }
        return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
