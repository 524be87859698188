package dev.nimchart.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.objects.KubeObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A LeaderWorkerSet is done only once its status describes its current spec. */
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
}
