package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.ChartCopy;
import dev.nimchart.chart.repository.Examples;
import dev.nimchart.chart.repository.NimLlmRules;
import dev.nimchart.render.ChartRefusedException;
import dev.nimchart.render.ChartRenderer;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.render.RefusalMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.yaml.snakeyaml.Yaml;

/**
 * {@code helm install --skip-schema-validation} skips values.schema.json, so a null that deletes a whole block of the
 * chart's defaults reaches the templates. Rendered from a copy of the chart without its schema (what that flag does),
 * every block of values.yaml set to null, in single-node and multi-node examples, is refused by the preflight naming
 * the block, never with a template crash such as {@code nil pointer}.
 */
class SkipSchemaValidationTest {

    private static ChartRenderer withoutSchema;

    @TempDir
    Path work;

    /** Every key of values.yaml whose default is a map with keys, down to two levels ("persistence", "multiNode.mpiJob"). */
    static Stream<String> blocks() {
        List<String> paths = new ArrayList<>();
        collect(chartDefaults(), "", 1, paths);
        return paths.stream();
    }

    @ParameterizedTest(name = "{0}: null")
    @MethodSource("blocks")
    void aNulledBlockIsRefusedByThePreflightNamingIt(String block) throws IOException {
        for (String example : List.of("single-node-minimal.yaml", "multi-node-llama-3.1-405b-lws.yaml")) {
            Path values = work.resolve("null.yaml");
            Files.writeString(values, nullAt(block));
            String message;
            try {
                renderer().render("skip-schema", ChartUnderTest.NAMESPACE, List.of(Examples.named(example), values), Map.of());
                message = null;
            } catch (ChartRefusedException e) {
                message = e.getMessage();
            }
            assertThat(message).as("%s with %s: null must be refused", example, block).isNotNull();
            assertThat(RefusalMessage.crashMarkers(message)).as("%s: %s", example, message).isEmpty();
            assertThat(RefusalMessage.fromPreflight(message, ChartUnderTest.chart(), NimLlmRules.PREFLIGHT_TEMPLATE)).as("%s: %s", example, message).isTrue();
            assertThat(message).as(example).contains(block + " is null");
        }
    }

    private static String nullAt(String block) {
        String[] keys = block.split("\\.");
        StringBuilder yaml = new StringBuilder();
        for (int i = 0; i < keys.length; i++) {
            yaml.append("  ".repeat(i)).append(keys[i]).append(i == keys.length - 1 ? ": null\n" : ":\n");
        }
        return yaml.toString();
    }

    @SuppressWarnings("unchecked")
    private static void collect(Map<String, Object> map, String prefix, int depth, List<String> out) {
        map.forEach((key, value) -> {
            if (value instanceof Map<?, ?> child && !child.isEmpty()) {
                String path = prefix + key;
                if (!path.equals("resources.limits") && !path.startsWith("podSecurityContext")
                        && !path.startsWith("containerSecurityContext")) {
                    out.add(path);
                }
                if (depth < 2) {
                    collect((Map<String, Object>) child, path + ".", depth + 1, out);
                }
            }
        });
    }

    private static Map<String, Object> chartDefaults() {
        try {
            return new Yaml().load(Files.readString(ChartUnderTest.chartDir().resolve("values.yaml")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static synchronized ChartRenderer renderer() {
        if (withoutSchema == null) {
            withoutSchema = new ChartRenderer(ChartCopy.of(ChartUnderTest.chartDir(), "chart-without-schema-",
                    f -> f.getFileName().toString().equals("values.schema.json")), dev.nimchart.junit.RunSettings.get());
        }
        return withoutSchema;
    }
}
