package dev.nimchart.chart.controllers;

import dev.nimchart.chart.repository.Reconciled;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.objects.KubeObject;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.assertj.core.api.SoftAssertions;

/**
 * What the controllers make of an example's Inference Gateway objects (inferencePool.enabled) and autoscaler: the
 * InferencePool selects exactly the Ready serving pods of the release (single-node pods, LeaderWorkerSet leaders),
 * never a worker nor the endpoint picker, on a port those pods declare; the Service its endpointPickerRef names has
 * exactly the endpoint picker's pods as endpoints, on the ext-proc port; an HTTPRoute's backend is that pool; the
 * autoscaler (HorizontalPodAutoscaler or KEDA ScaledObject) targets the release's workload by its scale subresource.
 * No gateway data plane runs: the route is checked on objects.
 */
final class RoutingChecks {

    private RoutingChecks() {
    }

    @SuppressWarnings("unchecked")
    static List<KubeObject> list(KubeApi api, String path) {
        KubeApi.Response response = api.get(path);
        if (response.code() == 404) {
            return List.of();
        }
        Map<String, Object> body = KubeApi.require(response, "list " + path);
        return ((List<Object>) body.getOrDefault("items", List.of())).stream().map(o -> new KubeObject((Map<String, Object>) o)).toList();
    }

    static void check(SoftAssertions soft, Reconciled r, KubeApi api) {
        String name = r.example().name();
        String ns = r.state().namespace();
        List<KubeObject> pools = list(api, "/apis/inference.networking.k8s.io/v1/namespaces/" + ns + "/inferencepools");
        soft.assertThat(pools).as("%s: InferencePools", name).hasSize(r.example().flag("inferencePool.enabled") ? 1 : 0);
        for (KubeObject pool : pools) {
            Object selector = Map.of("matchLabels", pool.at("spec.selector.matchLabels"));
            List<String> selected = r.state().livePods().stream().filter(p -> NamespaceState.selects(selector, p.labels()))
                    .map(KubeObject::name).sorted().toList();
            soft.assertThat(selected).as("%s: pods %s selects (the serving pods, never a worker or the endpoint picker)", name, pool)
                    .isEqualTo(Reconciled.names(r.servingPods()));
            soft.assertThat(r.servingPods()).as("%s: serving pods of %s are Ready", name, pool).allMatch(NamespaceState::ready);
            Object port = pool.at("spec.targetPorts[0].number");
            for (KubeObject pod : r.servingPods()) {
                soft.assertThat(pod.list("spec.containers").stream().flatMap(c -> c.list("ports").stream()).map(p -> String.valueOf(p.at("containerPort"))))
                        .as("%s: %s declares the pool's target port %s", name, pod.name(), port).contains(String.valueOf(port));
            }
            if (pool.at("spec.endpointPickerRef") == null) {
                // No picker of the release (inferencePool.epp.enabled: false; the ref is optional since GAIE v1.6.0).
                soft.assertThat(Reconciled.names(r.endpointPickers())).as("%s: endpoint picker pods of a pool without one", name).isEmpty();
            } else {
                String picker = String.valueOf(pool.at("spec.endpointPickerRef.name"));
                Set<String> endpoints = new TreeSet<>();
                Set<String> ports = new TreeSet<>();
                for (KubeObject slice : r.state().endpointSlicesOf(picker)) {
                    slice.list("endpoints").stream().filter(ep -> !Boolean.FALSE.equals(ep.at("conditions.ready")))
                            .forEach(ep -> endpoints.add(String.valueOf(ep.at("targetRef.name"))));
                    slice.list("ports").forEach(p -> ports.add(p.at("name") + "/" + p.at("port") + "/" + p.at("appProtocol")));
                }
                soft.assertThat(endpoints).as("%s: ready endpoints of the endpoint picker Service %s", name, picker)
                        .isEqualTo(new TreeSet<>(Reconciled.names(r.endpointPickers()))).isNotEmpty();
                soft.assertThat(ports).as("%s: ports of %s", name, picker).contains("grpc-ext-proc/" + pool.at("spec.endpointPickerRef.port.number") + "/null");
            }
            for (KubeObject route : list(api, "/apis/gateway.networking.k8s.io/v1/namespaces/" + ns + "/httproutes")) {
                soft.assertThat(route.list("spec.rules").stream().flatMap(rule -> rule.list("backendRefs").stream())
                        .map(b -> b.at("group") + "/" + b.at("kind") + "/" + b.at("name")).toList())
                        .as("%s: backends of %s", name, route).containsExactly("inference.networking.k8s.io/InferencePool/" + pool.name());
            }
        }
        for (KubeObject scaled : list(api, "/apis/keda.sh/v1alpha1/namespaces/" + ns + "/scaledobjects")) {
            String kind = String.valueOf(scaled.at("spec.scaleTargetRef.kind"));
            soft.assertThat(r.state().all(kind).stream().map(KubeObject::name).toList())
                    .as("%s: the workload %s targets", name, scaled).contains(String.valueOf(scaled.at("spec.scaleTargetRef.name")));
            soft.assertThat(r.state().all("HorizontalPodAutoscaler")).as("%s: no HorizontalPodAutoscaler beside %s (KEDA makes its own)", name, scaled).isEmpty();
        }
    }
}
