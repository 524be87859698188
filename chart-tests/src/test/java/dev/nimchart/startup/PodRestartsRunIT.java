package dev.nimchart.startup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The start-up tier's model of what the cluster does when a pod's main container ends during start-up
 * ({@link PodRestarts}, {@link PodGroupRun#awaitRestarting}), on real processes in network namespaces (no cluster): the
 * kubelet restarts the container in the same pod (its init container does not run again, its log goes on, its emptyDir
 * keeps what the init container and the first start wrote); LeaderWorkerSet's RecreateGroupOnPodRestart recreates the
 * whole group (the leader starts again too, with a new empty emptyDir), None restarts only the pod that ended;
 * restartPolicy Never leaves it ended; a container that ends again is crash-looping. After every run nothing is left
 * mounted under its directory. Needs root and {@code ip netns} (with CI=true it runs or fails).
 */
class PodRestartsRunIT {

    /**
     * The image's server: counts its starts in the hostPath volume /starts (one file per start, named by host), and in
     * the emptyDir /scratch; exits 1 at its first start when FAIL_FIRST is set, or at every start when FAIL_ALWAYS is;
     * else listens on NIM_SERVER_PORT.
     */
    private static final String SERVER = """
            #!/usr/bin/python3
            import os, socket, sys, time
            host = socket.gethostname()
            starts = len([f for f in os.listdir("/starts") if f.startswith(host + ".")])
            open("/starts/%s.%d" % (host, starts), "w").close()
            open("/scratch/start.%d" % starts, "w").close()
            print("server: start %d, scratch holds %s" % (starts, sorted(os.listdir("/scratch"))), flush=True)
            if os.environ.get("FAIL_ALWAYS") or os.environ.get("FAIL_FIRST") and starts == 0:
                print("server: failing on purpose", flush=True)
                sys.exit(1)
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("0.0.0.0", 8000))
            s.listen(4)
            print("server: listening", flush=True)
            time.sleep(3600)
            """;

    @BeforeAll
    static void rootAndNetworkNamespaces() {
        RuntimeContractRunIT.rootAndNetworkNamespaces();
    }

    /**
     * A pod of a LeaderWorkerSet group (lws null: of none) with the server, one init container that counts its runs (in
     * the hostPath volume) and writes {@code init} into the emptyDir the server lists.
     */
    private static KubeObject pod(String name, int ip, String lws, int worker, String restartPolicy, String env) {
        String labels = lws == null ? "{}" : "{leaderworkerset.sigs.k8s.io/name: %s, leaderworkerset.sigs.k8s.io/group-index: '0',"
                .formatted(lws) + " leaderworkerset.sigs.k8s.io/worker-index: '%d'}".formatted(worker);
        return RenderedManifest.parse("""
                apiVersion: v1
                kind: Pod
                metadata: {name: %s, namespace: restarts, labels: %s}
                spec:
                  hostname: %s
                  restartPolicy: %s
                  enableServiceLinks: false
                  securityContext: {runAsUser: 0, runAsGroup: 0}
                  volumes:
                    - {name: starts, hostPath: {path: /var/starts}}
                    - {name: scratch, emptyDir: {}}
                  initContainers:
                    - name: count-inits
                      image: nim
                      command: [sh, -c, 'touch /starts/init.%s.$(date +%%s%%N) /scratch/init']
                      volumeMounts: [{name: starts, mountPath: /starts}, {name: scratch, mountPath: /scratch}]
                  containers:
                    - name: nim
                      image: nim
                      env: [{name: NIM_SERVER_PORT, value: "8000"}%s]
                      ports: [{name: http-openai, containerPort: 8000}]
                      volumeMounts: [{name: starts, mountPath: /starts}, {name: scratch, mountPath: /scratch}]
                status: {podIP: 198.18.0.%d}
                """.formatted(name, labels, name, restartPolicy, name, env, ip)).one("Pod");
    }

    private static KubeObject lws(String name, String restartPolicy) {
        return RenderedManifest.parse("""
                apiVersion: leaderworkerset.x-k8s.io/v1
                kind: LeaderWorkerSet
                metadata: {name: %s, namespace: restarts}
                spec: {leaderWorkerTemplate: {size: 2, restartPolicy: %s}}
                """.formatted(name, restartPolicy)).one("LeaderWorkerSet");
    }

    private record Started(PodGroupRun run, PodRestarts restarts) { }

    private static Started start(Path dir, List<KubeObject> objects) throws IOException {
        Path server = Files.createDirectories(dir).resolve("server.py");
        Files.writeString(server, SERVER);
        NamespaceState state = NamespaceState.of("restarts", objects);
        List<KubeObject> pods = objects.stream().filter(o -> "Pod".equals(o.kind())).toList();
        PodGroupRun run = PodGroupRun.start(state, List.of(), dir.resolve("run"), Map.of(), new PodGroupRun.Server(server, "m"), null)
                .runInitContainers(true);
        pods.forEach(run::add);
        return new Started(run, new PodRestarts(state));
    }

    /** The files of the hostPath volume whose names start with {@code prefix} ("NAME." for a pod's server starts). */
    private static List<String> files(PodGroupRun run, String prefix) {
        List<String> out = new ArrayList<>();
        try (Stream<Path> all = Files.list(run.claim("volume-starts"))) {
            all.filter(p -> p.getFileName().toString().startsWith(prefix)).forEach(p -> out.add(p.getFileName().toString()));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out;
    }

    private static boolean listening(PodGroupRun run, String... pods) {
        return Stream.of(pods).allMatch(name -> run.pod(name).logText().contains("server: listening"));
    }

    @Test
    void theKubeletRestartsAFailedContainerInTheSamePodWithoutItsInitContainers(@TempDir Path dir) throws Exception {
        Started s = start(dir, List.of(pod("alone", 21, null, 0, "Always", ", {name: FAIL_FIRST, value: '1'}")));
        try (PodGroupRun run = s.run()) {
            assertThat(run.awaitRestarting(Duration.ofSeconds(60), () -> listening(run, "alone"), s.restarts()))
                    .as("%s%n%s", s.restarts().said(), run.logs()).isTrue();
            assertThat(s.restarts().said()).containsExactly("pod alone exited with 1; the kubelet restarted its container (restartPolicy Always)");
            assertThat(files(run, "alone.")).as("the server started twice").hasSize(2);
            assertThat(files(run, "init.alone.")).as("its init container ran once").hasSize(1);
            assertThat(run.pod("alone").logText()).as("the log goes on after the restart").contains("failing on purpose")
                    .contains("the kubelet restarted its container").contains("server: listening")
                    .as("the emptyDir is the pod's: the init container's file reached the main container, and the restarted"
                            + " container finds what it wrote before the restart")
                    .contains("server: start 0, scratch holds ['init', 'start.0']")
                    .contains("server: start 1, scratch holds ['init', 'start.0', 'start.1']");
        }
        assertNothingMountedUnder(dir);
    }

    /** Nothing is left mounted at or under {@code dir} in this JVM's mount namespace (the one the tier mounts in). */
    static void assertNothingMountedUnder(Path dir) throws IOException {
        String top = dir.toRealPath().toString();
        assertThat(Files.readAllLines(Path.of("/proc/self/mountinfo")).stream().filter(l -> l.split(" ")[4].equals(top) || l.split(" ")[4].startsWith(top + "/")).toList())
                .as("mounts left under %s after the run", top).isEmpty();
    }

    @Test
    void recreateGroupOnPodRestartRecreatesTheWholeGroupAndNoneOnlyThePod(@TempDir Path dir) throws Exception {
        Started s = start(dir.resolve("recreate"), List.of(lws("lws", "RecreateGroupOnPodRestart"), pod("lws-0", 31, "lws", 0, "Always", ""),
                pod("lws-0-1", 32, "lws", 1, "Always", ", {name: FAIL_FIRST, value: '1'}")));
        try (PodGroupRun run = s.run()) {
            assertThat(run.awaitRestarting(Duration.ofSeconds(90), () -> listening(run, "lws-0", "lws-0-1") && files(run, "lws-0.").size() == 2,
                    s.restarts())).as("%s%n%s", s.restarts().said(), run.logs()).isTrue();
            assertThat(s.restarts().said()).containsExactly("pod lws-0-1 exited with 1; the kubelet restarted its container and"
                    + " LeaderWorkerSet lws recreated group 0 (restartPolicy RecreateGroupOnPodRestart)");
            assertThat(files(run, "init.lws-0.")).as("the recreated leader ran its init container again").hasSize(2);
            assertThat(run.pod("lws-0-1").logText()).as("a new pod has a new emptyDir (its init container's file only); its log"
                    + " opens with the old pod's").contains("server: start 1, scratch holds ['init', 'start.1']")
                    .contains("the pod before it was recreated").contains("failing on purpose");
        }
        assertNothingMountedUnder(dir.resolve("recreate"));
        Started none = start(dir.resolve("none"), List.of(lws("lws", "None"), pod("lws-0", 33, "lws", 0, "Always", ""),
                pod("lws-0-1", 34, "lws", 1, "Always", ", {name: FAIL_FIRST, value: '1'}")));
        try (PodGroupRun run = none.run()) {
            assertThat(run.awaitRestarting(Duration.ofSeconds(60), () -> listening(run, "lws-0", "lws-0-1") && files(run, "lws-0-1.").size() == 2,
                    none.restarts())).as("%s%n%s", none.restarts().said(), run.logs()).isTrue();
            assertThat(files(run, "lws-0.")).as("with None the leader started once").hasSize(1);
            assertThat(none.restarts().said()).containsExactly("pod lws-0-1 exited with 1; the kubelet restarted its container"
                    + " (restartPolicy Always, LeaderWorkerSet restartPolicy None)");
        }
        assertNothingMountedUnder(dir);
    }

    @Test
    void neverStaysEndedAndASecondFailureIsACrashLoop(@TempDir Path dir) throws Exception {
        Started never = start(dir.resolve("never"), List.of(pod("once", 41, null, 0, "Never", ", {name: FAIL_FIRST, value: '1'}")));
        try (PodGroupRun run = never.run()) {
            assertThat(run.awaitRestarting(Duration.ofSeconds(60), () -> listening(run, "once"), never.restarts())).isFalse();
            assertThat(never.restarts().said()).containsExactly("pod once exited with 1; restartPolicy Never: it stays ended");
        }
        Started looping = start(dir.resolve("loop"), List.of(pod("loop", 42, null, 0, "Always", ", {name: FAIL_ALWAYS, value: '1'}")));
        try (PodGroupRun run = looping.run()) {
            assertThat(run.awaitRestarting(Duration.ofSeconds(60), () -> listening(run, "loop"), looping.restarts())).isFalse();
            assertThat(looping.restarts().said()).containsExactly("pod loop exited with 1; the kubelet restarted its container (restartPolicy Always)",
                    "pod loop exited with 1 again after its container was restarted: crash-looping (the kubelet would back off)");
        }
        assertNothingMountedUnder(dir);
    }
}
