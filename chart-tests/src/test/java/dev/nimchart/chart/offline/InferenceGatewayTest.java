package dev.nimchart.chart.offline;

import dev.nimchart.chart.repository.Examples;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.Example;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.PodTemplate;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartUnderTest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.yaml.snakeyaml.Yaml;

/**
 * Inference Gateway routing (inferencePool.*) and LLM-aware autoscaling on the rendered objects of every example, as
 * written and again with the pool turned on: the InferencePool selects exactly the serving pods' templates (never a
 * worker, a launcher or the endpoint picker) on their API port, its endpoint picker is the Service whose pods run the
 * picker for this pool with NIM's metrics path and names, an HTTPRoute's only backend is the pool, and the autoscaler
 * (HorizontalPodAutoscaler or KEDA ScaledObject, never both) targets the release's workload.
 */
class InferenceGatewayTest {

    private static final Map<String, String> POOL = Map.of("inferencePool.enabled", "true");

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.ROUTABLE)
    void thePoolSelectsExactlyTheServingPods(Path file) {
        Example e = Example.of(file);
        RenderedManifest m = ChartUnderTest.render(file, POOL);
        List<KubeObject> pools = m.ofKind("InferencePool");
        assertThat(pools).as("%s: one InferencePool", e.name()).hasSize(1);
        KubeObject pool = pools.get(0);
        Map<?, ?> selector = (Map<?, ?>) pool.at("spec.selector.matchLabels");
        for (PodTemplate t : ServingPods.selectedExactly(e.name(), "the pool", selector, PodTemplate.of(m))) {
            assertThat(t.nim().list("ports").stream().map(p -> String.valueOf(p.at("containerPort"))))
                    .as("%s: %s serves on the pool's target port", e.name(), t)
                    .contains(String.valueOf(pool.at("spec.targetPorts[0].number")));
        }
        assertThat(pool.at("spec.targetPorts[0].number")).as(e.name()).isEqualTo(e.integer("model.openaiPort"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.ROUTABLE)
    void theEndpointPickerServesThisPoolOnNimMetrics(Path file) {
        Example e = Example.of(file);
        RenderedManifest m = ChartUnderTest.render(file, POOL);
        KubeObject pool = m.ofKind("InferencePool").get(0);
        KubeObject service = m.find("Service", String.valueOf(pool.at("spec.endpointPickerRef.name"))).orElseThrow();
        assertThat(service.list("spec.ports").stream().map(p -> p.at("name") + "/" + p.at("port") + "/" + p.at("appProtocol")).toList())
                .as(e.name()).containsExactly("grpc-ext-proc/9002/null", "grpc-health/9003/grpc", "http-metrics/9090/null");
        assertThat(pool.at("spec.endpointPickerRef.port.number")).as(e.name()).isEqualTo(9002);
        List<PodTemplate> pickers = PodTemplate.of(m).stream().filter(t -> t.selectedBy((Map<?, ?>) service.at("spec.selector"))).toList();
        assertThat(pickers).as("%s: the picker's Service selects the picker's pods only", e.name())
                .singleElement().matches(t -> t.role().equals(PodTemplate.ENDPOINT_PICKER) && !t.gpuPod());
        KubeObject epp = pickers.get(0).containers().get(0);
        List<String> args = ((List<?>) epp.at("args")).stream().map(String::valueOf).toList();
        assertThat(args).as(e.name()).containsSubsequence("--pool-name", pool.name()).containsSubsequence("--pool-group", "inference.networking.k8s.io")
                .as("%s: the metrics path is the config's (the flag is deprecated in GAIE v1.5.0)", e.name())
                .noneMatch(a -> a.startsWith("--model-server-metrics-path"));
        assertThat(pickers.get(0).gpus()).as(e.name()).isZero();
        if ("lwepp".equals(String.valueOf(e.text("inferencePool.epp.picker")))) {
            // GAIE v1.6.0's lightweight picker reads no config and no metrics (EndpointPickerKindsTest).
            assertThat(m.find("ConfigMap", service.name())).as(e.name()).isEmpty();
            return;
        }
        Map<String, Object> config = new Yaml().load(m.find("ConfigMap", service.name()).orElseThrow().at("data[endpoint-picker.yaml]").toString());
        KubeObject c = new KubeObject(config);
        assertThat(c.at("kind")).isEqualTo("EndpointPickerConfig");
        assertThat(c.list("plugins").stream().filter(p -> "metrics-data-source".equals(p.at("type"))).map(p -> p.at("parameters.path")).toList())
                .as(e.name()).containsExactly("/v1/metrics");
        // NIM 1.x exports its own names; NIM 2.x and later pass vLLM's through (docs/routing-and-autoscaling.md).
        boolean vllm = String.valueOf(e.text("image.tag")).matches("v?([2-9]|[1-9][0-9]+)\\..*");
        assertThat(c.at("plugins[4].parameters.engineConfigs[0]")).as("%s: the picker reads the metric names its NIM exports", e.name())
                .isEqualTo(vllm ? Map.of("name", "nim", "queuedRequestsSpec", "vllm:num_requests_waiting", "runningRequestsSpec",
                        "vllm:num_requests_running", "kvUsageSpec", "vllm:kv_cache_usage_perc", "loraSpec", "", "cacheInfoSpec", "")
                        : Map.of("name", "nim", "queuedRequestsSpec", "num_requests_waiting", "runningRequestsSpec", "num_requests_running",
                        "kvUsageSpec", "gpu_cache_usage_perc", "loraSpec", "", "cacheInfoSpec", ""));
        KubeObject role = m.find("Role", service.name()).orElseThrow();
        assertThat(role.list("rules").stream().map(r -> r.at("apiGroups[0]") + "/" + r.at("resources")).toList()).as(e.name())
                .contains("/[pods]", "inference.networking.k8s.io/[inferencepools]");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.ALL)
    void routesAndAutoscalersTargetTheRelease(Path file) {
        Example e = Example.of(file);
        RenderedManifest m = e.manifest;
        for (KubeObject route : m.ofKind("HTTPRoute")) {
            assertThat(route.list("spec.rules").stream().flatMap(r -> r.list("backendRefs").stream()).map(b -> b.at("kind") + "/" + b.at("name")).toList())
                    .as(e.name()).containsExactly("InferencePool/" + m.ofKind("InferencePool").get(0).name());
            assertThat(route.list("spec.parentRefs")).as("%s: the route has a parent", e.name()).isNotEmpty();
        }
        List<KubeObject> scalers = new java.util.ArrayList<>(m.ofKind("HorizontalPodAutoscaler"));
        scalers.addAll(m.ofKind("ScaledObject"));
        assertThat(scalers).as("%s: one autoscaler", e.name()).hasSize(e.flag("autoscaling.enabled") ? 1 : 0);
        for (KubeObject s : scalers) {
            String kind = String.valueOf(s.at("spec.scaleTargetRef.kind"));
            assertThat(kind).as(e.name()).isEqualTo(switch (e.mode()) {
                case "leaderworkerset" -> "LeaderWorkerSet";
                case "deployment" -> "Deployment";
                default -> "StatefulSet";
            });
            assertThat(m.ofKind(kind).stream().map(KubeObject::name)).as(e.name()).contains(String.valueOf(s.at("spec.scaleTargetRef.name")));
        }
    }

    /**
     * Leader election follows the picker's command line, whoever put the flag there: its Role may take Leases and its
     * probes ask GAIE v1.5.0's leader-election health services ("liveness" answers on every replica, "readiness" on the
     * leader: cmd/epp/runner/health.go), and without it the picker's single health answer.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.CsvSource({
            "replicas 1, 1, '', false",
            "replicas 2 (the chart's flag), 2, '', true",
            "replicas 1 with the user's flag, 1, --ha-enable-leader-election, true",
            "replicas 1 with the user's flag set to true, 1, --ha-enable-leader-election=true, true",
            "replicas 1 with the flag set to false, 1, --ha-enable-leader-election=false, false"})
    void leaderElectionBringsItsLeasesAndItsProbeServices(String name, String replicas, String extraArg, boolean elected) {
        Path file = dev.nimchart.chart.repository.Examples.all().filter(f -> f.getFileName().toString().equals("single-node-inference-gateway.yaml"))
                .findFirst().orElseThrow();
        Map<String, String> set = new java.util.HashMap<>(Map.of("inferencePool.epp.replicas", replicas));
        if (!extraArg.isEmpty()) {
            set.put("inferencePool.epp.extraArgs[0]", extraArg);
        }
        RenderedManifest m = ChartUnderTest.render(file, set);
        KubeObject deployment = m.ofKind("Deployment").stream().filter(d -> "endpoint-picker".equals(d.labels().get("app.kubernetes.io/component")))
                .findFirst().orElseThrow();
        KubeObject epp = deployment.list("spec.template.spec.containers").get(0);
        assertThat(List.of(epp.at("livenessProbe.grpc.service"), epp.at("readinessProbe.grpc.service"))).as(name)
                .isEqualTo(elected ? List.of("liveness", "readiness") : List.of("inference-extension", "inference-extension"));
        KubeObject role = m.find("Role", deployment.name()).orElseThrow();
        assertThat(role.list("rules").stream().map(r -> String.valueOf(r.at("resources"))).toList()).as(name)
                .matches(resources -> resources.contains("[leases]") == elected);
    }
}
