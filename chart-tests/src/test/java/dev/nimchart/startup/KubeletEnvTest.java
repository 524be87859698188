package dev.nimchart.startup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KubeletEnvTest {

    private static final List<KubeObject> OBJECTS = RenderedManifest.parse("""
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: settings}
            data: {LEVEL: debug, NIM_SERVER_PORT: "9000"}
            ---
            apiVersion: v1
            kind: Secret
            metadata: {name: token}
            data: {HF_TOKEN: aGY=}
            ---
            apiVersion: v1
            kind: Service
            metadata: {name: nim-llm}
            spec: {clusterIP: 198.19.0.10, ports: [{name: http, port: 8000}]}
            """).objects();

    /**
     * The environment the kubelet gives container {@code c} of a pod in namespace {@code ns} beside {@link #OBJECTS};
     * {@code container}: the container's fields after its name (YAML), {@code serviceLinks}: the pod's enableServiceLinks.
     */
    private static Map<String, String> env(boolean serviceLinks, String container) {
        String pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n" + (serviceLinks ? "" : "  enableServiceLinks: false\n")
                + "  containers:\n    - name: c\n" + container.indent(6);
        KubeObject p = RenderedManifest.parse(pod).one("Pod");
        return KubeletEnv.of(p, p.list("spec.containers").get(0), NamespaceState.of("ns", OBJECTS));
    }

    @Test
    void envFromComesFirstAndALaterEntryOfANameWins() {
        Map<String, String> env = env(false, """
                envFrom: [{configMapRef: {name: settings}, prefix: APP_}, {configMapRef: {name: settings}}]
                env:
                  - {name: NIM_SERVER_PORT, value: "8000"}
                  - {name: A, value: "$(NIM_SERVER_PORT)/$(LEVEL)/$(B)/$$(LEVEL)"}
                  - {name: B, value: one}
                  - {name: B, value: two}
                """);
        assertThat(env).containsEntry("APP_LEVEL", "debug").containsEntry("NIM_SERVER_PORT", "8000").containsEntry("B", "two")
                .containsEntry("A", "8000/debug/$(B)/$(LEVEL)").doesNotContainKey("NIM_LLM_SERVICE_HOST");
        assertThat(env.keySet()).containsSubsequence("NIM_SERVER_PORT", "A", "B");
    }

    @Test
    void anOptionalReferenceToAMissingKeyLeavesTheVariableUnset() {
        Map<String, String> env = env(false, """
                env:
                  - {name: NGC_API_KEY, valueFrom: {secretKeyRef: {name: ngc-api, key: NGC_API_KEY, optional: true}}}
                  - {name: HF_TOKEN, valueFrom: {secretKeyRef: {name: token, key: HF_TOKEN}}}
                """);
        assertThat(env).doesNotContainKey("NGC_API_KEY").containsEntry("HF_TOKEN", "hf");
    }

    @Test
    void serviceLinksAreAddedAndExpandedUnlessTurnedOff() {
        Map<String, String> env = env(true, """
                env:
                  - {name: UPSTREAM, value: "http://$(NIM_LLM_SERVICE_HOST):$(NIM_LLM_SERVICE_PORT_HTTP)"}
                  - {name: NIM_LLM_PORT, value: mine}
                """);
        assertThat(env).containsEntry("UPSTREAM", "http://198.19.0.10:8000").containsEntry("NIM_LLM_SERVICE_HOST", "198.19.0.10")
                .containsEntry("NIM_LLM_PORT", "mine").containsEntry("NIM_LLM_PORT_8000_TCP_ADDR", "198.19.0.10");
    }
}
