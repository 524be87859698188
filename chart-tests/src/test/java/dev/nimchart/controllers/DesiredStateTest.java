package dev.nimchart.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.objects.KubeObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A LeaderWorkerSet is done only once its status describes its current spec; pods the namespace's Pod Security level
 * refused are named first; a pod of a workload's earlier revision is not its desired state, whatever the workload's
 * status says (a snapshot's lists are read one after another).
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

    private static KubeObject object(String kind, String name, Map<String, Object> metadata, Map<String, Object> rest) {
        Map<String, Object> o = new java.util.LinkedHashMap<>(rest);
        Map<String, Object> meta = new java.util.LinkedHashMap<>(metadata);
        meta.put("name", name);
        o.put("apiVersion", kind.equals("Pod") ? "v1" : "apps/v1");
        o.put("kind", kind);
        o.put("metadata", meta);
        return new KubeObject(o);
    }

    private static Map<String, Object> ownedBy(String kind, String name) {
        return Map.of("ownerReferences", List.of(Map.of("kind", kind, "name", name, "controller", true)));
    }

    private static KubeObject readyPod(String name, Map<String, Object> metadata) {
        return object("Pod", name, metadata, Map.of("spec", Map.of("nodeName", "gpu-node-0"),
                "status", Map.of("phase", "Running", "conditions", List.of(Map.of("type", "Ready", "status", "True")))));
    }

    /** A Deployment whose status reports revision 2 rolled out, its two ReplicaSets, and one Ready pod of {@code podsSet}. */
    private static NamespaceState deploymentWithPodOf(String podsSet) {
        KubeObject deployment = object("Deployment", "nim", Map.of("generation", 2, "annotations", Map.of("deployment.kubernetes.io/revision", "2")),
                Map.of("spec", Map.of("replicas", 1), "status", Map.of("observedGeneration", 2, "replicas", 1, "availableReplicas", 1,
                        "updatedReplicas", 1)));
        KubeObject old = object("ReplicaSet", "nim-old", Map.of("annotations", Map.of("deployment.kubernetes.io/revision", "1"),
                "ownerReferences", List.of(Map.of("kind", "Deployment", "name", "nim", "controller", true))), Map.of());
        KubeObject current = object("ReplicaSet", "nim-new", Map.of("annotations", Map.of("deployment.kubernetes.io/revision", "2"),
                "ownerReferences", List.of(Map.of("kind", "Deployment", "name", "nim", "controller", true))), Map.of());
        return NamespaceState.of("ns", List.of(deployment, old, current, readyPod("nim-pod", ownedBy("ReplicaSet", podsSet))));
    }

    @Test
    void aPodOfTheDeploymentsEarlierReplicaSetIsNotTheDesiredStateThoughTheStatusSaysRolledOut() {
        assertThat(DesiredState.missing(deploymentWithPodOf("nim-old"), 1))
                .containsExactly("pod nim-pod is of ReplicaSet/nim-old (revision 1), Deployment/nim is at revision 2");
        assertThat(DesiredState.missing(deploymentWithPodOf("nim-new"), 1)).as("the pod of the current ReplicaSet").isEmpty();
    }

    @Test
    void aPodOfTheStatefulSetsEarlierRevisionIsNotTheDesiredState() {
        KubeObject set = object("StatefulSet", "nim", Map.of("generation", 2), Map.of("spec", Map.of("replicas", 1),
                "status", Map.of("observedGeneration", 2, "readyReplicas", 1, "updatedReplicas", 1, "currentRevision", "nim-b",
                        "updateRevision", "nim-b")));
        Map<String, Object> oldPod = new java.util.LinkedHashMap<>(ownedBy("StatefulSet", "nim"));
        oldPod.put("labels", Map.of("controller-revision-hash", "nim-a"));
        Map<String, Object> newPod = new java.util.LinkedHashMap<>(ownedBy("StatefulSet", "nim"));
        newPod.put("labels", Map.of("controller-revision-hash", "nim-b"));

        assertThat(DesiredState.missing(NamespaceState.of("ns", List.of(set, readyPod("nim-0", oldPod))), 1))
                .containsExactly("pod nim-0 is of revision nim-a, StatefulSet/nim's current one is nim-b");
        assertThat(DesiredState.missing(NamespaceState.of("ns", List.of(set, readyPod("nim-0", newPod))), 1)).isEmpty();
    }
}
