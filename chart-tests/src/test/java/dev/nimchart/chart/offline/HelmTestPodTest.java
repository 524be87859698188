package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.Examples;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartRenderer;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.render.TestHookRenderer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code helm test} pod runs {@code sh -c}: it is rendered (helm-java's template leaves hooks out, so from a copy of
 * the chart without the hook annotation) and its command run with sh against a fake curl that serves one model. A model
 * name full of shell syntax must be looked for as it is, and never run.
 */
class HelmTestPodTest {

    private static ChartRenderer renderer;

    @TempDir
    Path work;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"meta/llama-3.1-8b-instruct", "$(touch MARKER)", "`touch MARKER`", "x\"; touch MARKER; echo \"",
            "x'; touch MARKER; echo '", "a b;touch MARKER", "-e", "back\\slash",
            // Helm's toJson escapes <, > and & (as u003c, u003e, u0026 after a backslash); the NIM's server (Python) does not.
            "org/model<v2>&beta", "modèle-été"})
    void theTestPodLooksForTheModelNameAsWrittenAndRunsNothingFromIt(String template) throws Exception {
        String marker = work.resolve("marker").toString();
        String modelName = template.replace("MARKER", marker);
        KubeObject container = testPod(modelName).list("spec.containers").get(0);

        ScriptRun served = run(container, modelName);
        assertThat(served.exit()).as("the served model is found: %s", served.output()).isZero();
        assertThat(Files.exists(Path.of(marker))).as("the model name ran as shell code").isFalse();

        ScriptRun other = run(container, "meta/some-other-model");
        assertThat(other.exit()).as("another served model fails the test: %s", other.output()).isNotZero();
        other = run(container, modelName + "-70b");
        assertThat(other.exit()).as("another served model fails the test: %s", other.output()).isNotZero();
        assertThat(Files.exists(Path.of(marker))).as("the model name ran as shell code").isFalse();
    }

    @Test
    void theTestPodIsHardenedAndSized() throws IOException {
        KubeObject pod = testPod("meta/llama-3.1-8b-instruct");
        assertThat(pod.at("spec.securityContext.runAsUser")).as("runAsUser").isNotNull().isNotEqualTo(0);
        assertThat(pod.at("spec.securityContext.runAsGroup")).as("runAsGroup: without it the runtime uses group 0")
                .isNotNull().isNotEqualTo(0);
        KubeObject container = pod.list("spec.containers").get(0);
        assertThat(container.at("securityContext.readOnlyRootFilesystem")).isEqualTo(true);
        assertThat(container.at("resources.requests.cpu")).as("cpu request").isNotNull();
        assertThat(container.at("resources.requests.memory")).as("memory request").isNotNull();
        assertThat(container.at("resources.limits.memory")).as("memory limit").isNotNull();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"single-node-minimal.yaml", "single-node-deployment-static-volume.yaml",
            "multi-node-llama-3.1-405b-lws.yaml", "multi-node-llama-3.1-405b-mpijob.yaml"})
    void noSelectorOfTheReleaseSelectsTheTestPod(String example) {
        RenderedManifest m = renderer().render("test-pod", ChartUnderTest.NAMESPACE, List.of(Examples.named(example)),
                Map.of("podDisruptionBudget.enabled", "true"));
        Map<String, Object> labels = m.ofKind("Pod").stream().filter(p -> p.name().endsWith("-test")).findFirst().orElseThrow()
                .labels();
        for (KubeObject service : m.ofKind("Service")) {
            if (service.at("spec.selector") instanceof Map<?, ?> selector) {
                assertThat(labels.entrySet().containsAll(selector.entrySet())).as("%s: Service %s selects the test pod",
                        example, service.name()).isFalse();
            }
        }
        List<KubeObject> budgets = m.ofKind("PodDisruptionBudget");
        assertThat(budgets).as("%s renders its budget", example).hasSize(1);
        KubeObject budget = budgets.get(0);
        Map<?, ?> match = (Map<?, ?>) budget.at("spec.selector.matchLabels");
        boolean expressionsMatch = budget.list("spec.selector.matchExpressions").stream()
                .allMatch(x -> ((List<?>) x.at("values")).contains(labels.get(x.at("key").toString())));
        assertThat(labels.entrySet().containsAll(match.entrySet()) && expressionsMatch)
                .as("%s: the PodDisruptionBudget selects the test pod", example).isFalse();
    }

    private KubeObject testPod(String modelName) throws IOException {
        Path values = work.resolve("values.yaml");
        Files.writeString(values, "model:\n  name: " + yamlDoubleQuoted(modelName) + "\n");
        return renderer().render("test-pod", ChartUnderTest.NAMESPACE, List.of(values), Map.of()).ofKind("Pod").stream()
                .filter(p -> p.name().endsWith("-test")).findFirst().orElseThrow();
    }

    /** Runs the container's command and args with sh; curl prints a model list holding {@code servedModel}, JSON-encoded. */
    private ScriptRun run(KubeObject container, String servedModel) throws Exception {
        Path bin = Files.createDirectories(work.resolve("bin"));
        Path models = work.resolve("models.json");
        Files.writeString(models, "{\"object\":\"list\",\"data\":[{\"id\":\"" + servedModel.replace("\\", "\\\\").replace("\"", "\\\"")
                + "\",\"object\":\"model\"}]}\n");
        Path curl = bin.resolve("curl");
        Files.writeString(curl, "#!/bin/sh\ncat \"$FAKE_MODELS\"\n");
        Files.setPosixFilePermissions(curl, PosixFilePermissions.fromString("rwxr-xr-x"));

        return ScriptRun.ofContainer(container, work, bin, Map.of("FAKE_MODELS", models.toString()));
    }

    private static String yamlDoubleQuoted(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /** A copy of the chart whose test pod is an ordinary template (TestHookRenderer), made once per JVM. */
    private static synchronized ChartRenderer renderer() {
        if (renderer == null) {
            renderer = TestHookRenderer.of(ChartUnderTest.chartDir(), dev.nimchart.junit.RunSettings.get());
        }
        return renderer;
    }
}
