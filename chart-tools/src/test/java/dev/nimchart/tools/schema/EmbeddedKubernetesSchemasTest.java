package dev.nimchart.tools.schema;

import dev.nimchart.kubeschema.KubernetesDefinitions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Kubernetes definitions of values.schema.json are exactly what {@link EmbeddedKubernetesSchemas} writes from the
 * OpenAPI v3 documents of the oldest Kubernetes version the chart claims (ci/fetch-openapi.sh, at the k8s.io/kubernetes
 * pin of ci/control-plane/v1.34.10/kubernetes/go.mod, so no field newer than that is accepted): they cannot rot, nor be edited by hand, nor hold a definition nothing uses.
 */
class EmbeddedKubernetesSchemasTest {

    private static final Path SCHEMA = dev.nimchart.junit.RunSettings.get().chartDir().resolve("values.schema.json");
    private static final Path OPENAPI = Path.of(System.getProperty("nim.openapi.dir", "target/openapi"));
    private static KubernetesDefinitions kubernetes;

    @BeforeAll
    static void openApi() {
        kubernetes = new KubernetesDefinitions(List.of(OPENAPI.resolve("api__v1_openapi.json"),
                OPENAPI.resolve("apis__autoscaling__v2_openapi.json"), OPENAPI.resolve("zz_generated.openapi.go")));
    }

    @Test
    void theOpenApiDocumentsAreThoseOfTheOldestKubernetesTheChartClaims() throws IOException {
        String goMod = Files.readString(dev.nimchart.junit.RunSettings.get().chartDir()
                .resolve("../../ci/control-plane/v" + dev.nimchart.settings.Settings.OLDEST_KUBE_VERSION + "/kubernetes/go.mod"));
        Matcher pin = Pattern.compile("(?m)^\\s*k8s\\.io/kubernetes (v\\S+)").matcher(goMod);
        assertThat(pin.find()).isTrue();
        assertThat(Files.readString(OPENAPI.resolve("VERSION")).trim()).isEqualTo(pin.group(1));
    }

    @Test
    void theEmbeddedDefinitionsAreWhatTheGeneratorWrites() throws IOException {
        String schema = Files.readString(SCHEMA);
        assertThat(EmbeddedKubernetesSchemas.regenerated(schema, kubernetes))
                .as("the io.k8s.* definitions of values.schema.json are stale or edited: run ci/kubernetes-schemas.sh")
                .isEqualTo(schema);
    }

    @Test
    void theValuesKeysThatReachKubernetesUnchangedAreCheckedAgainstTheirKubernetesDefinitions() throws IOException {
        Map<String, Object> properties = map(json(Files.readString(SCHEMA)).get("properties"));
        assertThat(ref(properties.get("affinity"))).isEqualTo("io.k8s.api.core.v1.Affinity");
        assertThat(ref(properties.get("podSecurityContext"))).isEqualTo("io.k8s.api.core.v1.PodSecurityContext");
        assertThat(ref(properties.get("containerSecurityContext"))).isEqualTo("io.k8s.api.core.v1.SecurityContext");
        assertThat(ref(map(properties.get("tolerations")).get("items"))).isEqualTo("io.k8s.api.core.v1.Toleration");
        assertThat(ref(map(map(map(properties.get("initContainers")).get("properties")).get("extraInit")).get("items")))
                .isEqualTo("io.k8s.api.core.v1.Container");
        Map<String, Object> autoscaling = map(map(properties.get("autoscaling")).get("properties"));
        assertThat(ref(map(autoscaling.get("metrics")).get("items"))).isEqualTo("io.k8s.api.autoscaling.v2.MetricSpec");
        assertThat(ref(autoscaling.get("behavior"))).isEqualTo("io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerBehavior");
        String text = Files.readString(SCHEMA);
        assertThat(text).contains("\"$ref\": \"#/$defs/io.k8s.api.core.v1.Volume\"",
                "\"$ref\": \"#/$defs/io.k8s.api.core.v1.Volume-without-name\"",
                "\"$ref\": \"#/$defs/io.k8s.api.core.v1.VolumeMount-without-name\"",
                "\"$ref\": \"#/$defs/io.k8s.api.core.v1.SecretKeySelector\"");
    }

    @Test
    void onlyDefinitionsTheSchemaUsesAreEmbedded() throws IOException {
        String schema = Files.readString(SCHEMA);
        String withUnused = schema.replaceFirst("\"\\$defs\": \\{",
                "\"\\$defs\": {\n    \"io.k8s.api.core.v1.Pod\": {\"type\": \"object\"},");
        assertThat(withUnused).contains("io.k8s.api.core.v1.Pod\"");
        assertThat(EmbeddedKubernetesSchemas.regenerated(withUnused, kubernetes)).isEqualTo(schema);

        Map<String, Object> closure = kubernetes.closure(List.of("io.k8s.api.core.v1.Toleration"));
        assertThat(closure).containsOnlyKeys("io.k8s.api.core.v1.Toleration");
        assertThat(kubernetes.closure(List.of("io.k8s.api.core.v1.Affinity")))
                .containsKeys("io.k8s.api.core.v1.NodeSelectorRequirement", "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector")
                .doesNotContainKey("io.k8s.api.core.v1.Container");
        assertThatThrownBy(() -> kubernetes.closure(List.of("io.k8s.api.core.v1.Afinity")))
                .hasMessageContaining("no definition io.k8s.api.core.v1.Afinity");
    }

    @Test
    void everyObjectWithFixedFieldsAllowsNoOtherAndEveryReferenceIsLocal() throws IOException {
        Map<String, Object> defs = map(json(Files.readString(SCHEMA)).get("$defs"));
        List<String> open = new ArrayList<>();
        List<String> remote = new ArrayList<>();
        defs.forEach((name, def) -> {
            if (name.startsWith(KubernetesDefinitions.PREFIX)) {
                walk(name, def, open, remote);
            }
        });
        assertThat(defs.keySet().stream().filter(n -> n.startsWith(KubernetesDefinitions.PREFIX))).hasSizeGreaterThan(50);
        assertThat(open).as("objects with properties that allow other keys").isEmpty();
        assertThat(remote).as("references outside the schema's $defs").isEmpty();
    }

    /** The definitions validate as Kubernetes decodes: IntOrString, Quantity, one-of unions, map forms without a name. */
    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource(delimiter = '|', value = {
            "io.k8s.api.core.v1.HTTPGetAction | {\"port\": 8000}                                  | true",
            "io.k8s.api.core.v1.HTTPGetAction | {\"port\": \"http-openai\"}                       | true",
            "io.k8s.api.core.v1.HTTPGetAction | {\"port\": 80.5}                                  | false",
            "io.k8s.api.core.v1.HTTPGetAction | {\"port\": 8000, \"paht\": \"/\"}                 | false",
            "io.k8s.api.core.v1.EmptyDirVolumeSource | {\"sizeLimit\": \"16Gi\"}                  | true",
            "io.k8s.api.core.v1.EmptyDirVolumeSource | {\"sizeLimit\": 1000000}                    | true",
            "io.k8s.api.core.v1.EmptyDirVolumeSource | {\"sizeLimit\": \"1.5e3\"}                  | true",
            "io.k8s.api.core.v1.EmptyDirVolumeSource | {\"sizeLimit\": \"16 GB\"}                  | false",
            "io.k8s.api.core.v1.Volume | {\"name\": \"a\"}                                       | true",
            "io.k8s.api.core.v1.Volume | {\"name\": \"a\", \"emptyDir\": {}}                     | true",
            "io.k8s.api.core.v1.Volume | {\"name\": \"a\", \"emptyDir\": {}, \"hostPath\": {\"path\": \"/x\"}} | false",
            "io.k8s.api.core.v1.Volume | {\"emptyDir\": {}}                                     | false",
            "io.k8s.api.core.v1.Volume-without-name | {\"emptyDir\": {}}                        | true",
            "io.k8s.api.core.v1.Volume-without-name | {\"name\": \"a\", \"emptyDir\": {}}        | false",
            "io.k8s.api.core.v1.VolumeMount-without-name | {\"mountPath\": \"/x\"}                | true",
            "io.k8s.api.core.v1.VolumeMount-without-name | {\"readOnly\": true}                  | false",
            "io.k8s.api.core.v1.EnvVarSource | {}                                                 | false",
            "io.k8s.api.core.v1.EnvVarSource | {\"fieldRef\": {\"fieldPath\": \"metadata.name\"}} | true",
            "io.k8s.api.core.v1.Toleration | {\"key\": \"a\", \"tolerationSeconds\": \"300\"}     | false",
            "io.k8s.api.core.v1.NodeSelectorRequirement | {\"key\": \"a\", \"operator\": \"Exists\"} | true",
            "io.k8s.api.core.v1.NodeSelectorRequirement | {\"key\": \"a\"}                      | false",
            // enum values, from the API's generated definitions
            "io.k8s.api.core.v1.Toleration | {\"key\": \"a\", \"operator\": \"Exists\", \"effect\": \"NoSchedule\"} | true",
            "io.k8s.api.core.v1.Toleration | {\"key\": \"a\", \"operator\": \"Exist\"}       | false",
            "io.k8s.api.core.v1.Toleration | {\"key\": \"a\", \"effect\": \"NoSchedul\"}      | false",
            "io.k8s.api.core.v1.Container | {\"name\": \"a\", \"imagePullPolicy\": \"IfNotPresnt\"} | false",
            "io.k8s.api.core.v1.PersistentVolumeClaimSpec | {\"accessModes\": [\"ReadWriteMany\"]} | true",
            "io.k8s.api.core.v1.PersistentVolumeClaimSpec | {\"accessModes\": [\"ReadWriteAll\"]} | false",
            // rules of Kubernetes' validation code (kubernetes-rules.json)
            "io.k8s.api.core.v1.Toleration | {\"operator\": \"Exists\"}                          | true",
            "io.k8s.api.core.v1.Toleration | {\"effect\": \"NoSchedule\"}                        | false",
            "io.k8s.api.core.v1.Toleration | {\"key\": \"a\", \"operator\": \"Exists\", \"value\": \"b\"} | false",
            "io.k8s.api.core.v1.Toleration | {\"key\": \"a b\", \"operator\": \"Exists\"}    | false",
            "io.k8s.api.core.v1.Toleration | {\"key\": \"a\", \"value\": \"b/c\"}            | false",
            "io.k8s.api.core.v1.Toleration | {\"key\": \"a\", \"tolerationSeconds\": 30, \"effect\": \"NoExecute\"} | true",
            "io.k8s.api.core.v1.Toleration | {\"key\": \"a\", \"tolerationSeconds\": 30, \"effect\": \"NoSchedule\"} | false",
            "io.k8s.api.core.v1.NodeSelectorRequirement | {\"key\": \"a\", \"operator\": \"In\", \"values\": [\"x\"]} | true",
            "io.k8s.api.core.v1.NodeSelectorRequirement | {\"key\": \"a\", \"operator\": \"In\"} | false",
            "io.k8s.api.core.v1.NodeSelectorRequirement | {\"key\": \"a\", \"operator\": \"In\", \"values\": []} | false",
            "io.k8s.api.core.v1.NodeSelectorRequirement | {\"key\": \"a\", \"operator\": \"Exists\", \"values\": [\"x\"]} | false",
            "io.k8s.api.core.v1.NodeSelectorRequirement | {\"key\": \"a\", \"operator\": \"Gt\", \"values\": [\"3\"]} | true",
            "io.k8s.api.core.v1.NodeSelectorRequirement | {\"key\": \"a\", \"operator\": \"Gt\", \"values\": [\"x\"]} | false",
            "io.k8s.api.core.v1.NodeSelectorRequirement | {\"key\": \"a\", \"operator\": \"Equals\"} | false",
            "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement | {\"key\": \"a\", \"operator\": \"NotIn\"} | false",
            "io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement | {\"key\": \"a\", \"operator\": \"Equals\", \"values\": [\"x\"]} | false",
            "io.k8s.api.core.v1.SecurityContext | {\"allowPrivilegeEscalation\": false, \"privileged\": true} | false",
            "io.k8s.api.core.v1.SecurityContext | {\"allowPrivilegeEscalation\": true, \"privileged\": true} | true",
            "io.k8s.api.core.v1.SecurityContext | {\"allowPrivilegeEscalation\": false, \"capabilities\": {\"add\": [\"SYS_ADMIN\"]}} | false",
            "io.k8s.api.core.v1.SecurityContext | {\"allowPrivilegeEscalation\": false, \"capabilities\": {\"add\": [\"IPC_LOCK\"]}} | true",
            "io.k8s.api.core.v1.SecurityContext | {\"runAsUser\": -1}                              | false",
            "io.k8s.api.core.v1.ResourceRequirements | {\"limits\": {\"memory\": \"-1Gi\"}}      | false",
            "io.k8s.api.core.v1.ResourceRequirements | {\"requests\": {\"cpu\": -2}}             | false",
    })
    void definitionsAcceptWhatKubernetesAccepts(String definition, String instance, boolean valid) {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        schema.put("$ref", KubernetesDefinitions.DEFS_REF + definition);
        schema.put("$defs", kubernetes.closure(List.of(definition)));
        Schema validator = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                .getSchema(SchemaLocation.of("https://nim-llm.chart/test.json"), JsonMapper.shared().writeValueAsString(schema),
                        InputFormat.JSON);
        assertThat(validator.validate(instance, InputFormat.JSON)).as("%s %s", definition, instance).matches(e -> e.isEmpty() == valid);
    }

    private static void walk(String path, Object node, List<String> open, List<String> remote) {
        if (node instanceof Map<?, ?> m) {
            // An object type with fixed fields; the rules added as allOf (kubernetes-rules.json) only narrow those fields.
            if ("object".equals(m.get("type")) && m.containsKey("properties") && !Boolean.FALSE.equals(m.get("additionalProperties"))) {
                open.add(path);
            }
            if (m.get("$ref") instanceof String ref && !ref.startsWith(KubernetesDefinitions.DEFS_REF)) {
                remote.add(path + ": " + ref);
            }
            m.forEach((k, v) -> walk(path + "/" + k, v, open, remote));
        } else if (node instanceof List<?> list) {
            list.forEach(v -> walk(path + "[]", v, open, remote));
        }
    }

    private static String ref(Object node) {
        String ref = (String) map(node).get("$ref");
        return ref == null ? null : ref.substring(KubernetesDefinitions.DEFS_REF.length());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(String text) {
        return JsonMapper.shared().readValue(text, LinkedHashMap.class);
    }
}
