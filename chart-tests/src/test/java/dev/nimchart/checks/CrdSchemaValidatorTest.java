package dev.nimchart.checks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * CrdSchemaValidator against the real CRDs (fetched by ci/fetch-crds.sh into -Dnim.crds.dir, default
 * chart-tests/target/crds) and against a small hand-made CRD for the schema features the real ones do not use.
 */
class CrdSchemaValidatorTest {

    private static CrdSchemaValidator validator;

    @BeforeAll
    static void loadCrds() {
        validator = CrdSchemaValidator.load();
    }

    // --- LeaderWorkerSet (leaderworkerset.x-k8s.io/v1) -------------------------------------------------------------

    /** An object as a manifest holds it: apiVersion, kind, metadata, spec. */
    private static Map<String, Object> object(String apiVersion, String kind, Map<String, Object> metadata, Map<String, Object> spec) {
        return Map.of("apiVersion", apiVersion, "kind", kind, "metadata", metadata, "spec", spec);
    }

    private static Map<String, Object> leaderWorkerSet(Map<String, Object> spec) {
        return lwsWithMetadata(Map.of("name", "llm", "namespace", "nim", "labels", Map.of("app.kubernetes.io/name", "nim-llm")), spec);
    }

    private static Map<String, Object> lwsWithMetadata(Map<String, Object> metadata, Map<String, Object> spec) {
        return object("leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet", metadata, spec);
    }

    /** A LeaderWorkerSet of groups of 2 whose worker pods run these containers. */
    @SafeVarargs
    private static Map<String, Object> withWorkerContainers(Map<String, Object>... containers) {
        return leaderWorkerSet(Map.of("leaderWorkerTemplate", Map.of("size", 2, "workerTemplate", Map.of(
                "spec", Map.of("containers", List.of(containers))))));
    }

    private static Map<String, Object> podTemplate(String containerName) {
        return Map.of(
                "metadata", Map.of("labels", Map.of("app.kubernetes.io/name", "nim-llm")),
                "spec", Map.of("containers", List.of(Map.of(
                        "name", containerName,
                        "image", "nvcr.io/nim/meta/llama:1.0.0",
                        "ports", List.of(Map.of("name", "http", "containerPort", 8000)),
                        "resources", Map.of("limits", Map.of("nvidia.com/gpu", 8, "memory", "64Gi"))))));
    }

    @Test
    void validMinimalLeaderWorkerSetPasses() {
        Map<String, Object> lws = leaderWorkerSet(Map.of(
                "replicas", 1,
                "leaderWorkerTemplate", Map.of(
                        "size", 2,
                        "leaderTemplate", podTemplate("leader"),
                        "workerTemplate", podTemplate("worker"))));

        assertThat(validator.validate(lws)).isEmpty();
    }

    @Test
    void leaderWorkerSetWithTypoInLeaderWorkerTemplateFieldIsRejectedNamingThePath() {
        Map<String, Object> lws = leaderWorkerSet(Map.of(
                "leaderWorkerTemplate", Map.of(
                        "sizee", 2,
                        "workerTemplate", podTemplate("worker"))));

        assertThat(validator.validate(lws))
                .singleElement(STRING)
                .startsWith("spec.leaderWorkerTemplate.sizee: unknown field \"sizee\"");
    }

    @Test
    void leaderWorkerSetWithReplicasAsStringIsRejected() {
        Map<String, Object> lws = leaderWorkerSet(Map.of(
                "replicas", "2",
                "leaderWorkerTemplate", Map.of("size", 2, "workerTemplate", podTemplate("worker"))));

        assertThat(validator.validate(lws))
                .singleElement(STRING)
                .startsWith("spec.replicas: Invalid value: \"2\"")
                .contains("must be of type integer");
    }

    @Test
    void typoDeepInsideTheEmbeddedPodTemplateIsRejectedWithItsListIndex() {
        Map<String, Object> lws = withWorkerContainers(
                Map.of("name", "a", "image", "x"),
                Map.of("name", "b", "image", "x", "imagePullPolicyy", "Always"));

        assertThat(validator.validate(lws)).containsExactly(
                "spec.leaderWorkerTemplate.workerTemplate.spec.containers[1].imagePullPolicyy: unknown field"
                        + " \"imagePullPolicyy\" (strict field validation: not in the CRD schema)");
    }

    @Test
    void quantityFieldsAcceptIntegersAndStringsButNotOtherTypes() {
        Map<String, Object> lws = withWorkerContainers(Map.of("name", "a", "image", "x", "resources", Map.of(
                "requests", Map.of("cpu", 4, "memory", "8Gi"),
                "limits", Map.of("cpu", true))));

        assertThat(validator.validate(lws)).containsExactly(
                "spec.leaderWorkerTemplate.workerTemplate.spec.containers[0].resources.limits.cpu:"
                        + " Invalid value: true: must be of type integer or string, not boolean");
    }

    @Test
    void requiredFieldFilledByItsCrdDefaultIsNotReportedMissing() {
        // rolloutStrategy.type is required but has a default: the API server defaults it before validating.
        Map<String, Object> lws = leaderWorkerSet(Map.of(
                "rolloutStrategy", Map.of(),
                "leaderWorkerTemplate", Map.of("size", 2, "workerTemplate", podTemplate("worker"))));

        assertThat(validator.validate(lws)).isEmpty();
    }

    @Test
    void duplicateKeysInAListTypeMapAreRejected() {
        Map<String, Object> lws = withWorkerContainers(
                Map.of("name", "same", "image", "x"),
                Map.of("name", "same", "image", "y"));

        assertThat(validator.validate(lws)).singleElement(STRING)
                .startsWith("spec.leaderWorkerTemplate.workerTemplate.spec.containers[1]:"
                        + " Duplicate value: name=\"same\"");
    }

    @Test
    void unknownTopLevelMetadataFieldAndBadLabelValueAreRejected() {
        Map<String, Object> lws = lwsWithMetadata(
                Map.of("name", "llm", "lables", Map.of("a", "b"), "labels", Map.of("version", "not a valid label value")),
                Map.of("leaderWorkerTemplate", Map.of("size", 1, "workerTemplate", podTemplate("w"))));

        assertThat(validator.validate(lws)).satisfiesExactlyInAnyOrder(
                m -> assertThat(m).startsWith("metadata.lables: unknown field"),
                m -> assertThat(m).startsWith("metadata.labels.version: Invalid value: \"not a valid label value\""));
    }

    @Test
    void missingNameIsRejectedAsOnCreate() {
        Map<String, Object> lws = lwsWithMetadata(Map.of("namespace", "nim"),
                Map.of("leaderWorkerTemplate", Map.of("size", 1, "workerTemplate", podTemplate("w"))));

        assertThat(validator.validate(lws)).containsExactly(
                "metadata.name: Required value: name or generateName is required");
    }

    // --- MPIJob (kubeflow.org/v2beta1) -----------------------------------------------------------------------------

    private static Map<String, Object> mpiJob(Map<String, Object> launcher, Map<String, Object> worker) {
        return object("kubeflow.org/v2beta1", "MPIJob", Map.of("name", "llm-mpi"), Map.of(
                "slotsPerWorker", 8,
                "mpiImplementation", "OpenMPI",
                "runPolicy", Map.of("cleanPodPolicy", "Running"),
                "mpiReplicaSpecs", Map.of("Launcher", launcher, "Worker", worker)));
    }

    @Test
    void validMpiJobWithLauncherAndWorkerReplicaSpecsPasses() {
        Map<String, Object> job = mpiJob(
                Map.of("replicas", 1, "template", podTemplate("launcher")),
                Map.of("replicas", 2, "restartPolicy", "OnFailure", "template", podTemplate("worker")));

        assertThat(validator.validate(job)).isEmpty();
    }

    @Test
    void mpiJobWithTypoInWorkerReplicaSpecIsRejectedNamingThePath() {
        Map<String, Object> job = mpiJob(
                Map.of("replicas", 1, "template", podTemplate("launcher")),
                Map.of("replica", 2, "template", podTemplate("worker")));

        assertThat(validator.validate(job)).singleElement(STRING)
                .startsWith("spec.mpiReplicaSpecs.Worker.replica: unknown field \"replica\"");
    }

    @Test
    void mpiJobWithUnsupportedEnumValueIsRejected() {
        Map<String, Object> job = object("kubeflow.org/v2beta1", "MPIJob", Map.of("name", "llm-mpi"),
                Map.of("mpiImplementation", "OpenMPII", "mpiReplicaSpecs", Map.of()));

        assertThat(validator.validate(job)).singleElement(STRING)
                .startsWith("spec.mpiImplementation: Invalid value: \"OpenMPII\"");
    }

    // --- ServiceMonitor (monitoring.coreos.com/v1) -----------------------------------------------------------------

    private static Map<String, Object> serviceMonitor(Map<String, Object> endpoint) {
        return object("monitoring.coreos.com/v1", "ServiceMonitor", Map.of("name", "llm"), Map.of(
                "selector", Map.of("matchLabels", Map.of("app.kubernetes.io/name", "nim-llm")),
                "endpoints", List.of(endpoint)));
    }

    @Test
    void validServiceMonitorPasses() {
        assertThat(validator.validate(serviceMonitor(Map.of("port", "http", "path", "/v1/metrics",
                "interval", "30s")))).isEmpty();
    }

    @Test
    void serviceMonitorWithTypoInEndpointPortIsRejectedWithTheListIndex() {
        assertThat(validator.validate(serviceMonitor(Map.of("portt", "http"))))
                .singleElement(STRING)
                .startsWith("spec.endpoints[0].portt: unknown field \"portt\"");
    }

    // --- types the CRDs do not define ------------------------------------------------------------------------------

    /**
     * A kind no CRD defines, a version its CRD does not define and a built-in kind: each an error that says which, never
     * a silent pass.
     */
    static Stream<Arguments> typesTheCrdsDoNotDefine() {
        return Stream.of(
                Arguments.of("monitoring.coreos.com/v1", "PodMonitor",
                        List.of("unknown custom resource type monitoring.coreos.com/v1 PodMonitor", "Settings.withCrdsDir(DIR)")),
                Arguments.of("kubeflow.org/v1", "MPIJob", List.of("defines versions [v2beta1], not v1")),
                Arguments.of("apps/v1", "Deployment", List.of("built-in Kubernetes type")));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("typesTheCrdsDoNotDefine")
    void aTypeTheCrdsDoNotDefineIsAnErrorSayingWhy(String apiVersion, String kind, List<String> saying) {
        Map<String, Object> object = Map.of("apiVersion", apiVersion, "kind", kind, "metadata", Map.of("name", "x"));

        assertThat(validator.validate(object)).singleElement(STRING).contains(saying);
        assertThat(validator.supports(apiVersion, kind)).isFalse();
    }

    @Test
    void loadsTheThreeCrdsTheChartRenders() {
        assertThat(validator.knownTypes()).contains(
                "leaderworkerset.x-k8s.io/v1 LeaderWorkerSet",
                "kubeflow.org/v2beta1 MPIJob",
                "monitoring.coreos.com/v1 ServiceMonitor");
        assertThat(validator.supports("leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet")).isTrue();
    }

    // --- missing CRD files -----------------------------------------------------------------------------------------

    @Test
    void missingCrdDirectoryFailsLoudlyWithTheFetchCommand(@TempDir Path tmp) {
        assertThatThrownBy(() -> CrdSchemaValidator.load(tmp.resolve("crds")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("does not exist")
                .hasMessageContaining("Settings.withCrdsDir(DIR)");
    }

    @Test
    void crdDirectoryWithoutCrdsFailsLoudlyWithTheFetchCommand(@TempDir Path tmp) throws IOException {
        Files.writeString(tmp.resolve("notes.yaml"), "kind: ConfigMap\n");

        assertThatThrownBy(() -> CrdSchemaValidator.load(tmp))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("No CustomResourceDefinition found")
                .hasMessageContaining("Settings.withCrdsDir(DIR)");
    }

    // --- schema features, on a hand-made CRD -----------------------------------------------------------------------

    @Nested
    class OnAHandMadeCrd {

        private static final String CRD = """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: widgets.example.dev}
                spec:
                  group: example.dev
                  names: {kind: Widget, plural: widgets}
                  scope: Namespaced
                  versions:
                  - name: v1alpha1
                    served: false
                    storage: false
                    schema: {openAPIV3Schema: {type: object}}
                  - name: v1
                    served: true
                    storage: true
                    schema:
                      openAPIV3Schema:
                        type: object
                        properties:
                          apiVersion: {type: string}
                          kind: {type: string}
                          metadata:
                            type: object
                            properties:
                              name: {type: string, maxLength: 10}
                          spec:
                            type: object
                            required: [mode]
                            properties:
                              mode: {type: string, enum: [a, b], default: a}
                              note: {type: string, nullable: true}
                              count: {type: integer, minimum: 1}
                              port:
                                x-kubernetes-int-or-string: true
                                anyOf: [{type: integer}, {type: string}]
                              tags:
                                type: array
                                x-kubernetes-list-type: set
                                items: {type: string}
                              free:
                                type: object
                                x-kubernetes-preserve-unknown-fields: true
                                properties:
                                  level: {type: integer}
                              empty: {type: object}
                """;

        private CrdSchemaValidator widgets;

        @BeforeEach
        void writeCrd(@TempDir Path dir) throws IOException {
            Files.writeString(dir.resolve("example.dev_widgets.yaml"), CRD);
            widgets = CrdSchemaValidator.load(dir);
        }

        private List<String> validateSpec(String specYaml) {
            String doc = "apiVersion: example.dev/v1\nkind: Widget\nmetadata: {name: w}\nspec:\n"
                    + specYaml.indent(2);
            Yaml yaml = new Yaml(new SafeConstructor(new LoaderOptions()));
            return widgets.validate(yaml.<Map<String, Object>>load(doc));
        }

        /** The spec has exactly one problem, whose message starts with {@code start}. */
        private void assertOneProblem(String specYaml, String start) {
            assertThat(validateSpec(specYaml)).as(specYaml).singleElement(STRING).startsWith(start);
        }

        @Test
        void nullableFieldAcceptsNull() {
            assertThat(validateSpec("note: null")).isEmpty();
        }

        @Test
        void nullInNonNullableFieldIsDroppedAsTheServerDoes() {
            assertThat(validateSpec("count: null")).isEmpty();
        }

        @Test
        void nullInAListIsStillATypeError() {
            assertOneProblem("tags: [x, null]", "spec.tags[1]: Invalid value: null: must be of type string");
        }

        @Test
        void intOrStringAcceptsBothButNothingElse() {
            assertThat(validateSpec("port: 8000")).isEmpty();
            assertThat(validateSpec("port: http")).isEmpty();
            assertThat(validateSpec("port: [1]")).containsExactly(
                    "spec.port: Invalid value: [1]: must be of type integer or string, not array");
        }

        @Test
        void requiredFieldWithDefaultIsDefaultedButEnumStillApplies() {
            assertThat(validateSpec("count: 1")).isEmpty();
            assertOneProblem("mode: c", "spec.mode: Invalid value: \"c\"");
        }

        @Test
        void valueValidationsApply() {
            assertOneProblem("count: 0", "spec.count: Invalid value: 0");
        }

        @Test
        void listTypeSetRejectsDuplicates() {
            assertOneProblem("tags: [a, a]", "spec.tags: ");
        }

        @Test
        void preserveUnknownFieldsKeepsUnknownFieldsButChecksDeclaredOnes() {
            assertThat(validateSpec("free: {anything: {goes: 1}, level: 2}")).isEmpty();
            assertOneProblem("free: {level: high}", "spec.free.level: Invalid value: \"high\": must be of type integer");
        }

        @Test
        void objectWithoutPropertiesAcceptsNoFieldBecauseTheServerPrunesThem() {
            assertOneProblem("empty: {x: 1}", "spec.empty.x: unknown field");
        }

        @Test
        void metadataRestrictionsDeclaredByTheCrdApplyOnTopOfObjectMeta() {
            Map<String, Object> longName = Map.of("apiVersion", "example.dev/v1", "kind", "Widget",
                    "metadata", Map.of("name", "much-too-long-name"), "spec", Map.of());

            assertThat(widgets.validate(longName)).singleElement(STRING)
                    .startsWith("metadata.name: Invalid value: \"much-too-long-name\"");
        }

        @Test
        void versionThatIsNotServedIsAnError() {
            Map<String, Object> old = Map.of("apiVersion", "example.dev/v1alpha1", "kind", "Widget",
                    "metadata", Map.of("name", "w"));

            assertThat(widgets.validate(old)).singleElement(STRING)
                    .contains("not served");
        }
    }
}
