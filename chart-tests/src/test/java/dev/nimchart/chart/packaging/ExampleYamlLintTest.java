package dev.nimchart.chart.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.CiScript;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.values.ExampleValuesFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every values file (the examples, the refusal files and the chart's values.yaml) is clean under the yamllint rules
 * chart-testing's {@code ct lint} applies (etc/lintconf.yaml of the chart-testing module ci/go.mod pins), warnings
 * included. yamllint is the project's pinned install (ci/install-python-tools.sh).
 */
class ExampleYamlLintTest {

    private static Path yamllint;
    private static Path lintconf;

    @TempDir
    Path work;

    @BeforeAll
    static void tools() {
        yamllint = CiScript.pythonTool("yamllint", line -> { });
        lintconf = Path.of(CiScript.run("chart-testing-lintconf.sh", List.of(), line -> { }).lines().reduce((a, b) -> b).orElseThrow());
    }

    /**
     * NVIDIA's own example files, kept byte for byte as its documentation prints them (users copy them unchanged, and
     * the chart must take them as they are): their spacing and `False` are NVIDIA's, not ours to fix.
     */
    static final java.util.Set<String> VERBATIM_FROM_NVIDIA = java.util.Set.of("multi-node-llama-3.1-405b-lws.yaml",
            "multi-node-llama-3.1-405b-mpijob.yaml", "multi-node-deepseek-r1-sglang.yaml");

    @Test
    void everyValuesFileIsCleanUnderChartTestingsRules() throws Exception {
        ExampleValuesFiles files = dev.nimchart.chart.repository.Examples.files();
        List<Path> all = new ArrayList<>(files.valid().stream().filter(f -> !VERBATIM_FROM_NVIDIA.contains(f.getFileName().toString())).toList());
        all.addAll(files.invalid());
        all.add(ChartUnderTest.chartDir().resolve("values.yaml"));
        assertThat(all).hasSizeGreaterThan(100);
        String problems = lint(all);
        assertThat(problems).as("yamllint with chart-testing's lintconf.yaml").isEmpty();
    }

    @Test
    void theLinterFindsWhatTheRulesForbid() throws Exception {
        Path bad = work.resolve("bad.yaml");
        Files.writeString(bad, "image:\n  tag:  \"1.8.4\"\n  pullPolicy: yes\n");
        assertThat(lint(List.of(bad))).contains("(colons)").contains("(truthy)");
    }

    /** yamllint's problems (errors and warnings), one per line, or empty. */
    private static String lint(List<Path> files) throws Exception {
        List<String> command = new ArrayList<>(List.of(yamllint.toString(), "-f", "parsable", "-c", lintconf.toString()));
        files.forEach(f -> command.add(f.toString()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue() == 0 || !out.isEmpty()).as("yamllint failed without output").isTrue();
        return out;
    }
}
