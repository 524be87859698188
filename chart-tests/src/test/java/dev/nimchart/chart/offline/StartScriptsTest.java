package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.nimchart.chart.repository.ChartScripts;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chart's start-up scripts other than leader.sh, taken from the rendered ConfigMap and run with bash:
 * library-path.sh prepends the plugin directories to the image's LD_LIBRARY_PATH and runs the command with its
 * arguments untouched; the launcher dials MPIJob worker 0 by the chart's Service name; ready.sh makes worker 0 Ready
 * only while its server answers.
 */
class StartScriptsTest {

    @TempDir
    static Path scripts;

    @BeforeAll
    static void writeTheRenderedScripts() throws IOException {
        ChartScripts.writeRendered("multi-node-gcp-tcpxo-a3-mega.yaml", scripts, List.of("common.sh", "library-path.sh", "ready.sh"));
    }

    @Test
    void libraryPathPrependsThePluginDirectoriesToTheImagesValue() throws Exception {
        String dirs = "/opt/amazon/ofi-nccl/lib:/opt/amazon/efa/lib";
        assertThat(run(Map.of("LD_LIBRARY_PATH", "/usr/local/nvidia/lib:/usr/local/nvidia/lib64"), "library-path.sh", dirs, "--",
                "printenv", "LD_LIBRARY_PATH").output()).isEqualTo(dirs + ":/usr/local/nvidia/lib:/usr/local/nvidia/lib64\n");
        assertThat(run(Map.of(), "library-path.sh", dirs, "--", "printenv", "LD_LIBRARY_PATH").output())
                .as("no image value: no trailing colon (which would add the working directory)").isEqualTo(dirs + "\n");
        assertThat(run(Map.of("LD_LIBRARY_PATH", "/image"), "library-path.sh", "", "--", "printenv", "LD_LIBRARY_PATH").output())
                .as("nothing to prepend").isEqualTo("/image\n");
    }

    @Test
    void libraryPathRunsTheCommandWithItsArgumentsAsGiven() throws Exception {
        Path marker = scripts.resolve("ran");
        ScriptRun r = run(Map.of(), "library-path.sh", "/a:$(touch " + marker + ")", "--", "bash", "-c", "printf '%s|' \"$@\"", "x",
                "one two", "$(touch " + marker + ")", "'\"");
        assertThat(r.exit()).as(r.output()).isZero();
        assertThat(r.output()).isEqualTo("one two|$(touch " + marker + ")|'\"|");
        assertThat(marker).as("a value ran as shell code").doesNotExist();
        assertThat(run(Map.of(), "library-path.sh", "/a", "--").exit()).as("no command").isEqualTo(2);
    }

    @Test
    void theLauncherDialsWorkerZeroByTheChartsServiceName() throws Exception {
        for (String[] c : new String[][] {
                {"nim-0-abcde-worker-0.nim-0-abcde.inference.svc", "nim-0-abcde-worker-0.inference.svc"},
                {"nim-0-abcde-worker-0.nim-0-abcde.inference.svc.example.org", "nim-0-abcde-worker-0.inference.svc.example.org"},
                {"plainhost", "plainhost"}}) {
            ScriptRun r = run(Map.of(), "-c", "source \"$1\"; serving_host \"$2\"", "x", scripts.resolve("common.sh").toString(), c[0]);
            assertThat(r.output().strip()).as(c[0]).isEqualTo(c[1]);
        }
    }

    @Test
    void workerZeroIsReadyOnlyWhileItsServerAnswersAndOtherWorkersOnSshd() throws Exception {
        AtomicInteger status = new AtomicInteger(503);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/v1/health/ready", x -> {
            x.sendResponseHeaders(status.get(), -1);
            x.close();
        });
        server.start();
        try (ServerSocket sshd = new ServerSocket(0)) {
            Map<String, String> rank0 = Map.of("NIM_NODE_RANK", "0", "NIM_SERVER_PORT", String.valueOf(server.getAddress().getPort()),
                    "NIM_MPI_SSH_PORT", String.valueOf(sshd.getLocalPort()));
            assertThat(run(rank0, "ready.sh", "/v1/health/ready").exit()).as("worker 0, sshd up, server not ready").isNotZero();
            status.set(200);
            assertThat(run(rank0, "ready.sh", "/v1/health/ready").exit()).as("worker 0, server ready").isZero();
            assertThat(run(rank0, "ready.sh", "").exit()).as("worker 0 with the readiness probe disabled: sshd").isZero();
            Map<String, String> rank1 = new HashMap<>(rank0);
            rank1.put("NIM_NODE_RANK", "1");
            status.set(503);
            assertThat(run(rank1, "ready.sh", "/v1/health/ready").exit()).as("worker 1: sshd listens").isZero();
        } finally {
            server.stop(0);
        }
        Map<String, String> noSshd = Map.of("NIM_NODE_RANK", "1", "NIM_MPI_SSH_PORT", String.valueOf(freePort()));
        assertThat(run(noSshd, "ready.sh", "/v1/health/ready").exit()).as("worker 1 without sshd").isNotZero();
    }

    private static ScriptRun run(Map<String, String> env, String script, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash"));
        command.add(script.startsWith("-") ? script : scripts.resolve(script).toString());
        command.addAll(List.of(args));
        return ScriptRun.of(command, scripts, null, env);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
