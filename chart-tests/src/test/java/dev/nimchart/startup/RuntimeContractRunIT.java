package dev.nimchart.startup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The start-up tier's model of one network namespace per pod, on a pod of its own (no cluster, no sshd, no Ray): a
 * native sidecar's declared port is bound before the serving process starts, so a server on the same port fails to
 * bind and exits, as NIM would (EADDRINUSE); a sidecar on another port leaves it running; two sidecars on one port keep
 * the pod from starting, naming the port. And the started pod's environment, as Python's requests and curl read it, sends
 * no in-cluster address through a proxy only when both cases of no_proxy list them. Needs root and {@code ip netns}
 * (with CI=true it runs or fails).
 */
class RuntimeContractRunIT {

    /** The image's server: binds NIM_SERVER_PORT on every address and stays up. */
    private static final String SERVER = """
            #!/usr/bin/python3
            import os, socket, sys, time
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                s.bind(("0.0.0.0", int(os.environ.get("NIM_SERVER_PORT", "8000"))))
            except OSError as e:
                print("server: %s" % e, flush=True)
                sys.exit(1)
            s.listen(4)
            print("server: listening", flush=True)
            time.sleep(3600)
            """;

    @BeforeAll
    static void rootAndNetworkNamespaces() {
        StartupHost.Result uid = StartupHost.run(List.of("id", "-u"), 10);
        StartupHost.Result netns = StartupHost.run(List.of("ip", "netns", "list"), 10);
        boolean usable = uid.exit() == 0 && uid.output().strip().equals("0") && netns.exit() == 0;
        if (!usable && "true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new AssertionError("CI=true and this needs root and ip netns: " + uid.output() + netns.output());
        }
        Assumptions.assumeTrue(usable, "needs root and ip netns");
    }

    private static KubeObject pod(String name, int ip, String sidecarPorts) {
        return pod(name, ip, sidecarPorts, "");
    }

    private static KubeObject pod(String name, int ip, String sidecarPorts, String env) {
        return RenderedManifest.parse("""
                apiVersion: v1
                kind: Pod
                metadata: {name: %s, namespace: ports}
                spec:
                  enableServiceLinks: false
                  securityContext: {runAsUser: 1000, runAsGroup: 1000}
                  initContainers:
                    %s
                  containers:
                    - name: nim
                      image: nim
                      env: [{name: NIM_SERVER_PORT, value: "8000"}%s]
                      ports: [{name: http-openai, containerPort: 8000}]
                status: {podIP: 198.18.0.%d}
                """.formatted(name, sidecarPorts, env, ip)).one("Pod");
    }

    private static PodGroupRun start(Path dir, KubeObject pod) throws IOException {
        Path server = Files.createDirectories(dir).resolve("server.py");
        Files.writeString(server, SERVER);
        return PodGroupRun.start(NamespaceState.of("ports", List.of(pod)), List.of(pod), dir.resolve("run"), Map.of(),
                new PodGroupRun.Server(server, "m"), null);
    }

    @Test
    void aSidecarOnTheServersPortMakesTheServerFailToBindAndAnotherPortDoesNot(@TempDir Path dir) throws Exception {
        try (PodGroupRun run = start(dir.resolve("clash"), pod("clash", 11, "- {name: envoy, image: envoy, restartPolicy: Always, ports: [{containerPort: 8000}]}"))) {
            PodGroupRun.PodRun p = run.pods().get(0);
            assertThat(p.process().waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).as("the server exits:%n%s", p.logText()).isTrue();
            assertThat(p.process().exitValue()).isNotZero();
            assertThat(p.logText()).contains("Address already in use");
        }
        try (PodGroupRun run = start(dir.resolve("apart"), pod("apart", 12, "- {name: envoy, image: envoy, restartPolicy: Always, ports: [{containerPort: 9901}]}"))) {
            PodGroupRun.PodRun p = run.pods().get(0);
            assertThat(run.await(Duration.ofSeconds(30), () -> p.logText().contains("server: listening"))).as(p.logText()).isTrue();
            assertThat(p.process().isAlive()).isTrue();
        }
    }

    @Test
    void twoSidecarsOnOnePortKeepThePodFromStarting(@TempDir Path dir) {
        KubeObject pod = pod("twice", 13, """
                - {name: envoy, image: envoy, restartPolicy: Always, ports: [{containerPort: 9901}]}
                    - {name: agent, image: agent, restartPolicy: Always, ports: [{containerPort: 9901}]}""");
        assertThatThrownBy(() -> start(dir, pod).close()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("agent: 9901/TCP: address already in use");
    }

    @Test
    void aLowerCaseNoProxyWithoutTheClustersNamesSendsThemThroughTheProxy(@TempDir Path dir) throws Exception {
        String proxy = ", {name: HTTP_PROXY, value: 'http://proxy.corp.example:3128'}, {name: http_proxy, value: 'http://proxy.corp.example:3128'}";
        String chartList = ", {name: NO_PROXY, value: 'localhost,127.0.0.1,.svc,.cluster.local'}, {name: no_proxy, value: 'localhost,127.0.0.1,.svc,.cluster.local'}";
        try (PodGroupRun run = start(dir.resolve("both"), pod("both", 14, "[]", proxy + chartList))) {
            assertThat(run.proxiedInClusterAddresses()).isEmpty();
        }
        String userList = ", {name: NO_PROXY, value: 'localhost,127.0.0.1,.svc,.cluster.local'}, {name: no_proxy, value: '.corp.example'}";
        try (PodGroupRun run = start(dir.resolve("lower"), pod("lower", 15, "[]", proxy + userList))) {
            assertThat(run.proxiedInClusterAddresses()).contains(
                    "pod lower: Python requests sends http://localhost through http://proxy.corp.example:3128 (no_proxy=.corp.example,"
                            + " NO_PROXY=localhost,127.0.0.1,.svc,.cluster.local)",
                    "pod lower: curl sends http://127.0.0.1 through http://proxy.corp.example:3128 (no_proxy=.corp.example,"
                            + " NO_PROXY=localhost,127.0.0.1,.svc,.cluster.local)");
        }
    }
}
