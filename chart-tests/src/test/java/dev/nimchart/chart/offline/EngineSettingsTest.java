package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.objects.KubeObject;
import dev.nimchart.render.ChartUnderTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

/**
 * Engine settings as values (model.engine): every argument of model.engine.args reaches NIM_PASSTHROUGH_ARGS quoted so
 * that a shell-style split (Python's shlex.split) gives back exactly the list, nothing in it ever runs, and each value
 * renders its NIM variable (none by default).
 */
class EngineSettingsTest {

    static final String EXAMPLE = "single-node-engine-settings-speculative.yaml";

    @TempDir
    Path work;

    @Test
    void theExamplesArgumentsAndSettingsReachTheirNimVariables() throws Exception {
        Map<String, String> env = DynamoModeTest.env(DynamoModeTest.nimContainer(DynamoModeTest.render(EXAMPLE, Map.of())));
        assertThat(split(env.get("NIM_PASSTHROUGH_ARGS"))).containsExactly("--max-num-seqs", "384", "--compilation-config",
                "{\"cudagraph_capture_sizes\": [1, 2, 4, 8]}");
        assertThat(env).containsEntry("NIM_MAX_MODEL_LEN", "32768").containsEntry("NIM_SERVED_MODEL_NAME", "llama-70b")
                .containsEntry("NIM_DRAFT_MODEL_PATH", "/model-store/draft/llama-3.2-1b-instruct").doesNotContainKey("NIM_DISABLE_CUDA_GRAPH");
        KubeObject test = DynamoModeTest.render(EXAMPLE, Map.of()).ofKind("Pod").stream().filter(p -> p.name().endsWith("-test"))
                .findFirst().orElseThrow().list("spec.containers").get(0);
        assertThat(DynamoModeTest.env(test)).as("helm test asks for the served model name").containsEntry("NIM_MODEL_JSON", "\"llama-70b\"");
    }

    @Test
    void everyArgumentSplitsBackWholeAndNoneRuns() throws Exception {
        Path marker = work.resolve("marker");
        List<String> args = List.of("--max-num-seqs", "384", "a b", "it's", "", "$(touch " + marker + ")", "`touch " + marker + "`",
                "--json={\"a\": [1, 2]}", "back\\slash", "semi;colon", "*", "~", "été");
        Path values = work.resolve("values.yaml");
        StringBuilder yaml = new StringBuilder("image:\n  tag: \"2.0.13\"\nmodel:\n  engine:\n    args:\n");
        for (String a : args) {
            yaml.append("      - \"").append(a.replace("\\", "\\\\").replace("\"", "\\\"").replace("\t", "\\t")).append("\"\n");
        }
        Files.writeString(values, yaml.toString());
        KubeObject nim = DynamoModeTest.nimContainer(DynamoModeTest.renderer().render("engine", ChartUnderTest.NAMESPACE, List.of(values), Map.of()));
        String passthrough = DynamoModeTest.env(nim).get("NIM_PASSTHROUGH_ARGS");
        assertThat(split(passthrough)).as("shlex.split of %s", passthrough).containsExactlyElementsOf(args);
        // The same text through a POSIX shell's own word splitting (as a start script that used "eval set --" would).
        Process p = new ProcessBuilder("sh", "-c", "eval \"set -- $0\"; for a; do printf '%s\\0' \"$a\"; done", passthrough)
                .directory(work.toFile()).start();
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(List.of(out.split("\0", -1)).subList(0, args.size())).containsExactlyElementsOf(args);
        assertThat(Files.exists(marker)).as("an argument ran as shell code").isFalse();
    }

    @Test
    void noEngineVariableIsRenderedByDefault() {
        Map<String, String> env = DynamoModeTest.env(DynamoModeTest.nimContainer(DynamoModeTest.render("single-node-minimal.yaml", Map.of())));
        assertThat(env.keySet()).doesNotContain("NIM_PASSTHROUGH_ARGS", "NIM_MAX_MODEL_LEN", "NIM_DISABLE_CUDA_GRAPH", "NIM_SERVED_MODEL_NAME",
                "NIM_DRAFT_MODEL_PATH");
    }

    /** Python's shlex.split of a text, as a list. */
    @SuppressWarnings("unchecked")
    static List<String> split(String text) throws Exception {
        Process p = new ProcessBuilder("python3", "-c", "import json, shlex, sys; print(json.dumps(shlex.split(sys.argv[1])))", text).start();
        assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as("shlex.split: %s", new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8)).isZero();
        return JsonMapper.builder().build().readValue(out, List.class);
    }
}
