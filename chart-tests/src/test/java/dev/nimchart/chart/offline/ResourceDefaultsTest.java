package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.Example;
import dev.nimchart.chart.repository.Examples;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.PodTemplate;
import dev.nimchart.render.ChartUnderTest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Resources of every pod the chart makes: each container asks for CPU and memory (so no pod is BestEffort, the first
 * evicted under memory pressure), /dev/shm stays below the memory limit it counts against, and an emptyDir model cache
 * has a size limit and an ephemeral-storage request of that size.
 */
class ResourceDefaultsTest {

    private static final Path MINIMAL = Examples.named("single-node-minimal.yaml");

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.ALL)
    void everyContainerOfEveryPodRequestsCpuAndMemory(Path file) {
        Example e = Example.of(file);
        for (PodTemplate t : e.templates) {
            List<KubeObject> containers = new ArrayList<>(t.initContainers());
            containers.addAll(t.containers());
            for (KubeObject c : containers) {
                for (String resource : List.of("cpu", "memory")) {
                    assertThat(c.at("resources.requests." + resource)).as("%s: %s, container %s requests %s", e.name(), t,
                            c.at("name"), resource).isNotNull();
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.ALL)
    void sharedMemoryStaysBelowTheMemoryLimitItCountsAgainst(Path file) {
        Example e = Example.of(file);
        for (PodTemplate t : e.gpuTemplates()) {
            Object shm = t.volumes().stream().filter(v -> "dshm".equals(v.at("name"))).map(v -> v.at("emptyDir.sizeLimit"))
                    .findFirst().orElse(null);
            Object memory = t.nim().at("resources.limits.memory");
            if (shm != null && memory != null) {
                assertThat(Quantity.of(shm)).as("%s: %s /dev/shm %s against the memory limit %s", e.name(), t, shm, memory)
                        .isLessThan(Quantity.of(memory));
            }
        }
    }

    @Test
    void theDefaultsGiveTheGpuPodRequestsButNoLimitTheUserDidNotChoose() {
        KubeObject nim = Example.of(MINIMAL).templates.get(0).nim();
        assertThat(nim.at("resources.requests.memory")).as("memory request: QoS Burstable, not BestEffort").isNotNull();
        assertThat(nim.at("resources.requests.cpu")).isNotNull();
        assertThat(nim.at("resources.limits.memory")).as("no default memory limit (it would OOM-kill a large model while it loads)").isNull();
        assertThat(nim.at("resources.limits.cpu")).as("a CPU limit throttles the server").isNull();
        // NVIDIA's own 405B file sets only the GPU count: Helm merges the defaults into it, and it gets no limit either.
        KubeObject seed = Example.of(Examples.named("multi-node-llama-3.1-405b-lws.yaml")).gpuTemplates().get(0).nim();
        assertThat(seed.at("resources.limits.memory")).isNull();
        assertThat(seed.at("resources.requests.memory")).isNotNull();
    }

    @Test
    void anEmptyDirCacheHasASizeLimitAndTheNimContainerRequestsThatMuchDisk() {
        PodTemplate t = Example.of(MINIMAL).templates.get(0);
        KubeObject cache = t.volumes().stream().filter(v -> "model-store".equals(v.at("name"))).findFirst().orElseThrow();
        Object size = Example.of(MINIMAL).values.at("emptyDir.sizeLimit");
        assertThat(cache.at("emptyDir.sizeLimit")).isEqualTo(size).isNotNull();
        assertThat(t.nim().at("resources.requests[ephemeral-storage]")).isEqualTo(size);

        PodTemplate own = PodTemplate.of(ChartUnderTest.render(MINIMAL, Map.of("resources.requests.ephemeral-storage", "80Gi",
                "emptyDir.sizeLimit", "70Gi"))).get(0);
        assertThat(own.nim().at("resources.requests[ephemeral-storage]")).as("the user's request stays").isEqualTo("80Gi");
    }

    @Test
    void aCacheOnAClaimAsksForNoEphemeralStorage() {
        PodTemplate t = Example.of(Examples.named("single-node-llama-70b-8gpu-pvc.yaml")).templates.get(0);
        assertThat(t.nim().at("resources.requests[ephemeral-storage]")).isNull();
    }

    @Test
    void aBudgetLetsPodsThatAreNotReadyBeEvicted() {
        KubeObject pdb = ChartUnderTest.render(MINIMAL, Map.of("podDisruptionBudget.enabled", "true")).one("PodDisruptionBudget");
        assertThat(pdb.at("spec.unhealthyPodEvictionPolicy")).isEqualTo("AlwaysAllow");
        pdb = ChartUnderTest.render(MINIMAL, Map.of("podDisruptionBudget.enabled", "true",
                "podDisruptionBudget.unhealthyPodEvictionPolicy", "IfHealthyBudget")).one("PodDisruptionBudget");
        assertThat(pdb.at("spec.unhealthyPodEvictionPolicy")).isEqualTo("IfHealthyBudget");
    }

    /** A Kubernetes quantity's value in bytes (binary and decimal suffixes), enough to compare sizes. */
    private record Quantity(double value) implements Comparable<Quantity> {
        private static final Map<String, Double> FACTORS = Map.ofEntries(Map.entry("", 1.0), Map.entry("k", 1e3),
                Map.entry("M", 1e6), Map.entry("G", 1e9), Map.entry("T", 1e12), Map.entry("Ki", 1024.0),
                Map.entry("Mi", Math.pow(1024, 2)), Map.entry("Gi", Math.pow(1024, 3)), Map.entry("Ti", Math.pow(1024, 4)));

        static Quantity of(Object text) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("^([0-9.]+)([A-Za-z]*)$").matcher(text.toString());
            assertThat(m.matches()).as("quantity %s", text).isTrue();
            Double factor = FACTORS.get(m.group(2));
            assertThat(factor).as("suffix of %s", text).isNotNull();
            return new Quantity(Double.parseDouble(m.group(1)) * factor);
        }

        @Override
        public int compareTo(Quantity o) {
            return Double.compare(value, o.value);
        }
    }
}
