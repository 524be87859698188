package dev.nimchart.chart.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.CiScript;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.values.ExampleValuesFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * {@code ct lint}, the linter Helm chart repositories run in CI (chart-testing, built from its Go module by
 * ci/build-tools.sh at the version ci/tools/ct pins), on a copy of the chart with every example as a
 * {@code ci/<example>-values.yaml} file, as chart-testing reads them: Chart.yaml against chart-testing's yamale schema,
 * Chart.yaml, values.yaml and every ci values file under its yamllint rules, and {@code helm lint} with each ci values
 * file. helm, yamllint and yamale are the project's pinned builds (ci/build-tools.sh, ci/install-python-tools.sh).
 * <p>
 * NVIDIA's three files are kept byte for byte as its documentation prints them ({@link ExampleYamlLintTest}), and
 * their spacing is not in yamllint's style; their ci copies hold the same values written in that style (a YAML round
 * trip), so {@code helm lint} still gets exactly NVIDIA's values. {@link #theLinterRefusesAFileOutsideItsRules()} shows
 * that {@code ct lint} does lint the ci values files (the verbatim file fails it).
 */
class ChartTestingLintTest {

    private static Path ct;
    private static Path etc;
    private static String path;

    @TempDir
    Path work;

    @BeforeAll
    static void tools() {
        ct = CiScript.builtTool("ct", line -> { });
        Path helm = CiScript.builtTool("helm", line -> { });
        Path yamllint = CiScript.pythonTool("yamllint", line -> { });
        Path yamale = CiScript.pythonTool("yamale", line -> { });
        etc = Path.of(CiScript.run("chart-testing-lintconf.sh", List.of(), line -> { }).lines().reduce((a, b) -> b).orElseThrow()).getParent();
        path = String.join(":", helm.getParent().toString(), yamllint.getParent().toString(), yamale.getParent().toString(),
                System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    }

    @Test
    void theChartWithEveryExampleAsACiValuesFileIsClean() throws Exception {
        List<Path> examples = dev.nimchart.chart.repository.Examples.files().valid();
        Path chart = chartCopy();
        for (Path example : examples) {
            Path ci = chart.resolve("ci").resolve(stem(example) + "-values.yaml");
            if (ExampleYamlLintTest.VERBATIM_FROM_NVIDIA.contains(example.getFileName().toString())) {
                Files.writeString(ci, inYamllintStyle(example));
            } else {
                Files.copy(example, ci);
            }
        }
        Result result = ctLint(chart);
        assertThat(result.exit()).as("ct lint exit status; its output:\n%s", result.output()).isZero();
        assertThat(result.output()).contains("All charts linted successfully").contains("1 chart(s) linted, 0 chart(s) failed");
        for (Path example : examples) {
            assertThat(result.output()).as("ct lint linted %s", example.getFileName())
                    .contains("Linting chart with values file \"charts/" + chart.getFileName() + "/ci/" + stem(example) + "-values.yaml\"");
        }
    }

    @Test
    void theLinterRefusesAFileOutsideItsRules() throws Exception {
        Path chart = chartCopy();
        Path verbatim = dev.nimchart.chart.repository.Examples.files().valid().stream()
                .filter(f -> ExampleYamlLintTest.VERBATIM_FROM_NVIDIA.contains(f.getFileName().toString())).findFirst().orElseThrow();
        Files.copy(verbatim, chart.resolve("ci").resolve("verbatim-values.yaml"));
        Result result = ctLint(chart);
        assertThat(result.exit()).as("ct lint on a ci values file outside yamllint's rules").isNotZero();
        assertThat(result.output()).contains("verbatim-values.yaml").contains("(colons)");
    }

    @Test
    void ctIsTheVersionWhoseRulesTheOtherLintersRead() throws Exception {
        Process p = new ProcessBuilder(ct.toString(), "version").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        String version = etc.getParent().getFileName().toString().replaceFirst("^.*@", "");
        assertThat(out).as("ct version (ci/tools/ct/go.mod) against the lintconf of ci/go.mod (%s)", etc).contains(version);
    }

    private Path chartCopy() throws IOException {
        Path source = ChartUnderTest.chartDir();
        Path chart = work.resolve("charts").resolve(source.getFileName());
        try (Stream<Path> files = Files.walk(source)) {
            for (Path f : files.toList()) {
                Path target = chart.resolve(source.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target);
                }
            }
        }
        Files.createDirectories(chart.resolve("ci"));
        return chart;
    }

    private Result ctLint(Path chart) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(ct.toString(), "lint", "--charts", chart.getParent().getFileName() + "/" + chart.getFileName(),
                "--validate-maintainers=false", "--check-version-increment=false",
                "--lint-conf", etc.resolve("lintconf.yaml").toString(), "--chart-yaml-schema", etc.resolve("chart_schema.yaml").toString())
                .directory(work.toFile()).redirectErrorStream(true);
        pb.environment().put("PATH", path);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(300, TimeUnit.SECONDS)).as("ct lint finished within 300 s").isTrue();
        return new Result(p.exitValue(), out);
    }

    private record Result(int exit, String output) {
    }

    private static String stem(Path file) {
        return file.getFileName().toString().replaceFirst("\\.ya?ml$", "");
    }

    /** The same values, written by a YAML dumper in block style with two-space indents. */
    private static String inYamllintStyle(Path file) throws IOException {
        Map<String, Object> values = new Yaml().load(Files.readString(file));
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        options.setIndent(2);
        options.setIndicatorIndent(2);
        options.setIndentWithIndicator(true);
        options.setExplicitStart(true);
        return new Yaml(options).dump(values);
    }
}
