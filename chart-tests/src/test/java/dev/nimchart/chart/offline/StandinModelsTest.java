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
        Process standin = start(Example.of(Examples.named("single-node-lora-adapters.yaml")), cache);
        try {
            List<Map<String, Object>> models = models();
            assertThat(models).extracting(m -> m.get("id")).containsExactly("nim-standin/model", "math", "sql");
            assertThat(models.subList(1, 3)).allSatisfy(m -> assertThat(m.get("parent")).isEqualTo("nim-standin/model"));
            assertThat(models.get(1).get("root")).isEqualTo(cache.resolve("loras/math").toString());
            Files.writeString(cache.resolve("loras/half-copied/adapter_config.json"), "{\"r\": 16}");
            assertThat(models()).as("an adapter added later is found (NIM_PEFT_REFRESH_INTERVAL)").extracting(m -> m.get("id"))
                    .containsExactly("nim-standin/model", "half-copied", "math", "sql");
        } finally {
            standin.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void modelFreeNimServesTheNameTheChartAsksFor() throws Exception {
        Example e = Example.of(Examples.named("single-node-model-free-huggingface.yaml"));
        Process standin = start(e, Files.createDirectories(dir.resolve("cache")));
        try {
            assertThat(models()).extracting(m -> m.get("id")).containsExactly(e.text("model.name"));
        } finally {
            standin.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }

    private int port;

    private Process start(Example e, Path cache) throws IOException {
        Path script = dir.resolve("nim-standin.py");
        // The stand-in and its modules (engine cache paths, NIM's API), side by side as the start-up tier's image has them.
        for (String file : List.of("nim-standin.py", "engine_caches.py", "nim_api.py")) {
            try (InputStream in = getClass().getResourceAsStream("/dev/nimchart/startup/" + file)) {
                Files.copy(in, dir.resolve(file));
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
        assertThat(env.get("NIM_CACHE_PATH")).isEqualTo(cache.toString());
        return pb.start();
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> models() throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (true) {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/models")).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return (List<Map<String, Object>>) JsonMapper.shared().readValue(r.body(), Map.class).get("data");
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the stand-in did not answer /v1/models: " + Files.readString(dir.resolve("standin.log")));
            }
            Thread.sleep(200);
        }
    }
}
