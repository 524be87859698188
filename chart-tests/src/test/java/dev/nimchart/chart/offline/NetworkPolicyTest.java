package dev.nimchart.chart.offline;

import dev.nimchart.chart.repository.Examples;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.Example;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.PodTemplate;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartUnderTest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The NetworkPolicies, on by default: the inference port of the serving pods open to networkPolicy.ingressFrom (and the
 * helm test pod) only; in multi-node one policy per group, all ports, from pods of that group only (and in air-gap
 * mode egress to the same group). Every example is checked as written and again with {@code networkPolicy.enabled=true};
 * the groups' pod labels are the ones the LeaderWorkerSet and MPI operators add. {@link PodSecurityPolicyTest} checks
 * what every pod (the picker's, the pre-fill Job's, the test pod's too) can be reached on.
 */
class NetworkPolicyTest {

    private static final Map<String, String> ENABLED = Map.of("networkPolicy.enabled", "true");

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.ALL)
    void policiesExistUnlessTheValuesTurnThemOff(Path file) {
        Example e = Example.of(file);
        assertThat(e.manifest.ofKind("NetworkPolicy")).as("%s: on by default", e.name()).isNotEmpty();
        assertThat(ChartUnderTest.render(file, Map.of("networkPolicy.enabled", "false")).ofKind("NetworkPolicy"))
                .as("%s: networkPolicy.enabled false", e.name()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.ALL)
    void theInferencePortIsOpenToTheChosenClientsOnly(Path file) {
        Example e = Example.of(file);
        RenderedManifest m = ChartUnderTest.render(file, ENABLED);
        List<KubeObject> inference = policies(m, "-inference");
        assertThat(inference).as("%s: one policy for the inference port", e.name()).hasSize(1);
        KubeObject policy = inference.get(0);
        assertThat(policy.at("spec.policyTypes")).as(e.name()).isEqualTo(List.of("Ingress"));
        assertThat(policy.list("spec.ingress")).as(e.name()).hasSize(1);
        List<Object> ports = new ArrayList<>(List.of(Map.of("port", "http-openai", "protocol", "TCP")));
        if (healthPort(e) > 0) {
            ports.add(Map.of("port", "http-health", "protocol", "TCP"));
        }
        assertThat(policy.at("spec.ingress[0].ports")).as(e.name()).isEqualTo(ports);
        Map<?, ?> selector = (Map<?, ?>) policy.at("spec.podSelector.matchLabels");
        for (PodTemplate t : ServingPods.selectedExactly(e.name(), String.valueOf(policy), selector, PodTemplate.of(m))) {
            assertThat(t.nim().list("ports")).as("%s: %s names the port", e.name(), t)
                    .anyMatch(p -> "http-openai".equals(p.at("name")));
        }
        List<?> clients = e.values.at("networkPolicy.ingressFrom") instanceof List<?> l ? l : List.of();
        if (clients.isEmpty()) {
            assertThat(policy.at("spec.ingress[0].from")).as("%s: open to any client", e.name()).isNull();
        } else {
            List<Object> expected = new ArrayList<>(clients);
            expected.add(Map.of("podSelector", Map.of("matchLabels", Map.of("app.kubernetes.io/name", dev.nimchart.render.ChartUnderTest.chart().name(),
                    "app.kubernetes.io/instance", ChartUnderTest.releaseName(file), "app.kubernetes.io/component", "test"))));
            // A picker that scrapes the pods' /v1/metrics is let in (GAIE v1.6.0's lightweight picker scrapes none).
            if (e.flag("inferencePool.enabled") && e.flag("inferencePool.epp.enabled") && !"lwepp".equals(e.text("inferencePool.epp.picker"))) {
                expected.add(Map.of("podSelector", Map.of("matchLabels", Map.of("app.kubernetes.io/name", dev.nimchart.render.ChartUnderTest.chart().name() + "-epp",
                        "app.kubernetes.io/instance", ChartUnderTest.releaseName(file), "app.kubernetes.io/component", PodTemplate.ENDPOINT_PICKER))));
            }
            assertThat(policy.at("spec.ingress[0].from")).as("%s: the chosen clients, the helm test pod and the endpoint picker", e.name())
                    .isEqualTo(expected);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.ALL)
    void eachGroupTalksOnlyWithinItself(Path file) {
        Example e = Example.of(file);
        RenderedManifest m = ChartUnderTest.render(file, ENABLED);
        List<KubeObject> groupPolicies = policies(m, "-group-\\d+");
        List<List<Map<String, Object>>> groups = groupPods(e, m);
        assertThat(groupPolicies).as("%s: one policy per group", e.name()).hasSize(groups.size());
        for (int i = 0; i < groupPolicies.size(); i++) {
            KubeObject policy = groupPolicies.get(i);
            Object selector = policy.at("spec.podSelector");
            assertThat(policy.at("spec.ingress")).as("%s: %s allows all ports from its own group only", e.name(), policy)
                    .isEqualTo(List.of(Map.of("from", List.of(Map.of("podSelector", selector)))));
            if (e.flag("airGap.enabled")) {
                assertThat(policy.at("spec.egress")).as("%s: %s in air-gap mode: egress to its own group", e.name(), policy)
                        .isEqualTo(List.of(Map.of("to", List.of(Map.of("podSelector", selector)))));
            }
            Map<?, ?> labels = (Map<?, ?>) policy.at("spec.podSelector.matchLabels");
            for (int g = 0; g < groups.size(); g++) {
                for (Map<String, Object> pod : groups.get(g)) {
                    assertThat(pod.entrySet().containsAll(labels.entrySet()))
                            .as("%s: %s selects the pods of group %d", e.name(), policy, g).isEqualTo(g == i);
                }
            }
        }
    }

    /** The manifest's NetworkPolicies whose names end with {@code suffix} (a regular expression), in document order. */
    private static List<KubeObject> policies(RenderedManifest m, String suffix) {
        return m.ofKind("NetworkPolicy").stream().filter(p -> p.name().matches(".*" + suffix)).toList();
    }

    /**
     * The labels of the pods of each group: the template's, plus what the operator adds (LeaderWorkerSet group i:
     * leaderworkerset.sigs.k8s.io/name and group-index; each MPIJob: training.kubeflow.org/job-name). The autoscaler
     * may create up to autoscaling.maxReplicas LeaderWorkerSet groups.
     */
    private static List<List<Map<String, Object>>> groupPods(Example e, RenderedManifest m) {
        List<List<Map<String, Object>>> groups = new ArrayList<>();
        for (KubeObject lws : m.ofKind("LeaderWorkerSet")) {
            int count = e.flag("autoscaling.enabled") ? e.integer("autoscaling.maxReplicas") : e.integer("replicaCount");
            for (int i = 0; i < count; i++) {
                groups.add(podLabels(PodTemplate.of(lws), Map.of("leaderworkerset.sigs.k8s.io/name", lws.name(),
                        "leaderworkerset.sigs.k8s.io/group-index", String.valueOf(i))));
            }
        }
        for (KubeObject job : m.ofKind("MPIJob")) {
            groups.add(podLabels(PodTemplate.of(job), Map.of("training.kubeflow.org/job-name", job.name())));
        }
        return groups;
    }

    private static List<Map<String, Object>> podLabels(List<PodTemplate> templates, Map<String, String> operatorLabels) {
        return templates.stream().map(t -> {
            Map<String, Object> labels = new HashMap<>(t.labels());
            labels.putAll(operatorLabels);
            return labels;
        }).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.ALL)
    void theHealthPortIsOpenToTheSameClientsAsTheInferencePortWhenItIsAPortOfItsOwn(Path file) {
        healthPortIsOpenWithTheInferencePort(Example.of(file), ChartUnderTest.render(file, ENABLED));
    }

    @org.junit.jupiter.api.Test
    void aHealthPortSetOnAModelFreeReleaseIsOpenedWithTheInferencePort() {
        Path file = dev.nimchart.chart.repository.Examples.named("single-node-model-free-huggingface.yaml");
        Map<String, String> sets = new HashMap<>(ENABLED);
        sets.put("model.healthPort", "8001");
        sets.put("networkPolicy.ingressFrom[0].namespaceSelector.matchLabels.team", "monitoring");
        RenderedManifest m = ChartUnderTest.render(file, sets);
        KubeObject policy = healthPortIsOpenWithTheInferencePort(Example.of(file), m);
        assertThat(policy.at("spec.ingress[0].ports")).as("the health port is opened").asList().hasSize(2);
        assertThat(policy.list("spec.ingress")).as("in the inference port's rule, so to the same clients").hasSize(1);
    }

    /** The inference policy opens http-health with http-openai when model.healthPort is set, and each pod it selects that
     * serves health there names that port with model.healthPort's number. */
    private static KubeObject healthPortIsOpenWithTheInferencePort(Example e, RenderedManifest m) {
        KubeObject policy = policies(m, "-inference").get(0);
        List<Object> ports = new ArrayList<>((List<?>) policy.at("spec.ingress[0].ports"));
        int health = m.ofKind("Service").stream().flatMap(s -> s.list("spec.ports").stream()).filter(p -> "http-health".equals(p.at("name")))
                .map(p -> Integer.parseInt(p.at("port").toString())).findFirst().orElse(0);
        if (health == 0) {
            assertThat(ports).as("%s: no health port of its own, none opened", e.name()).doesNotContain(Map.of("port", "http-health", "protocol", "TCP"));
            return policy;
        }
        assertThat(ports).as("%s: model.healthPort %d opened with the inference port", e.name(), health)
                .contains(Map.of("port", "http-health", "protocol", "TCP"));
        Map<?, ?> selector = (Map<?, ?>) policy.at("spec.podSelector.matchLabels");
        for (PodTemplate t : PodTemplate.of(m)) {
            if (t.selectedBy(selector) && List.of("server", "leader").contains(t.role())) {
                assertThat(t.nim().list("ports")).as("%s: %s serves health on the port the policy names", e.name(), t)
                        .anyMatch(p -> "http-health".equals(p.at("name")) && String.valueOf(health).equals(String.valueOf(p.at("containerPort"))));
            }
        }
        return policy;
    }

    private static int healthPort(Example e) {
        Object port = e.values.at("model.healthPort");
        return port == null ? 0 : Integer.parseInt(port.toString());
    }
}
