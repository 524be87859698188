package dev.nimchart.chart.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.Examples;
import dev.nimchart.lint.Finding;
import dev.nimchart.lint.PolicyCheck;
import dev.nimchart.lint.PolicyExceptions;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartUnderTest;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * kube-score and checkov, the policy engines platform teams run, judge every example's rendered objects, the pods
 * inside LeaderWorkerSets and MPIJobs included (unwrapped into Pods). A finding the chart's documented exceptions
 * ({@value #EXCEPTIONS}) do not name fails, and so does an exception nothing needs any more.
 */
class PolicyEnginesTest {

    static final String EXCEPTIONS = "/dev/nimchart/chart/policy-exceptions.yaml";
    private static PolicyCheck engines;
    private static PolicyExceptions exceptions;
    private static PolicyCheck.Result examples;

    @BeforeAll
    static void judgeEveryExample() throws Exception {
        engines = PolicyCheck.withProjectTools(dev.nimchart.settings.SettingsFromProperties.shared(), line -> { });
        exceptions = PolicyExceptions.read(Path.of(PolicyEnginesTest.class.getResource(EXCEPTIONS).toURI()));
        examples = engines.run(ChartUnderTest.chartDir(), dev.nimchart.junit.RunSettings.get().withWorkDir(Path.of("target", "policy-engines", "examples")),
                Examples.all().toList(), ChartUnderTest.NAMESPACE, exceptions);
    }

    @Test
    void noEngineFindsAnythingTheChartDoesNotDocument() {
        assertThat(examples.undocumented()).as("findings no exception in %s documents:%n%s", EXCEPTIONS,
                examples.undocumented().stream().map(Finding::toString).collect(Collectors.joining("\n"))).isEmpty();
    }

    @Test
    void everyDocumentedExceptionIsStillNeeded() {
        assertThat(exceptions.all()).as("exceptions in %s that no example needs", EXCEPTIONS)
                .allMatch(examples.used()::contains);
    }

    @Test
    void bothEnginesSeeThePodsInsideCustomResources() {
        Map<String, RenderedManifest> manifests = new LinkedHashMap<>();
        Map<String, Map<String, Object>> values = new LinkedHashMap<>();
        for (String name : List.of("multi-node-llama-3.1-405b-lws.yaml", "multi-node-llama-3.1-405b-mpijob.yaml")) {
            Path file = Examples.named(name);
            manifests.put(name, ChartUnderTest.render(file, Map.of("containerSecurityContext.readOnlyRootFilesystem", "false")));
            values.put(name, ChartUnderTest.values(file));
        }
        PolicyCheck.Result writable = engines.judge(manifests, values, ChartUnderTest.NAMESPACE, exceptions,
                Path.of("target", "policy-engines", "writable-root"));
        for (String name : manifests.keySet()) {
            for (String engine : engines.engines()) {
                List<String> pods = writable.undocumented().stream().filter(f -> f.subject().equals(name) && f.tool().equals(engine)
                        && f.kind().equals("Pod") && (f.check().equals("container-security-context-readonlyrootfilesystem")
                        || f.check().equals("CKV_K8S_22"))).map(Finding::name).distinct().sorted().toList();
                assertThat(pods).as("%s: %s finds the writable root filesystem of the pods inside the custom resource", name, engine)
                        .hasSize(2);
            }
        }
    }
}
