package dev.nimchart.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * KubeconformSchemas on a small OpenAPI v2 fixture (src/test/resources/bench/openapi-v2-fixture.json): file names as
 * kubeconform v0.8.0 forms them, references inlined, the strict flavour, IntOrString and Quantity, null where the
 * upstream converter allows it, recursion cut; the schemas are checked with a draft-4 validator, as kubeconform
 * compiles them.
 */
class KubeconformSchemasTest {

    private static Map<String, Object> openApi;
    private static Map<String, Map<String, Object>> written;

    @BeforeAll
    static void writeFixtureSchemas(@TempDir Path dir) throws IOException {
        openApi = fixture();
        written = new LinkedHashMap<>();
        for (Path file : new KubeconformSchemas(openApi).writeTo(dir)) {
            written.put(file.getFileName().toString(), json(Files.readString(file)));
        }
    }

    static Map<String, Object> fixture() {
        try (InputStream in = KubeconformSchemasTest.class.getResourceAsStream("/bench/openapi-v2-fixture.json")) {
            return json(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @ParameterizedTest
    @CsvSource({
            "v1, Service, service-v1.json",
            "apps/v1, Deployment, deployment-apps-v1.json",
            "leaderworkerset.x-k8s.io/v1, LeaderWorkerSet, leaderworkerset-leaderworkerset-v1.json",
            "kubeflow.org/v2beta1, MPIJob, mpijob-kubeflow-v2beta1.json",
            "monitoring.coreos.com/v1, ServiceMonitor, servicemonitor-monitoring-v1.json",
            "autoscaling/v2, HorizontalPodAutoscaler, horizontalpodautoscaler-autoscaling-v2.json",
    })
    void fileNamesAreWhatKubeconformsTemplateResolves(String apiVersion, String kind, String fileName) {
        assertThat(KubeconformSchemas.fileName(apiVersion, kind)).isEqualTo(fileName);
    }

    @Test
    void schemaLocationIsAPathTemplateEndingInJson() {
        assertThat(KubeconformSchemas.schemaLocation(Path.of("/tmp/schemas")))
                .isEqualTo("/tmp/schemas/{{ .ResourceKind }}{{ .KindSuffix }}.json");
    }

    @Test
    void oneFilePerGroupVersionKindAndNoneForOtherDefinitions() {
        assertThat(written).containsOnlyKeys("widget-apps-v1.json", "tree-v1.json", "gadget-gadgets-v1beta1.json",
                "options-v1.json", "options-apps-v1.json");
        assertThat(at(written.get("options-apps-v1.json"), "properties", "apiVersion", "enum")).isEqualTo(List.of("apps/v1"));
        assertThat(at(written.get("options-v1.json"), "properties", "apiVersion", "enum")).isEqualTo(List.of("v1"));
        assertThat(written.get("options-v1.json").get("x-kubernetes-group-version-kind"))
                .isEqualTo(List.of(Map.of("group", "", "version", "v1", "kind", "Options")));
    }

    @Test
    void referencesAreInlinedKeepingTheirSiblings() {
        written.forEach((file, schema) -> assertThat(JsonMapper.shared().writeValueAsString(schema)).as(file).doesNotContain("$ref"));
        Map<String, Object> widget = written.get("widget-apps-v1.json");
        assertThat(widget.get("$schema")).isEqualTo("http://json-schema.org/draft-04/schema#");
        assertThat(at(widget, "properties", "metadata", "description")).isEqualTo("Standard object metadata.");
        assertThat(at(widget, "properties", "metadata", "properties", "name", "type")).isEqualTo(List.of("string", "null"));
        assertThat(at(widget, "properties", "spec", "properties", "template", "properties", "ports", "items", "properties",
                "containerPort", "type")).isEqualTo("integer");
        assertThat(at(widget, "properties", "kind", "enum")).isEqualTo(List.of("Widget"));
    }

    @Test
    void objectsDeclaringPropertiesRefuseOthersAndMapsStayMaps() {
        Map<String, Object> widget = written.get("widget-apps-v1.json");
        assertThat(at(widget, "additionalProperties")).isEqualTo(false);
        assertThat(at(widget, "properties", "spec", "additionalProperties")).isEqualTo(false);
        assertThat(at(widget, "properties", "spec", "properties", "template", "additionalProperties")).isEqualTo(false);
        assertThat(at(widget, "properties", "spec", "properties", "template", "properties", "ports", "items",
                "additionalProperties")).isEqualTo(false);
        assertThat(at(widget, "properties", "metadata", "properties", "labels", "additionalProperties"))
                .isEqualTo(Map.of("type", List.of("string", "null")));
        assertThat(at(written.get("gadget-gadgets-v1beta1.json"), "properties", "spec", "properties", "free"))
                .isEqualTo(Map.of("type", List.of("object", "null")));
    }

    @Test
    void nullIsAllowedExceptOnPropertiesOfObjectsWithRequiredFields() {
        Map<String, Object> widget = written.get("widget-apps-v1.json");
        assertThat(at(widget, "type")).isEqualTo("object");
        assertThat(at(widget, "properties", "spec", "type")).isEqualTo(List.of("object", "null"));
        assertThat(at(widget, "properties", "spec", "properties", "replicas", "type")).isEqualTo("integer");
        assertThat(at(widget, "properties", "spec", "properties", "template", "properties", "image", "type"))
                .isEqualTo(List.of("string", "null"));
        assertThat(at(widget, "properties", "spec", "properties", "template", "properties", "ports", "items", "type"))
                .isEqualTo(List.of("object", "null"));
    }

    @Test
    void intOrStringAndQuantityAcceptNumbersAndStrings() {
        Map<String, Object> widget = written.get("widget-apps-v1.json");
        assertThat(at(widget, "properties", "spec", "properties", "maxSurge", "type")).isEqualTo(List.of("integer", "string"));
        assertThat(at(widget, "properties", "spec", "properties", "maxSurge", "description")).isEqualTo("an int32 or a string");
        assertThat(at(widget, "properties", "spec", "properties", "template", "properties", "memory", "type"))
                .isEqualTo(List.of("number", "string", "null"));
        assertThat(at(written.get("gadget-gadgets-v1beta1.json"), "properties", "spec", "properties", "partition", "type"))
                .isEqualTo(List.of("integer", "string", "null"));

        Schema schema = compiled("widget-apps-v1.json");
        for (Object surge : List.of(1, "25%")) {
            for (Object memory : List.of(1.5, 2, "64Gi")) {
                assertThat(schema.validate(node(widget(Map.of("maxSurge", surge, "template", Map.of("memory", memory))))))
                        .as("maxSurge %s, memory %s", surge, memory).isEmpty();
            }
        }
        assertThat(messages(schema, widget(Map.of("maxSurge", true, "template", Map.of())))).singleElement().asString()
                .contains("maxSurge");
    }

    @Test
    void recursionIsCutWhereADefinitionReappearsInsideItself() {
        Map<String, Object> tree = written.get("tree-v1.json");
        assertThat(at(tree, "properties", "children", "items")).isEqualTo(Map.of());
        Schema schema = compiled("tree-v1.json");
        Map<String, Object> deep = Map.of("apiVersion", "v1", "kind", "Tree", "children",
                List.of(Map.of("anything", List.of("goes below the cut"))));
        assertThat(schema.validate(node(deep))).isEmpty();
        assertThat(messages(schema, Map.of("apiVersion", "v1", "kind", "Tree", "leaf", 1))).singleElement().asString()
                .contains("leaf");
    }

    @Test
    void unknownFieldsAreRefusedAtEveryLevel() {
        Schema schema = compiled("widget-apps-v1.json");
        assertThat(schema.validate(node(widget(Map.of("replicas", 2, "template", Map.of("image", "nginx",
                "ports", List.of(Map.of("containerPort", 80, "name", "http")))))))).isEmpty();

        Map<String, Object> rootTypo = new LinkedHashMap<>(widget(Map.of("template", Map.of())));
        rootTypo.put("sepc", Map.of());
        assertThat(messages(schema, rootTypo)).singleElement().asString().contains("sepc");
        assertThat(messages(schema, widget(Map.of("template", Map.of("ports", List.of(Map.of("containerPort", 80, "hostPortt", 1)))))))
                .singleElement().asString().contains("hostPortt");
        assertThat(messages(schema, Map.of("apiVersion", "apps/v2", "kind", "Widget"))).singleElement().asString()
                .contains("apiVersion");
    }

    @Test
    void kindsThatWouldShareAFileAreRefused() {
        Map<String, Object> definitions = new LinkedHashMap<>();
        for (String group : List.of("x.one.example", "x.two.example")) {
            definitions.put("io.example." + group + ".Thing", Map.of("type", "object",
                    "x-kubernetes-group-version-kind", List.of(Map.of("group", group, "version", "v1", "kind", "Thing"))));
        }
        assertThatThrownBy(() -> new KubeconformSchemas(Map.of("definitions", definitions)).writeTo(Path.of("target", "never-written")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("thing-x-v1.json");
        assertThat(Path.of("target", "never-written")).doesNotExist();
    }

    // ---------------------------------------------------------------------------------------------------------------

    static Map<String, Object> widget(Map<String, Object> spec) {
        return Map.of("apiVersion", "apps/v1", "kind", "Widget", "metadata", Map.of("name", "w", "labels", Map.of("a", "b")),
                "spec", spec);
    }

    private static Schema compiled(String file) {
        return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_4)
                .getSchema(SchemaLocation.of("urn:test:" + file), node(written.get(file)));
    }

    private static List<String> messages(Schema schema, Map<String, Object> instance) {
        return schema.validate(node(instance)).stream().map(Error::toString).toList();
    }

    private static tools.jackson.databind.JsonNode node(Object value) {
        return JsonMapper.shared().valueToTree(value);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(String text) {
        return JsonMapper.shared().readValue(text, Map.class);
    }

    private static Object at(Map<String, Object> schema, String... path) {
        Object at = schema;
        for (String step : path) {
            assertThat(at).as("parent of %s", step).isInstanceOf(Map.class);
            at = ((Map<?, ?>) at).get(step);
        }
        return at;
    }
}
