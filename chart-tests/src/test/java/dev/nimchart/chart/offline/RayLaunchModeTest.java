package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.Example;
import dev.nimchart.chart.repository.Examples;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.PodTemplate;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartUnderTest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Ray launch mode (NIM 2.x and 3.x), for every example that starts in it: each pod's Ray role as the image's
 * entrypoint takes it, the Ray port, the worker's `ray status` startup probe with the clusterStartTimeout budget, and
 * nothing of MPI (no SSH key, no sshd, no MPI scripts). Which examples those are is decided by the documented rule
 * ({@link Example#launchMode()}), so a tag the chart misreads fails here.
 */
class RayLaunchModeTest {

    static Stream<Path> rayExamples() {
        return Examples.multiNodeWithRay();
    }

    @Test
    void theRepositoryHasRayExamplesOfBothCurrentNimGenerations() {
        List<String> tags = rayExamples().map(f -> Example.of(f).text("image.tag")).toList();
        assertThat(tags).as("image tags of the Ray examples").anyMatch(t -> t.startsWith("2.")).anyMatch(t -> t.startsWith("3."));
        assertThat(rayExamples().map(f -> Example.of(f).integer("multiNode.workers"))).as("group sizes").contains(4);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rayExamples")
    void theLeaderStartsTheRayHeadAndEveryWorkerJoinsItsOwnGroupsHead(Path file) {
        Example e = Example.of(file);
        String port = Integer.toString(e.integer("multiNode.ray.port"));
        for (PodTemplate t : e.templates) {
            KubeObject nim = t.nim();
            String where = e.name() + ": " + t;
            List<String> expected = t.role().equals("leader") ? List.of("nim-serve-ray", "--head", "--port", port)
                    : List.of("nim-serve-ray", "--head-address", "$(LWS_LEADER_ADDRESS):" + port);
            assertThat(nim.at("args")).as("%s: the Ray role as the image entrypoint's arguments", where).isEqualTo(expected);
            assertThat(nim.list("ports")).as("%s: the ray port", where)
                    .anyMatch(p -> "ray".equals(p.at("name")) && port.equals(String.valueOf(p.at("containerPort"))))
                    .noneMatch(p -> "ssh".equals(p.at("name")));
            assertThat(t.volumes()).as("%s mounts no SSH key", where).noneMatch(v -> v.at("secret") != null);
            Map<String, KubeObject> env = PodTemplate.env(nim);
            assertThat(env.get("NIM_JSONL_LOGGING").at("value")).as("%s: JSON logging off (Ray workers cannot use it)", where).isEqualTo("0");
            assertThat(env.get("RAY_USAGE_STATS_ENABLED").at("value")).as(where).isEqualTo("0");
            assertThat(env.get("NIM_LEADER_ROLE").at("value")).as(where).isEqualTo(t.role().equals("leader") ? "1" : "0");
            assertThat(env.get("NIM_NODE_RANK").at("valueFrom.fieldRef.fieldPath")).as(where)
                    .isEqualTo("metadata.labels['leaderworkerset.sigs.k8s.io/worker-index']");
            assertThat(env.get("NIM_NUM_COMPUTE_NODES").at("value")).as(where).isEqualTo(Integer.toString(e.integer("multiNode.workers")));
        }
        assertThat(e.manifest.ofKind("Secret")).as("%s: no SSH key", e.name()).noneMatch(s -> s.name().endsWith("-ssh"));
        assertThat(e.manifest.ofKind("MPIJob")).as(e.name()).isEmpty();
        for (KubeObject scripts : e.manifest.ofKind("ConfigMap").stream().filter(c -> c.name().endsWith("-mpi")).toList()) {
            assertThat(((Map<?, ?>) scripts.at("data")).keySet().stream().map(String::valueOf).toList())
                    .as("%s: only the library path script, no MPI scripts", e.name()).containsExactly("library-path.sh");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rayExamples")
    void aWorkerIsStartedOnceRayAnswersInItsContainerWithinClusterStartTimeout(Path file) {
        Example e = Example.of(file);
        for (PodTemplate t : e.templates) {
            String where = e.name() + ": " + t;
            if (t.role().equals("worker")) {
                KubeObject probe = new KubeObject(castMap(t.nim().at("startupProbe")));
                assertThat(probe.at("exec.command")).as(where).isEqualTo(List.of("/bin/sh", "-c", "ray status"));
                int period = ((Number) probe.at("periodSeconds")).intValue();
                int failures = ((Number) probe.at("failureThreshold")).intValue();
                int timeout = e.integer("multiNode.clusterStartTimeout");
                assertThat(period * failures).as("%s: the startup budget covers clusterStartTimeout %d s by less than a period", where, timeout)
                        .isGreaterThanOrEqualTo(timeout).isLessThan(timeout + period);
                assertThat(t.nim().at("readinessProbe")).as("%s: a worker serves nothing", where).isNull();
                assertThat(t.nim().at("livenessProbe")).as(where).isNull();
            } else {
                assertThat(t.nim().at("startupProbe.httpGet.path")).as("%s: the leader is started once it serves", where)
                        .isEqualTo(e.text("startupProbe.path"));
                assertThat(t.nim().at("readinessProbe.httpGet.path")).as(where).isEqualTo(e.text("readinessProbe.path"));
            }
        }
    }

    @ParameterizedTest(name = "tag {0} with launchMode {1}: {2}")
    @CsvSource({"1.0.3, auto, mpi", "1.8.4, auto, mpi", "v2.0.0, auto, ray", "2.0.13, auto, ray", "3.0.0, auto, ray", "10.1, auto, ray",
            "3.0.0, mpi, mpi", "3.0.0, native, native", "2.0.13, ray, ray", "latest, ray, ray", "latest, mpi, mpi"})
    void anExplicitModeAlwaysWinsAndAutoReadsTheMajorVersion(String tag, String mode, String expected) {
        RenderedManifest m = ChartUnderTest.render(Examples.named("multi-node-llama-3.1-405b-lws.yaml"),
                Map.of("image.tag", tag, "multiNode.launchMode", mode));
        KubeObject leader = PodTemplate.of(m).stream().filter(t -> t.role().equals("leader")).findFirst().orElseThrow().nim();
        String actual = String.valueOf(leader.at("args")).contains("nim-serve-ray") ? "ray"
                : String.valueOf(leader.at("command")).contains("leader.sh") ? "mpi" : "native";
        assertThat(actual).as("tag %s, launchMode %s", tag, mode).isEqualTo(expected);
    }

    @Test
    void aNim3TagTurnsTheSeedsGroupIntoRayWithNoSshKeyAndNoMpiScripts() {
        Path lws = Examples.named("multi-node-llama-3.1-405b-lws.yaml");
        RenderedManifest ray = ChartUnderTest.render(lws, Map.of("image.tag", "3.0.0"));
        assertThat(PodTemplate.of(ray)).allSatisfy(t -> assertThat(t.volumes()).noneMatch(v -> v.at("secret") != null));
        assertThat(ray.ofKind("ConfigMap")).noneMatch(c -> c.name().endsWith("-mpi"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> castMap(Object o) {
        return (Map<String, Object>) o;
    }
}
