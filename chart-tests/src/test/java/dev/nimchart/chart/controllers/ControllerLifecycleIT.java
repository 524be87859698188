package dev.nimchart.chart.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.ReleaseNamespace;
import dev.nimchart.chart.repository.Example;
import dev.nimchart.chart.repository.ChartReleases;
import dev.nimchart.chart.repository.Examples;
import dev.nimchart.chart.repository.Reconciled;
import dev.nimchart.controllers.InstalledRelease;
import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.sessions.ControllerSession;
import dev.nimchart.junit.ControllerTier;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.PodTemplate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A release's life with the controllers acting on it: an upgrade that changes the group shape (one more worker per
 * group; a changed env for single-node) replaces every pod and reaches the desired state again; an upgrade that adds a
 * replica adds whole groups and leaves the running ones alone; a rollback returns to the first shape; the SSH key
 * Secret stays the same throughout; uninstalling leaves no pod.
 */
@ExtendWith(ControllerTier.class)
class ControllerLifecycleIT {

    private static final String MARKER = "NIM_CHART_LIFECYCLE_MARKER";

    static Stream<Path> lifecycleExamples() {
        return Stream.of("multi-node-llama-3.1-405b-lws.yaml", "multi-node-llama-3.1-405b-mpijob.yaml", "single-node-llama-70b-8gpu-pvc.yaml")
                .map(Examples::named);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("lifecycleExamples")
    void reshapeScaleRollBackAndUninstall(Path file, ControllerSession session, @TempDir Path tmp) throws IOException {
        try (ReleaseNamespace ns = ReleaseNamespace.prefixed(session, file, "life-")) {
            int replicas = ns.example.integer("replicaCount");
            int workers = ns.example.multiNode() ? ns.example.integer("multiNode.workers") : 1;
            InstalledRelease installed = session.install(ChartReleases.of(ns.namespace, file));
            NamespaceState first = await(installed, pods(ns.example, replicas, workers));
            Object sshKey = ReleaseKeepsakes.sshKey(first);
            assertMarker(ns.example, first, false);

            // Reshape: one more worker per group (multi-node), a changed environment everywhere.
            Path reshape = values(tmp, "reshape.yaml", reshapeValues(ns.example, workers + (ns.example.multiNode() ? 1 : 0), replicas));
            installed.upgrade(ChartReleases.of(ns.namespace, file, reshape));
            int reshapedWorkers = workers + (ns.example.multiNode() ? 1 : 0);
            NamespaceState reshaped = await(installed, pods(ns.example, replicas, reshapedWorkers));
            assertMarker(ns.example, reshaped, true);
            assertThat(reshaped.livePodUids()).as("%s: every pod was replaced by the reshaping upgrade", ns.example.name()).doesNotContainAnyElementsOf(first.livePodUids());
            assertThat(ReleaseKeepsakes.sshKey(reshaped)).as("%s: the SSH key after the upgrade", ns.example.name()).isEqualTo(sshKey);

            // Scale: one more replica adds a whole group; the running groups stay as they are.
            Path scale = values(tmp, "scale.yaml", reshapeValues(ns.example, reshapedWorkers, replicas + 1));
            installed.upgrade(ChartReleases.of(ns.namespace, file, scale));
            NamespaceState scaled = await(installed, pods(ns.example, replicas + 1, reshapedWorkers));
            assertThat(scaled.livePodUids()).as("%s: adding a replica keeps the running pods", ns.example.name()).containsAll(reshaped.livePodUids());
            if (ns.example.multiNode()) {
                assertThat(new Reconciled(ns.example, ns.release, scaled).groups()).as("%s: groups after scaling", ns.example.name()).hasSize(replicas + 1)
                        .allSatisfy((group, pods) -> assertThat(pods.stream().filter(p -> !"launcher".equals(p.label(Reconciled.MPI_ROLE))))
                                .as("%s: GPU pods of group %s", ns.example.name(), group).hasSize(reshapedWorkers));
            }

            // Roll back to the first revision: the first shape, the first environment, the same key.
            installed.rollback(1);
            NamespaceState rolledBack = await(installed, pods(ns.example, replicas, workers));
            assertMarker(ns.example, rolledBack, false);
            assertThat(ReleaseKeepsakes.sshKey(rolledBack)).as("%s: the SSH key after the rollback", ns.example.name()).isEqualTo(sshKey);
            assertThat(rolledBack.warnings()).as("%s: Warning events through the lifecycle", ns.example.name())
                    .filteredOn(w -> !ExplainedWarnings.explains(w)).isEmpty();

            installed.uninstall();
            NamespaceState after = installed.awaitNoPods(Duration.ofSeconds(60));
            assertThat(after.workloads()).as("%s: workloads after uninstall", ns.example.name()).isEmpty();
        }
    }

    private static NamespaceState await(InstalledRelease installed, int pods) {
        return installed.awaitReady(pods, ReconciledExampleIT.RECONCILE_TIMEOUT);
    }

    /** Pods of a shape: single-node replicas; LWS replicas x workers; MPIJob replicas x (workers + launcher). */
    private static int pods(Example e, int replicas, int workers) {
        return switch (e.mode()) {
            case "leaderworkerset" -> replicas * workers;
            case "mpijob" -> replicas * (workers + 1);
            default -> replicas;
        };
    }

    private static Map<String, Object> reshapeValues(Example e, int workers, int replicas) {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("replicaCount", replicas);
        if (e.multiNode()) {
            values.put("multiNode", Map.of("workers", workers));
        }
        List<Object> env = new ArrayList<>();
        e.userEnv().values().forEach(v -> env.add(v.raw()));
        env.add(Map.of("name", MARKER, "value", "reshaped"));
        values.put("env", env);
        return values;
    }

    private static Path values(Path dir, String name, Map<String, Object> values) throws IOException {
        Path file = dir.resolve(name); // JSON is YAML
        Files.writeString(file, tools.jackson.databind.json.JsonMapper.shared().writeValueAsString(values));
        return file;
    }

    /** Whether every GPU pod's NIM container carries the upgrade's env entry (true) or none does (false). */
    private static void assertMarker(Example e, NamespaceState state, boolean expected) {
        for (KubeObject pod : state.livePods()) {
            if ("launcher".equals(pod.label(Reconciled.MPI_ROLE))) {
                continue;
            }
            assertThat(PodTemplate.env(pod.list("spec.containers").get(0)).containsKey(MARKER))
                    .as("%s: %s runs %s the upgrade's environment", e.name(), pod.name(), expected ? "with" : "without").isEqualTo(expected);
        }
    }

}
