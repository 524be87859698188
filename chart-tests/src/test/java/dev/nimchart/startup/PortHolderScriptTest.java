package dev.nimchart.startup;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * port-holder.py, which binds the declared ports of the containers the start-up tier runs no program for: a second bind
 * of one port and protocol fails as in a pod (EADDRINUSE, exit 98, naming the container), another protocol does not.
 * Run here on loopback-free ports of this machine's own network namespace (the tier runs it in each pod's).
 */
class PortHolderScriptTest {

    @Test
    void aSecondBindOfOnePortFailsNamingTheContainerAndAnotherProtocolDoesNot(@TempDir Path dir) throws Exception {
        Path script = dir.resolve("port-holder.py");
        try (InputStream in = PodGroupRun.class.getResourceAsStream("port-holder.py")) {
            Files.write(script, in.readAllBytes());
        }
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Result collide = run(script, "--once", "envoy=" + port + "/TCP", "agent=" + port + "/TCP");
        assertThat(collide.exit()).isEqualTo(98);
        assertThat(collide.output()).contains("agent: " + port + "/TCP: address already in use");

        Result both = run(script, "--once", "dns=" + port + "/UDP", "nim=" + port + "/TCP");
        assertThat(both.exit()).as(both.output()).isZero();
        assertThat(both.output()).startsWith("held");

        try (ServerSocket taken = new ServerSocket(port)) {
            Result held = run(script, "--once", "sidecar=" + port + "/TCP");
            assertThat(held.exit()).isEqualTo(98);
            assertThat(held.output()).contains("sidecar: " + port + "/TCP: address already in use");
        }
    }

    private record Result(int exit, String output) {
    }

    private static Result run(Path script, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("python3", script.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), out);
    }
}
