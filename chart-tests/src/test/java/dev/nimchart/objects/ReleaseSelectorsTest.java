package dev.nimchart.objects;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReleaseSelectorsTest {

    private static String deployment(String name, String podName, String selectorName) {
        return """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: %s}
                spec:
                  selector:
                    matchLabels: {app.kubernetes.io/name: %s, app.kubernetes.io/instance: r}
                  template:
                    metadata:
                      labels: {app.kubernetes.io/name: %s, app.kubernetes.io/instance: r}
                    spec:
                      containers: [{name: c, image: x}]
                """.formatted(name, selectorName, podName);
    }

    /** A Service named model on port 80 selecting by {@code selector} (a flow mapping of labels), as a following document. */
    private static String service(String selector) {
        return """
                ---
                apiVersion: v1
                kind: Service
                metadata: {name: model}
                spec:
                  selector: %s
                  ports: [{port: 80}]
                """.formatted(selector);
    }

    @Test
    void disjointSelectorsPass() {
        RenderedManifest m = RenderedManifest.parse(deployment("model", "nim-llm", "nim-llm") + "---\n" + deployment("picker", "nim-llm-epp", "nim-llm-epp"));
        assertThat(ReleaseSelectors.problems(m)).isEmpty();
    }

    @Test
    void aModelSelectorThatTakesInThePickersPodsIsFound() {
        // As a nameOverride cut at 63 characters left the picker's name label equal to the model's.
        RenderedManifest m = RenderedManifest.parse(deployment("model", "n", "n") + "---\n" + deployment("picker", "n", "n") + service("{app.kubernetes.io/name: n}"));
        assertThat(ReleaseSelectors.problems(m)).hasSize(2)
                .anySatisfy(p -> assertThat(p).startsWith("Deployment model selects the pods of Deployment picker"))
                .anySatisfy(p -> assertThat(p).startsWith("Deployment picker selects the pods of Deployment model"));
    }

    @Test
    void aServiceOverTwoKindsOfWorkloadIsFoundAndOverSeveralObjectsOfOneKindIsNot() {
        String sts = deployment("model", "n", "n").replace("kind: Deployment", "kind: StatefulSet");
        String service = service("{app.kubernetes.io/instance: r}");
        assertThat(ReleaseSelectors.problems(RenderedManifest.parse(sts + "---\n" + deployment("picker", "p", "p") + service)))
                .hasSize(1).allSatisfy(p -> assertThat(p).startsWith("Service model selects the pods of 2 objects, StatefulSet model, Deployment picker"));
        assertThat(ReleaseSelectors.problems(RenderedManifest.parse(deployment("a", "a", "a") + "---\n" + deployment("b", "b", "b") + service)))
                .as("one Service over two Deployments of one workload").isEmpty();
    }

    @Test
    void matchExpressionsAreRead() {
        Map<String, Object> labels = Map.of("a", "1", "c", "x");
        assertThat(ReleaseSelectors.matches(Map.of("matchExpressions", List.of(Map.of("key", "a", "operator", "In", "values", List.of("1")),
                Map.of("key", "b", "operator", "DoesNotExist"))), labels)).isTrue();
        assertThat(ReleaseSelectors.matches(Map.of("matchExpressions", List.of(Map.of("key", "c", "operator", "NotIn", "values", List.of("x")))), labels))
                .isFalse();
        assertThat(ReleaseSelectors.matches(Map.of("matchLabels", Map.of("a", "2")), labels)).isFalse();
    }
}
