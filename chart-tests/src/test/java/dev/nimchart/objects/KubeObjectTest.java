package dev.nimchart.objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class KubeObjectTest {

    private final KubeObject deployment = RenderedManifest.parse("""
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: nim
              namespace: ai
              labels:
                app.kubernetes.io/name: nim-llm
            spec:
              template:
                spec:
                  containers:
                    - name: nim
                      resources:
                        limits:
                          nvidia.com/gpu: 8
            """).one("Deployment");

    @Test
    void readsTheMetadata() {
        assertThat(deployment.kind()).isEqualTo("Deployment");
        assertThat(deployment.apiVersion()).isEqualTo("apps/v1");
        assertThat(deployment.name()).isEqualTo("nim");
        assertThat(deployment.namespace()).isEqualTo("ai");
        assertThat(deployment.labels()).containsExactly(Map.entry("app.kubernetes.io/name", "nim-llm"));
        assertThat(deployment.annotations()).isEmpty();
        assertThat(deployment).hasToString("Deployment/nim");
    }

    @Test
    void atFollowsKeysListIndexesAndBracketedKeysWithDots() {
        assertThat(deployment.at("spec.template.spec.containers[0].resources.limits[nvidia.com/gpu]")).isEqualTo(8);
        assertThat(deployment.at("spec.template.spec.containers[0].name")).isEqualTo("nim");
    }

    @Test
    void atReturnsNullForAnythingAbsent() {
        assertThat(deployment.at("spec.replicas")).isNull();
        assertThat(deployment.at("spec.template.spec.containers[1].name")).isNull();
        assertThat(deployment.at("spec.template.spec.containers.name")).isNull();
        assertThat(deployment.at("metadata.name.first")).isNull();
    }

    @Test
    void atRefusesAMalformedPath() {
        assertThatThrownBy(() -> deployment.at("spec.containers[0")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void toJsonKeepsTypes() {
        assertThat(deployment.toJson())
                .startsWith("{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\"")
                .contains("\"nvidia.com/gpu\":8");
    }
}
