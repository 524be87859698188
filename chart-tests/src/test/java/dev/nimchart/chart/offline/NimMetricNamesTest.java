package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nimchart.chart.repository.Examples;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartRefusedException;
import dev.nimchart.render.ChartUnderTest;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The metric names the autoscaler, KEDA and the endpoint picker may read follow the NIM version of image.tag: NIM 1.x
 * exports its own names (num_requests_waiting, gpu_cache_usage_perc, ...), NIM 2.x and later pass the vLLM backend's
 * through unchanged (vllm:num_requests_waiting, vllm:kv_cache_usage_perc, ...), a tag that is no version accepts both.
 * The chart's defaults (the picker's engine metrics, KEDA's metric) become vLLM's names with NIM 2.x and later; names
 * the user lists in autoscaling.nimMetrics are never rewritten.
 */
class NimMetricNamesTest {

    private static final Path MINIMAL = Examples.named("single-node-minimal.yaml");

    private static Map<String, String> autoscaling(String tag, String metric) {
        Map<String, String> set = new HashMap<>(Map.of("image.tag", tag, "autoscaling.enabled", "true",
                "autoscaling.nimMetrics[0].name", metric, "autoscaling.nimMetrics[0].type", "Pods", "autoscaling.nimMetrics[0].averageValue", "4"));
        return set;
    }

    private static Object hpaMetric(RenderedManifest m) {
        return m.ofKind("HorizontalPodAutoscaler").get(0).at("spec.metrics[0].pods.metric.name");
    }

    @Test
    void eachNimVersionTakesTheNamesItExports() {
        assertThat(hpaMetric(ChartUnderTest.render(MINIMAL, autoscaling("1.8.4", "num_requests_waiting")))).isEqualTo("num_requests_waiting");
        assertThat(hpaMetric(ChartUnderTest.render(MINIMAL, autoscaling("2.0.13", "vllm:num_requests_waiting")))).isEqualTo("vllm:num_requests_waiting");
        assertThat(hpaMetric(ChartUnderTest.render(MINIMAL, autoscaling("3.0.0", "vllm:kv_cache_usage_perc")))).isEqualTo("vllm:kv_cache_usage_perc");
        assertThat(hpaMetric(ChartUnderTest.render(MINIMAL, autoscaling("latest", "num_requests_waiting")))).isEqualTo("num_requests_waiting");
        assertThat(hpaMetric(ChartUnderTest.render(MINIMAL, autoscaling("latest", "vllm:num_requests_waiting")))).isEqualTo("vllm:num_requests_waiting");
        Map<String, String> listed = autoscaling("2.0.13", "sglang:num_queue_reqs");
        listed.put("metrics.additionalExportedNames[0]", "sglang:num_queue_reqs");
        assertThat(hpaMetric(ChartUnderTest.render(MINIMAL, listed))).as("a name the user says the NIM exports").isEqualTo("sglang:num_queue_reqs");
    }

    @Test
    void aNameOfTheOtherGenerationIsRefusedWithTheRightOne() {
        assertThatThrownBy(() -> ChartUnderTest.render(MINIMAL, autoscaling("1.8.4", "vllm:kv_cache_usage_perc")))
                .isInstanceOf(ChartRefusedException.class).hasMessageContaining("autoscaling.nimMetrics[0].name")
                .hasMessageContaining("Write \"gpu_cache_usage_perc\"");
        assertThatThrownBy(() -> ChartUnderTest.render(MINIMAL, autoscaling("2.0.13", "gpu_cache_usage_perc")))
                .isInstanceOf(ChartRefusedException.class).hasMessageContaining("write \"vllm:kv_cache_usage_perc\"");
        assertThatThrownBy(() -> ChartUnderTest.render(MINIMAL, autoscaling("2.0.13", "num_request_max")))
                .as("a NIM 1.x name with no vLLM equivalent").isInstanceOf(ChartRefusedException.class)
                .hasMessageContaining("(NIM 2.x, image.tag 2.0.13)");
        assertThatThrownBy(() -> ChartUnderTest.render(MINIMAL, autoscaling("latest", "vllm:gpu_cache_usage_perc")))
                .as("vLLM's old name is no name of either").isInstanceOf(ChartRefusedException.class);
    }

    @Test
    void theChartsDefaultsFollowTheNimVersion() {
        for (String tag : List.of("1.8.4", "2.0.13")) {
            boolean vllm = tag.startsWith("2");
            Map<String, String> set = new HashMap<>(Map.of("image.tag", tag, "inferencePool.enabled", "true", "autoscaling.enabled", "true",
                    "autoscaling.keda.enabled", "true", "autoscaling.keda.prometheus.serverAddress", "http://prometheus.monitoring.svc:9090"));
            RenderedManifest m = ChartUnderTest.render(MINIMAL, set);
            KubeObject config = new KubeObject(new Yaml().load(m.ofKind("ConfigMap").stream()
                    .filter(c -> c.at("data[endpoint-picker.yaml]") != null).findFirst().orElseThrow().at("data[endpoint-picker.yaml]").toString()));
            assertThat(config.at("plugins[4].parameters.engineConfigs[0].queuedRequestsSpec")).as(tag)
                    .isEqualTo(vllm ? "vllm:num_requests_waiting" : "num_requests_waiting");
            assertThat(config.at("plugins[4].parameters.engineConfigs[0].kvUsageSpec")).as(tag)
                    .isEqualTo(vllm ? "vllm:kv_cache_usage_perc" : "gpu_cache_usage_perc");
            assertThat(String.valueOf(m.ofKind("ScaledObject").get(0).at("spec.triggers[0].metadata.query"))).as(tag)
                    .startsWith(vllm ? "sum(vllm:num_requests_waiting{" : "sum(num_requests_waiting{");
        }
    }
}
