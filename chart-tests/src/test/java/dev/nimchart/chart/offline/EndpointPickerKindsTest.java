package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.Examples;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartUnderTest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What {@code inferencePool.epp.picker} and {@code inferencePool.epp.enabled} render: each picker gets the arguments,
 * config, permissions and InferenceObjective it reads, and nothing it does not. {@code EndpointPickerIT} runs GAIE's
 * two pickers on the same objects; this class checks what they cannot show offline (the third picker, llm-d-router,
 * is not run here), and the pool without a picker.
 */
class EndpointPickerKindsTest {

    private static final Path LWEPP = Examples.named("single-node-lwepp-gateway.yaml");
    private static final Path EPP = Examples.named("single-node-inference-gateway.yaml");

    /**
     * The flags GAIE v1.6.0's cmd/lwepp defines (pkg/lwepp/server/options.go AddFlags, and controller-runtime's zap
     * flags and --kubeconfig): pflag exits on any other.
     */
    private static final Set<String> LWEPP_FLAGS = Set.of("--grpc-port", "--pool-group", "--pool-namespace", "--pool-name", "--metrics-port",
            "--endpoint-target-ports", "--grpc-health-port", "--health-checking", "--secure-serving", "--zap-devel", "--zap-encoder",
            "--zap-log-level", "--zap-stacktrace-level", "--zap-time-encoding", "--kubeconfig");

    @Test
    void theLightweightPickerGetsOnlyWhatItReads() {
        RenderedManifest m = ChartUnderTest.render(LWEPP, Map.of("networkPolicy.enabled", "true",
                "networkPolicy.ingressFrom[0].podSelector.matchLabels.app", "gateway"));
        KubeObject deployment = picker(m);
        KubeObject container = deployment.list("spec.template.spec.containers").get(0);
        List<String> flags = ((List<?>) container.at("args")).stream().map(String::valueOf).filter(a -> a.startsWith("--"))
                .map(a -> a.replaceFirst("=.*", "")).toList();
        assertThat(flags).as("the lightweight picker's flags").isNotEmpty().allMatch(LWEPP_FLAGS::contains);
        assertThat(deployment.at("spec.replicas")).as("two replicas, each answering: lwepp has no leader election").isEqualTo(2);
        assertThat(container.at("readinessProbe.grpc.service")).as("lwepp's health service").isEqualTo("inference-extension");
        assertThat(deployment.list("spec.template.spec.volumes").stream().map(v -> v.at("name")).toList())
                .as("no config volume: lwepp reads no EndpointPickerConfig").containsExactly("tmp");
        assertThat(m.find("ConfigMap", deployment.name())).as("no EndpointPickerConfig").isEmpty();
        assertThat(groups(m.find("Role", deployment.name()).orElseThrow())).as("the lightweight picker's permissions: no objectives, no leases")
                .containsExactlyInAnyOrder("", "inference.networking.k8s.io");
        assertThat(m.ofKind("InferenceObjective")).isEmpty();
        assertThat(pickerAdmitted(m)).as("a NetworkPolicy admits the picker, which scrapes no metrics").isFalse();
        KubeObject pool = m.one("InferencePool");
        assertThat(pool.at("spec.endpointPickerRef.failureMode")).isEqualTo("FailClose");
        assertThat(pool.at("spec.endpointPickerRef.name")).isEqualTo(deployment.name());
    }

    @Test
    void theFullPickerReadsItsConfigAndTheObjectivesOfItsGroup() {
        RenderedManifest m = ChartUnderTest.render(EPP, Map.of("inferencePool.epp.replicas", "2", "networkPolicy.enabled", "true",
                "networkPolicy.ingressFrom[0].podSelector.matchLabels.app", "gateway"));
        assertThat(pickerAdmitted(m)).as("a NetworkPolicy admits the picker, which scrapes /v1/metrics").isTrue();
        KubeObject deployment = picker(m);
        KubeObject container = deployment.list("spec.template.spec.containers").get(0);
        assertThat(((List<?>) container.at("args")).stream().map(String::valueOf).toList()).contains("--config-file", "--ha-enable-leader-election");
        assertThat(m.find("ConfigMap", deployment.name())).isPresent();
        assertThat(groups(m.find("Role", deployment.name()).orElseThrow())).contains("inference.networking.x-k8s.io", "coordination.k8s.io");
        assertThat(m.one("InferenceObjective").at("apiVersion")).isEqualTo("inference.networking.x-k8s.io/v1alpha2");
    }

    @Test
    void llmDRouterReadsTheObjectivesOfItsOwnGroup() {
        RenderedManifest m = ChartUnderTest.render(EPP, Map.of("inferencePool.epp.picker", "llm-d-router",
                "inferencePool.epp.image.repository", "ghcr.io/example/llm-d-router", "inferencePool.epp.image.tag", "v0.10.0"));
        assertThat(m.one("InferenceObjective").at("apiVersion")).isEqualTo("llm-d.ai/v1alpha2");
        assertThat(groups(m.find("Role", picker(m).name()).orElseThrow())).contains("llm-d.ai").doesNotContain("inference.networking.x-k8s.io");
    }

    @Test
    void withoutAPickerThePoolHasNoEndpointPickerRef() {
        RenderedManifest m = ChartUnderTest.render(EPP, Map.of("inferencePool.epp.enabled", "false", "inferencePool.objective.enabled", "false"));
        KubeObject pool = m.one("InferencePool");
        assertThat(pool.at("spec.endpointPickerRef")).as("GAIE v1.6.0: endpointPickerRef is optional").isNull();
        assertThat(m.objects().stream().filter(o -> o.name().endsWith("-epp")).map(o -> o.kind() + "/" + o.name()).toList())
                .as("no picker object").isEmpty();
        assertThat(m.one("HTTPRoute")).isNotNull();
    }

    private static KubeObject picker(RenderedManifest m) {
        return m.ofKind("Deployment").stream().filter(d -> d.name().endsWith("-epp")).findFirst().orElseThrow();
    }

    private static List<String> groups(KubeObject role) {
        return role.list("rules").stream().map(r -> String.valueOf(r.at("apiGroups[0]"))).toList();
    }

    /** Whether a NetworkPolicy of the manifest lets the endpoint picker's pods in. */
    private static boolean pickerAdmitted(RenderedManifest m) {
        return m.ofKind("NetworkPolicy").stream().flatMap(p -> p.list("spec.ingress").stream()).flatMap(i -> i.list("from").stream())
                .anyMatch(peer -> "endpoint-picker".equals(peer.at("podSelector.matchLabels[app.kubernetes.io/component]")));
    }
}
