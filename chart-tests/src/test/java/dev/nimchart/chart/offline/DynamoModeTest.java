package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.Examples;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartRenderer;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.render.TestHookRenderer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * NIM 3.0's Dynamo single-container mode (model.dynamo.mode single): exactly one selector, the Dynamo frontend's port
 * (DYN_HTTP_PORT) is the serving port every object uses, the probes ask the frontend's own endpoints, and helm test
 * fails on a worker that fell back to plain vLLM.
 */
class DynamoModeTest {

    static final String EXAMPLE = "single-node-dynamo-nim3.yaml";
    private static ChartRenderer renderer;

    @TempDir
    Path work;

    @Test
    void exactlyOneSelectorIsRenderedAndTheFrontendListensOnTheServingPortEveryObjectUses() {
        for (String port : List.of("8000", "8123")) {
            RenderedManifest m = render(EXAMPLE, Map.of("model.openaiPort", port, "service.openaiPort", port));
            KubeObject nim = nimContainer(m);
            Map<String, String> env = env(nim);
            assertThat(env.keySet().stream().filter(n -> n.startsWith("NIM_DYNAMO_"))).as("the Dynamo selectors rendered")
                    .containsExactly("NIM_DYNAMO_SINGLE");
            assertThat(env.get("NIM_DYNAMO_SINGLE")).isEqualTo("1");
            int containerPort = nim.list("ports").stream().filter(p -> "http-openai".equals(p.at("name")))
                    .map(p -> Integer.parseInt(p.at("containerPort").toString())).findFirst().orElseThrow();
            assertThat(env.get("DYN_HTTP_PORT")).as("DYN_HTTP_PORT is the container port http-openai").isEqualTo(Integer.toString(containerPort))
                    .isEqualTo(port);
            KubeObject service = m.ofKind("Service").stream().filter(s -> "inference".equals(s.labels().get("nim-llm/service"))).findFirst()
                    .orElseThrow();
            assertThat(service.list("spec.ports")).extracting(p -> p.at("targetPort")).contains("http-openai");
            KubeObject policy = m.ofKind("NetworkPolicy").stream().filter(p -> p.name().endsWith("-inference")).findFirst().orElseThrow();
            assertThat(policy.list("spec.ingress").get(0).list("ports")).extracting(p -> p.at("port")).containsExactly("http-openai");
            for (String probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
                assertThat(nim.at(probe + ".httpGet.port")).as(probe + " port").isEqualTo("http-openai");
            }
            assertThat(nim.at("livenessProbe.httpGet.path")).isEqualTo("/live");
            assertThat(nim.at("readinessProbe.httpGet.path")).isEqualTo("/health");
            assertThat(nim.at("startupProbe.httpGet.path")).isEqualTo("/health");
        }
    }

    @Test
    void theStandardModeRendersNoDynamoVariableAndKeepsNimsHealthPaths() {
        KubeObject nim = nimContainer(render("single-node-minimal.yaml", Map.of()));
        assertThat(env(nim).keySet()).noneMatch(n -> n.startsWith("NIM_DYNAMO_") || n.startsWith("DYN_"));
        assertThat(nim.at("readinessProbe.httpGet.path")).isEqualTo("/v1/health/ready");
    }

    @Test
    void theServiceMonitorScrapesTheFrontendsMetricsPathInDynamoMode() {
        Map<String, String> sets = Map.of("metrics.serviceMonitor.enabled", "true");
        assertThat(render(EXAMPLE, sets).one("ServiceMonitor").list("spec.endpoints").get(0).at("path")).isEqualTo("/metrics");
        assertThat(render("single-node-minimal.yaml", sets).one("ServiceMonitor").list("spec.endpoints").get(0).at("path"))
                .isEqualTo("/v1/metrics");
    }

    @Test
    void helmTestPassesOnAWorkerRegisteredWithDynamoAndFailsOnTheFallbackToPlainVllm() throws Exception {
        KubeObject test = render(EXAMPLE, Map.of()).ofKind("Pod").stream().filter(p -> p.name().endsWith("-test")).findFirst().orElseThrow()
                .list("spec.containers").get(0);
        String models = "{\"object\":\"list\",\"data\":[{\"id\":\"meta/llama-3.1-8b-instruct\",\"object\":\"model\"}]}";
        // Dynamo's frontend lists the worker endpoints it discovered (Dynamo's health-check reference).
        String dynamo = "{\"status\":\"healthy\",\"endpoints\":[\"dyn://dynamo.backend.generate\"],\"instances\":[]}";
        assertThat(run(test, models, dynamo).exit()).as("a worker registered with Dynamo").isZero();
        // The fallback (`Launching vLLM: vllm serve`) serves the same models, and vLLM's /health answers 200 with no body.
        assertThat(run(test, models, "").exit()).as("a worker that fell back to plain vLLM").isNotZero();
        assertThat(run(test, models.replace("meta/llama-3.1-8b-instruct", "other/model"), dynamo).exit()).as("another model").isNotZero();
    }

    /** Runs the test container's command with sh and a curl that answers /v1/models and the health path from files. */
    private ScriptRun run(KubeObject container, String models, String health) throws Exception {
        Path bin = Files.createDirectories(work.resolve("bin"));
        Files.writeString(work.resolve("models.json"), models);
        Files.writeString(work.resolve("health.json"), health);
        Path curl = bin.resolve("curl");
        Files.writeString(curl, "#!/bin/sh\nfor a; do url=$a; done\ncase \"$url\" in\n  */v1/models) cat \"$FAKE/models.json\";;\n"
                + "  *\"$NIM_DYNAMO_HEALTH_PATH\") cat \"$FAKE/health.json\";;\n  *) echo \"404 $url\" >&2; exit 22;;\nesac\n");
        Files.setPosixFilePermissions(curl, PosixFilePermissions.fromString("rwxr-xr-x"));
        return ScriptRun.ofContainer(container, work, bin, Map.of("FAKE", work.toString()));
    }

    static KubeObject nimContainer(RenderedManifest m) {
        List<KubeObject> workloads = new ArrayList<>(m.ofKind("StatefulSet"));
        workloads.addAll(m.ofKind("Deployment"));
        return workloads.get(0).list("spec.template.spec.containers").stream().filter(c -> "nim".equals(c.at("name"))).findFirst()
                .orElseThrow();
    }

    static Map<String, String> env(KubeObject container) {
        Map<String, String> env = new LinkedHashMap<>();
        for (KubeObject e : container.list("env")) {
            env.put(e.at("name").toString(), String.valueOf(e.at("value")));
        }
        return env;
    }

    static RenderedManifest render(String example, Map<String, String> sets) {
        return renderer().render("dynamo", ChartUnderTest.NAMESPACE, List.of(Examples.named(example)), sets);
    }

    /** A copy of the chart whose test pod is an ordinary template (TestHookRenderer), made once per JVM. */
    static synchronized ChartRenderer renderer() {
        if (renderer == null) {
            renderer = TestHookRenderer.of(ChartUnderTest.chartDir(), dev.nimchart.junit.RunSettings.get());
        }
        return renderer;
    }
}
