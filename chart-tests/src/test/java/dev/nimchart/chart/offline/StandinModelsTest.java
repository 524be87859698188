package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.Example;
import dev.nimchart.chart.repository.Examples;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.PodTemplate;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/**
 * The start-up tier's stand-in for NIM's server (nim-standin.py), run with the NIM container's own environment as the
 * chart renders it (the cache moved into a temporary directory): /v1/models lists the served model and, for the LoRA
 * example, every adapter directory of NIM_PEFT_SOURCE with an adapter_config.json, as NIM lists them (the base model as
 * each adapter's parent), including one added while it runs; for the model-free example the served name NIM derives
 * from NIM_MODEL_PATH is the chart's model.name, which `helm test` asks for.
 */
class StandinModelsTest {

    @TempDir
    Path dir;

    @Test
    void loraAdaptersOfTheCacheAreListedNextToTheBaseModel() throws Exception {
        Path cache = Files.createDirectories(dir.resolve("cache"));
        for (String adapter : List.of("math", "sql")) {
            Files.createDirectories(cache.resolve("loras/" + adapter));
            Files.writeString(cache.resolve("loras/" + adapter + "/adapter_config.json"), "{\"r\": 8}");
        }
        Files.createDirectories(cache.resolve("loras/half-copied"));
        whileTheStandinRuns(Example.of(Examples.named("single-node-lora-adapters.yaml")), cache, () -> {
            List<Map<String, Object>> models = models();
            assertThat(models).extracting(m -> m.get("id")).containsExactly("nim-standin/model", "math", "sql");
            assertThat(models.subList(1, 3)).allSatisfy(m -> assertThat(m.get("parent")).isEqualTo("nim-standin/model"));
            assertThat(models.get(1).get("root")).isEqualTo(cache.resolve("loras/math").toString());
            Files.writeString(cache.resolve("loras/half-copied/adapter_config.json"), "{\"r\": 16}");
            assertThat(models()).as("an adapter added later is found (NIM_PEFT_REFRESH_INTERVAL)").extracting(m -> m.get("id"))
                    .containsExactly("nim-standin/model", "half-copied", "math", "sql");
        });
    }

    @Test
    void modelFreeNimServesTheNameTheChartAsksFor() throws Exception {
        Example e = Example.of(Examples.named("single-node-model-free-huggingface.yaml"));
        whileTheStandinRuns(e, Files.createDirectories(dir.resolve("cache")), () -> {
            assertThat(models()).extracting(m -> m.get("id")).containsExactly(e.text("model.name"));
        });
    }

    @Test
    void inDynamoModeTheWorkerSaysItStartedOnDynamoAndHelmTestPassesWhileTheVllmFallbackFailsIt() throws Exception {
        Example e = Example.of(Examples.named("single-node-dynamo-nim3.yaml"));
        KubeObject test = DynamoModeTest.render("single-node-dynamo-nim3.yaml", Map.of()).ofKind("Pod").stream()
                .filter(p -> p.name().endsWith("-test")).findFirst().orElseThrow().list("spec.containers").get(0);
        for (boolean withDynamo : List.of(true, false)) {
            // The worker's system port off 9090 (this machine's other tests), and the image's own model (a model-specific
            // NIM image serves the model built into it; the start-up tier writes it into the image's files).
            Map<String, String> extra = new java.util.HashMap<>(Map.of("NIM_HEALTH_PORT", Integer.toString(freePort()),
                    "NIM_SERVED_MODEL_NAME", e.text("model.name")));
            if (!withDynamo) {
                extra.put("STANDIN_DYNAMO_ABSENT", "1");
            }
            whileTheStandinRuns(e, Files.createDirectories(dir.resolve("cache-" + withDynamo)), extra, () -> {
                assertThat(models()).extracting(m -> m.get("id")).containsExactly(e.text("model.name"));
                String log = Files.readString(dir.resolve("standin.log"));
                ProcessBuilder pb = new ProcessBuilder(command(test)).redirectErrorStream(true);
                pb.environment().clear();
                pb.environment().put("PATH", "/usr/bin:/bin");
                for (KubeObject v : test.list("env")) {
                    pb.environment().put((String) v.at("name"), v.at("value").toString());
                }
                pb.environment().put("NIM_SERVICE", "127.0.0.1");
                pb.environment().put("NIM_SERVICE_PORT", Integer.toString(port));
                Process helmTest = pb.start();
                assertThat(helmTest.waitFor(60, TimeUnit.SECONDS)).isTrue();
                String out = new String(helmTest.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                if (withDynamo) {
                    assertThat(log).contains("Starting Dynamo worker: python -m dynamo.vllm").doesNotContain("Launching vLLM");
                    assertThat(helmTest.exitValue()).as("helm test on a worker registered with Dynamo: %s", out).isZero();
                } else {
                    assertThat(log).contains("Launching vLLM: vllm serve").doesNotContain("Starting Dynamo worker");
                    assertThat(helmTest.exitValue()).as("helm test on the fallback to plain vLLM: %s", out).isNotZero();
                }
            });
        }
    }

    @Test
    void theEngineArgumentsReachTheEngineWhole() throws Exception {
        Example e = Example.of(Examples.named("single-node-engine-settings-speculative.yaml"));
        whileTheStandinRuns(e, Files.createDirectories(dir.resolve("cache")), () -> {
            assertThat(models()).extracting(m -> m.get("id")).as("NIM_SERVED_MODEL_NAME").containsExactly("llama-70b");
            assertThat(Files.readString(dir.resolve("standin.log"))).contains("nim-standin: engine arguments "
                    + "[\"--max-num-seqs\", \"384\", \"--compilation-config\", \"{\\\"cudagraph_capture_sizes\\\": [1, 2, 4, 8]}\"]");
        });
    }

    private static List<String> command(KubeObject container) {
        List<String> command = new java.util.ArrayList<>();
        ((List<?>) container.at("command")).forEach(c -> command.add(c.toString()));
        ((List<?>) container.at("args")).forEach(c -> command.add(c.toString()));
        return command;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private int port;

    /** What a test checks while the stand-in runs. */
    private interface WhileRunning {
        void check() throws Exception;
    }

    /** Starts the stand-in as the example's serving container ({@link #start}), checks, then ends it. */
    private void whileTheStandinRuns(Example e, Path cache, WhileRunning check) throws Exception {
        whileTheStandinRuns(e, cache, Map.of(), check);
    }

    private void whileTheStandinRuns(Example e, Path cache, Map<String, String> extra, WhileRunning check) throws Exception {
        Process standin = start(e, cache, extra);
        try {
            check.check();
        } finally {
            standin.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }

    private Process start(Example e, Path cache, Map<String, String> extra) throws IOException {
        Path script = dir.resolve("nim-standin.py");
        // The stand-in and its modules (engine cache paths, NIM's API), side by side as the start-up tier's image has them.
        for (String file : List.of("nim-standin.py", "engine_caches.py", "nim_api.py")) {
            try (InputStream in = getClass().getResourceAsStream("/dev/nimchart/startup/" + file)) {
                Files.copy(in, dir.resolve(file), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        ProcessBuilder pb = new ProcessBuilder("python3", script.toString()).redirectErrorStream(true).redirectOutput(dir.resolve("standin.log").toFile());
        Map<String, String> env = pb.environment();
        env.clear();
        env.put("PATH", "/usr/bin:/bin");
        for (KubeObject v : e.gpuTemplates().get(0).nim().list("env")) {
            if (v.at("value") != null) {
                env.put((String) v.at("name"), v.at("value").toString().replace("/model-store", cache.toString())
                        .replace(e.text("home.path"), dir.resolve("home").toString()));
            }
        }
        env.put("NIM_SERVER_PORT", Integer.toString(port));
        if (env.containsKey("DYN_HTTP_PORT")) {
            env.put("DYN_HTTP_PORT", Integer.toString(port));
        }
        env.putAll(extra);
        assertThat(env.get("NIM_CACHE_PATH")).isEqualTo(cache.toString());
        return pb.start();
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> models() throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        // Each round: the answer's body once it is 200, else null (not listening yet, or not ready).
        String body = dev.nimchart.cluster.Poll.upTo(Duration.ofSeconds(20)).until(() -> {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/models")).build(),
                        HttpResponse.BodyHandlers.ofString());
                return r.statusCode() == 200 ? r.body() : null;
            } catch (IOException notYet) {
                return null;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }, java.util.Objects::nonNull).last();
        if (body == null) {
            throw new AssertionError("the stand-in did not answer /v1/models: " + Files.readString(dir.resolve("standin.log")));
        }
        return (List<Map<String, Object>>) JsonMapper.shared().readValue(body, Map.class).get("data");
    }
}
