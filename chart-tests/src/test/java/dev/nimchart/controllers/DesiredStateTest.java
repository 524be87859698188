package dev.nimchart.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.objects.KubeObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A LeaderWorkerSet is done only once its status describes its current spec; pods the namespace's Pod Security level
 * refused are named first.
 */
class DesiredStateTest {

    private static KubeObject lws(long generation, long observed) {
        return new KubeObject(Map.of("apiVersion", "leaderworkerset.x-k8s.io/v1", "kind", "LeaderWorkerSet",
                "metadata", Map.of("name", "nim", "generation", generation), "spec", Map.of("replicas", 2),
                "status", Map.of("observedGeneration", observed, "replicas", 2, "readyReplicas", 2, "updatedReplicas", 2,
                        "conditions", List.of(Map.of("type", "Available", "status", "True")))));
    }

    @Test
    void aStatusFromBeforeTheLastUpgradeIsNotDone() {
        assertThat(DesiredState.notDone(lws(2, 1))).as("status of generation 1, spec of generation 2")
                .contains("observed generation 1 of 2");
    }

    @Test
    void aStatusOfTheCurrentSpecWithEveryGroupReadyIsDone() {
        assertThat(DesiredState.notDone(lws(2, 2))).isNull();
    }

    @Test
    void podsRefusedByPodSecurityAreNamedBeforeTheCount() {
        KubeObject event = new KubeObject(Map.of("apiVersion", "v1", "kind", "Event", "metadata", Map.of("name", "e1"), "type", "Warning",
                "reason", "FailedCreate", "involvedObject", Map.of("kind", "StatefulSet", "name", "nim-lws"),
                "source", Map.of("component", "statefulset-controller"),
                "message", "create Pod nim-lws-0 in StatefulSet nim-lws failed error: pods \"nim-lws-0\" is forbidden: violates PodSecurity"
                        + " \"restricted:latest\": unrestricted capabilities (container \"nim-llm\" must not include \"IPC_LOCK\")"));
        List<String> missing = DesiredState.missing(NamespaceState.of("ns", List.of(event)), 2);
        assertThat(missing).as("what is missing").hasSizeGreaterThanOrEqualTo(2);
        assertThat(missing.get(0)).startsWith("pods refused by the namespace's Pod Security level: StatefulSet/nim-lws FailedCreate:")
                .contains("IPC_LOCK");
        assertThat(missing.get(1)).isEqualTo("0 pods, expected 2");
        assertThat(DesiredState.missing(NamespaceState.of("ns", List.of()), 2)).as("without such an event")
                .startsWith("0 pods, expected 2").noneMatch(m -> m.contains("Pod Security"));
    }
}
