package dev.nimchart.chart.controllers;

import dev.nimchart.chart.repository.OwnEnvironment;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.cluster.KubeApi;
import dev.nimchart.controllers.ControllerEnvironment;
import dev.nimchart.controllers.DesiredState;
import dev.nimchart.junit.ControllerTier;
import dev.nimchart.sessions.ControllerSession;
import dev.nimchart.sessions.TierNamespaces;
import dev.nimchart.objects.KubeObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The tier's kube-controller-manager carries the fix for Kubernetes issue 138407 (upstream in v1.37.2, the tier's
 * version; {@code ci/build-controllers.sh} adds it to v1.34.10, which lacks it): its resource claim controller applies a pod's {@code status.resourceClaimStatuses} with only the claims it has
 * just created or found, and server-side apply dropped the entries it had recorded before, so a pod with two claims
 * from templates could flap between one-entry lists and never be scheduled (seen in {@code PlacementIT}). The test puts
 * a pod into the state that starts the flap (one of its two entries recorded by the controller's field manager, the
 * other missing) and requires both entries back and staying.
 */
@ExtendWith(ControllerTier.class)
class ResourceClaimControllerIT {

    private static final String FIELD_MANAGER = "ResourceClaimController";

    @Test
    void aPodKeepsBothOfItsClaimStatusesOnceOneWasDropped(ControllerSession session) throws InterruptedException {
        ControllerEnvironment env = OwnEnvironment.required(session, "checks the controller manager the harness builds, not a cluster's own");
        KubeApi api = env.api();
        String namespace = TierNamespaces.create(api, "claim-statuses", "restricted");
        try {
            String templates = "/apis/resource.k8s.io/v1/namespaces/" + namespace + "/resourceclaimtemplates";
            for (String name : List.of("first", "second")) {
                KubeApi.require(api.post(templates, template(name)), "create ResourceClaimTemplate " + name);
            }
            String pod = "/api/v1/namespaces/" + namespace + "/pods/two-claims";
            KubeApi.require(api.post("/api/v1/namespaces/" + namespace + "/pods", pod()), "create the pod");
            awaitBothClaims(env, namespace, "the two claim statuses the controller recorded");

            // The state that started the flap: the controller's own field manager records only the first claim.
            KubeObject now = new KubeObject(KubeApi.require(api.get(pod), "read the pod"));
            Map<String, Object> first = now.list("status.resourceClaimStatuses").stream()
                    .filter(s -> "first".equals(s.at("name"))).findFirst().orElseThrow().raw();
            KubeApi.require(api.apply(pod + "/status", Map.of("apiVersion", "v1", "kind", "Pod",
                    "metadata", Map.of("name", "two-claims", "namespace", namespace),
                    "status", Map.of("resourceClaimStatuses", List.of(first))), FIELD_MANAGER), "apply one claim status");

            awaitBothClaims(env, namespace, "both claim statuses back after one was dropped");
            List<Set<String>> seen = new ArrayList<>();
            for (int i = 0; i < 15; i++) {
                seen.add(claimNames(api, pod));
                Thread.sleep(200);
            }
            assertThat(seen).as("claim statuses read every 200 ms for 3 s (a flap shows one entry at a time)")
                    .allSatisfy(names -> assertThat(names).containsExactly("first", "second"));
        } finally {
            TierNamespaces.delete(api, namespace, env::requireAllRunning);
        }
    }

    /** Waits (failing with the namespace described) until the pod's status names both its claims. */
    private static void awaitBothClaims(ControllerEnvironment env, String namespace, String what) {
        DesiredState.awaitUntil(env.api(), namespace, s -> s.pods().stream().anyMatch(p -> names(p).equals(Set.of("first", "second"))),
                what, Duration.ofSeconds(30), env::requireAllRunning);
    }

    private static Set<String> names(KubeObject pod) {
        Set<String> names = new TreeSet<>();
        pod.list("status.resourceClaimStatuses").forEach(s -> names.add(String.valueOf(s.at("name"))));
        return names;
    }

    private static Set<String> claimNames(KubeApi api, String pod) {
        return names(new KubeObject(KubeApi.require(api.get(pod), "read the pod")));
    }

    private static Map<String, Object> template(String name) {
        return Map.of("apiVersion", "resource.k8s.io/v1", "kind", "ResourceClaimTemplate", "metadata", Map.of("name", name),
                "spec", Map.of("spec", Map.of("devices", Map.of("requests", List.of(Map.of("name", "device",
                        "exactly", Map.of("deviceClassName", "no-such-class.example.com")))))));
    }

    /** A pod no node takes (its node selector matches none), so only the claim controller works on it. */
    private static Map<String, Object> pod() {
        Map<String, Object> restricted = Map.of("allowPrivilegeEscalation", false, "runAsNonRoot", true, "runAsUser", 1000,
                "capabilities", Map.of("drop", List.of("ALL")), "seccompProfile", Map.of("type", "RuntimeDefault"));
        return Map.of("apiVersion", "v1", "kind", "Pod", "metadata", Map.of("name", "two-claims"), "spec", Map.of(
                "nodeSelector", Map.of("nim-chart-tests/no-such-node", "true"),
                "resourceClaims", List.of(Map.of("name", "first", "resourceClaimTemplateName", "first"),
                        Map.of("name", "second", "resourceClaimTemplateName", "second")),
                "containers", List.of(Map.of("name", "main", "image", "registry.invalid/none:1", "securityContext", restricted,
                        "resources", Map.of("claims", List.of(Map.of("name", "first"), Map.of("name", "second")))))));
    }
}
