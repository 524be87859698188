package dev.nimchart.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.cluster.ClusterUnavailableException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The real kubeconform binary (ci/build-tools.sh builds it from its Go module, ~20 s the first time, or finds it
 * cached) against schemas made from the OpenAPI fixture: a good manifest passes, an unknown field is refused, a kind
 * without a schema is an error rather than a skip. The helm side of the pipeline is a stand-in script that prints a
 * fixed manifest and records its arguments and environment, so the test needs neither the Helm CLI nor a cluster.
 * Without kubeconform the class fails when CI=true and is skipped, with the reason, otherwise.
 */
class UsualPipelineTest {

    private static final String GOOD = """
            apiVersion: apps/v1
            kind: Widget
            metadata:
              name: w
              labels: {app: w}
            spec:
              replicas: 2
              maxSurge: 25%
              template:
                image: nginx
                memory: 64Gi
                ports:
                - {containerPort: 80, name: http}
            ---
            apiVersion: apps/v1
            kind: Widget
            metadata: {name: numbers}
            spec:
              maxSurge: 1
              template: {memory: 1.5}
            ---
            apiVersion: gadgets.example.com/v1beta1
            kind: Gadget
            metadata: {name: g}
            spec: {partition: 3, free: {anything: [1, 2]}}
            """;

    private static Path kubeconform;
    private static String schemaLocation;

    @BeforeAll
    static void kubeconformAndFixtureSchemas(@TempDir Path schemas) {
        try {
            kubeconform = dev.nimchart.cluster.BinaryAssets.of(dev.nimchart.settings.SettingsFromProperties.shared()).tool("kubeconform", line -> System.out.println("[build-tools] " + line));
        } catch (ClusterUnavailableException | IllegalStateException e) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new AssertionError("CI=true and kubeconform cannot be built: " + e.getMessage(), e);
            }
            Assumptions.abort("kubeconform unavailable (CI is not true, so skipped): " + e.getMessage());
        }
        new KubeconformSchemas(KubeconformSchemasTest.fixture()).writeTo(schemas);
        schemaLocation = KubeconformSchemas.schemaLocation(schemas);
    }

    @Test
    void generatedSchemasPassAGoodManifest() {
        UsualPipeline.Result result = UsualPipeline.validate(kubeconform, schemaLocation, GOOD);
        assertThat(result.errorText()).isEmpty();
        assertThat(result.validated()).isEqualTo(3);
        assertThat(result.valid()).isEqualTo(3);
        assertThat(result.passed()).isTrue();
    }

    /** One object of the good manifest broken: an unknown field, and a wrong type where the schema has no int-or-string. */
    static Stream<Arguments> refusedManifests() {
        return Stream.of(
                Arguments.of("an unknown field", GOOD.replace("    image: nginx", "    image: nginx\n    imagePullPolicyy: Always"),
                        List.of("statusInvalid Widget/w", "imagePullPolicyy")),
                Arguments.of("a wrong type where int-or-string is not", GOOD.replace("replicas: 2", "replicas: two"),
                        List.of("/spec/replicas")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedManifests")
    void aBrokenObjectIsRefusedAndTheOthersPass(String broken, String manifest, List<String> saying) {
        UsualPipeline.Result result = UsualPipeline.validate(kubeconform, schemaLocation, manifest);
        assertThat(result.invalid()).isEqualTo(1);
        assertThat(result.valid()).isEqualTo(2);
        assertThat(result.errorText()).contains(saying);
        assertThat(result.passed()).isFalse();
    }

    @Test
    void aKindWithoutASchemaIsAnErrorNotASkip() {
        UsualPipeline.Result result = UsualPipeline.validate(kubeconform, schemaLocation,
                GOOD + "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n");
        assertThat(result.errors()).isEqualTo(1);
        assertThat(result.skipped()).isZero();
        assertThat(result.errorText()).contains("could not find schema for ConfigMap");
        assertThat(result.passed()).isFalse();
    }

    @Test
    void pipesHelmTemplateIntoKubeconformWithItsOwnHelmHome(@TempDir Path dir) throws IOException {
        Path helm = fakeHelm(dir, 0);
        Path values = Files.writeString(dir.resolve("My_Values.File.yaml"), "replicas: 2\n");
        UsualPipeline pipeline = new UsualPipeline(helm, kubeconform, dir.resolve("chart"), schemaLocation, dir.resolve("work"));

        UsualPipeline.Result result = pipeline.run(values);

        assertThat(result.source()).isEqualTo("My_Values.File.yaml");
        assertThat(result.valid()).isEqualTo(3);
        assertThat(result.passed()).isTrue();
        assertThat(result.wallNanos()).isPositive();
        assertThat(Files.readAllLines(dir.resolve("helm-args.txt"))).containsExactly("template", "my-values-file",
                dir.resolve("chart").toString(), "-f", values.toString(), "--namespace", "nim", "--kube-version", "1.34.0");
        assertThat(Files.readAllLines(dir.resolve("helm-env.txt"))).containsExactly(
                "HELM_CACHE_HOME=" + dir.resolve("work/helm-cache"),
                "HELM_CONFIG_HOME=" + dir.resolve("work/helm-config"),
                "HELM_DATA_HOME=" + dir.resolve("work/helm-data"),
                "KUBECONFIG=" + dir.resolve("work/no-cluster.kubeconfig"));
    }

    @Test
    void aFailingHelmTemplateIsReportedWithItsStderr(@TempDir Path dir) throws IOException {
        UsualPipeline pipeline = new UsualPipeline(fakeHelm(dir, 1), kubeconform, dir, schemaLocation, dir.resolve("work"));

        UsualPipeline.Result result = pipeline.run(Files.writeString(dir.resolve("bad.yaml"), "{}\n"));

        assertThat(result.passed()).isFalse();
        assertThat(result.errorText()).contains("helm template exited 1: Error: values don't meet the specifications");
    }

    /** A stand-in for the Helm CLI: records its arguments and Helm/kube environment, prints GOOD, exits as told. */
    private static Path fakeHelm(Path dir, int exit) throws IOException {
        String script = "#!/bin/sh\n"
                + "printf '%s\\n' \"$@\" > '" + dir.resolve("helm-args.txt") + "'\n"
                + "env | grep -E '^(HELM_[A-Z]+_HOME|KUBECONFIG)=' | sort > '" + dir.resolve("helm-env.txt") + "'\n"
                + (exit == 0
                ? "cat <<'EOF'\n" + GOOD + "EOF\n"
                : "echo \"Error: values don't meet the specifications\" >&2\n")
                + "exit " + exit + "\n";
        Path helm = dir.resolve("helm");
        Files.writeString(helm, script);
        Files.setPosixFilePermissions(helm, PosixFilePermissions.fromString("rwxr-xr-x"));
        return helm;
    }

    @Test
    void theTableListsEveryRun() {
        String table = UsualPipeline.table(List.of(new UsualPipeline.Result("a.yaml", 12_300_000, 3, 3, 0, 0, 0, ""),
                new UsualPipeline.Result("b.yaml", 1_000_000, 1, 0, 1, 0, 0, "statusInvalid X/y: no")));
        assertThat(table).contains("a.yaml", "12.3 ms", "b.yaml", "    statusInvalid X/y: no");
    }
}
