package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nimchart.chart.repository.Examples;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartUnderTest;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The names controllers build on: the LeaderWorkerSet is never named like a Service of the release (its controller
 * would not create the group's headless Service), service.name may not take a controller's headless Service name in
 * any mode, and an MPIJob's name follows its spec (mpi-operator never changes a running MPIJob's pods).
 */
class WorkloadNamesTest {

    private static final Path LWS = Examples.named("multi-node-llama-3.1-405b-lws.yaml");
    private static final Path MPI = Examples.named("multi-node-llama-3.1-405b-mpijob.yaml");
    private static final Path STS = Examples.named("single-node-minimal.yaml");

    @Test
    void noServiceOfTheReleaseHasTheLeaderWorkerSetsName() {
        for (Path file : Examples.multiNode().toList()) {
            RenderedManifest m = ChartUnderTest.render(file);
            for (KubeObject lws : m.ofKind("LeaderWorkerSet")) {
                assertThat(m.ofKind("Service")).extracting(KubeObject::name).as(file.getFileName().toString()).doesNotContain(lws.name());
            }
        }
    }

    @Test
    void serviceNameMayNotTakeAControllersHeadlessServiceName() {
        Map<Path, String> taken = new LinkedHashMap<>();
        taken.put(LWS, ChartUnderTest.render(LWS).one("LeaderWorkerSet").name());
        taken.put(MPI, ChartUnderTest.render(MPI).one("MPIJob").name());
        taken.put(STS, ChartUnderTest.render(STS).one("StatefulSet").at("spec.serviceName").toString());
        taken.forEach((file, name) -> assertThatThrownBy(() -> ChartUnderTest.render(file, Map.of("service.name", name)))
                .as("%s with service.name %s", file.getFileName(), name)
                .hasMessageContaining("service.name is \"" + name + "\", the name of the headless Service"));
        assertThat(ChartUnderTest.render(LWS, Map.of("service.name", "my-endpoint")).ofKind("Service")).extracting(KubeObject::name)
                .contains("my-endpoint");
    }

    @Test
    void anMpiJobIsRenamedWhenItsSpecChangesAndKeepsItsNameWhenReplicasAreAdded() {
        List<String> first = names(ChartUnderTest.render(MPI));
        List<String> twoReplicas = names(ChartUnderTest.render(MPI, Map.of("replicaCount", "2")));
        List<String> moreWorkers = names(ChartUnderTest.render(MPI, Map.of("multiNode.workers", "3")));
        List<String> otherEnv = names(ChartUnderTest.render(MPI, Map.of("env[0].name", "NIM_EXTRA", "env[0].value", "extra")));
        assertThat(first).hasSize(1).allMatch(n -> n.matches(".*-0-[0-9a-f]{5}"));
        assertThat(twoReplicas).as("adding a replica keeps the first MPIJob").hasSize(2).startsWith(first.get(0));
        assertThat(moreWorkers).as("one more worker replaces the MPIJob").doesNotContainAnyElementsOf(first);
        assertThat(otherEnv).as("another environment replaces the MPIJob").doesNotContainAnyElementsOf(first);
        assertThat(names(ChartUnderTest.render(MPI))).as("the same values give the same name").isEqualTo(first);
    }

    private static List<String> names(RenderedManifest m) {
        return m.ofKind("MPIJob").stream().map(KubeObject::name).toList();
    }
}
