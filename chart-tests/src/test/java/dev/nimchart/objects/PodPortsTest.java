package dev.nimchart.objects;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class PodPortsTest {

    private static KubeObject pod(String spec) {
        return RenderedManifest.parse("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n" + spec.indent(2)).one("Pod");
    }

    @Test
    void aNativeSidecarOnTheServersPortCollides() {
        KubeObject pod = pod("""
                initContainers:
                  - name: envoy
                    restartPolicy: Always
                    ports: [{containerPort: 8000}]
                containers:
                  - name: nim
                    ports: [{name: http-openai, containerPort: 8000, protocol: TCP}]
                """);
        assertThat(PodPorts.collisions(pod)).singleElement().satisfies(c -> {
            assertThat(c.first().field()).isEqualTo("spec.initContainers[0].ports[0]");
            assertThat(c.second().field()).isEqualTo("spec.containers[0].ports[0]");
            assertThat(c.toString()).contains("binds 8000/TCP", "container envoy");
        });
    }

    @Test
    void aRegularInitContainerEndsBeforeTheServerStartsButMeetsTheSidecarsStartedBeforeIt() {
        KubeObject pod = pod("""
                initContainers:
                  - name: warm
                    ports: [{containerPort: 8000}]
                  - name: agent
                    restartPolicy: Always
                    ports: [{containerPort: 9000}]
                  - name: check
                    ports: [{containerPort: 9000}]
                containers:
                  - name: nim
                    ports: [{containerPort: 8000}]
                """);
        assertThat(PodPorts.phases(pod)).hasSize(4);
        assertThat(PodPorts.collisions(pod)).extracting(c -> c.second().container()).containsExactly("check");
    }

    @Test
    void anotherProtocolOrAnotherPortIsNoCollision() {
        KubeObject pod = pod("""
                initContainers:
                  - name: dns
                    restartPolicy: Always
                    ports: [{containerPort: 8000, protocol: UDP}]
                containers:
                  - name: nim
                    ports: [{containerPort: 8000}, {containerPort: 8001}]
                  - name: exporter
                    ports: [{containerPort: 9400}]
                """);
        assertThat(PodPorts.collisions(pod)).isEmpty();
        assertThat(PodPorts.phases(pod).get(1)).extracting(PodPorts.Binding::key).containsExactly("8000/UDP", "8000/TCP", "8001/TCP", "9400/TCP");
    }

    @Test
    void twoRegularContainersOnOnePortCollide() {
        KubeObject pod = pod("""
                containers:
                  - name: a
                    ports: [{containerPort: 80}]
                  - name: b
                    ports: [{containerPort: 80}]
                """);
        assertThat(PodPorts.collisions(pod)).extracting(c -> List.of(c.first().container(), c.second().container()))
                .containsExactly(List.of("a", "b"));
    }
}
