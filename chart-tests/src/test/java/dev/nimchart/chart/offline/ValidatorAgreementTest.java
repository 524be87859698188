package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.Examples;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartUnderTest;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What the chart renders where it used to disagree with a real validator without refusing anything (issue 34; the
 * refusals are files of values-examples/invalid/, and ChartValidatorAgreementIT compares the chart with the validators
 * on generated documents): a LeaderWorkerSet's surge groups get their NetworkPolicy; subgroup sizes, Kueue queue names,
 * Ingress paths and env field references the validators accept render.
 */
class ValidatorAgreementTest {

    private static final Path LWS = Examples.named("multi-node-llama-3.1-405b-lws.yaml");

    /**
     * The LeaderWorkerSet controller numbers surge groups after the others (replicas .. replicas + maxSurge - 1, maxSurge
     * a percentage rounded up): each gets its own NetworkPolicy, or its pods could not reach each other while a rolling
     * update runs.
     */
    @ParameterizedTest(name = "replicaCount {0}, maxSurge {1}: {2} group policies")
    @CsvSource({"2, 0, 2", "2, 1, 3", "3, 50%, 5", "1, 100%, 2", "4, 10%, 5"})
    void everySurgeGroupOfARollingUpdateHasItsNetworkPolicy(String replicas, String maxSurge, int groups) {
        RenderedManifest m = ChartUnderTest.render(LWS, Map.of("networkPolicy.enabled", "true", "replicaCount", replicas,
                "multiNode.leaderWorkerSet.maxSurge", maxSurge));
        List<String> policies = m.ofKind("NetworkPolicy").stream().map(KubeObject::name).filter(n -> n.matches(".*-group-\\d+")).sorted().toList();
        assertThat(policies).as("group policies with replicaCount %s and maxSurge %s", replicas, maxSurge).hasSize(groups);
        for (int i = 0; i < groups; i++) {
            String index = Integer.toString(i);
            assertThat(m.ofKind("NetworkPolicy")).as("the policy of group %d", i).anyMatch(p -> p.name().endsWith("-group-" + index)
                    && index.equals(p.at("spec.podSelector.matchLabels[leaderworkerset.sigs.k8s.io/group-index]")));
        }
    }

    /** lws v0.9.0 takes subGroupSize when it divides size or size - 1 (LeaderExcluded: size - 1 only). */
    @ParameterizedTest(name = "workers {0}, subGroupSize {1}, {2}")
    @CsvSource({"3, 2, LeaderExcluded", "5, 2, LeaderExcluded", "5, 4, LeaderExcluded", "5, 2, LeaderWorker", "4, 2, LeaderWorker",
            "3, 3, ''"})
    void subGroupSizesTheLeaderWorkerSetWebhookTakesRender(int workers, int size, String type) {
        Map<String, String> set = new LinkedHashMap<>(Map.of("multiNode.workers", Integer.toString(workers),
                "multiNode.leaderWorkerSet.subGroupSize", Integer.toString(size)));
        if (!type.isEmpty()) {
            set.put("multiNode.leaderWorkerSet.subGroupPolicyType", type);
        }
        KubeObject lws = ChartUnderTest.render(LWS, set).one("LeaderWorkerSet");
        assertThat(lws.at("spec.leaderWorkerTemplate.subGroupPolicy.subGroupSize")).isEqualTo(size);
    }

    /** Kueue takes a DNS subdomain as a queue name; the chart writes it as a label value, 63 characters at most. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"nim-gpus.team-a", "gpus.team-a.research.example-organisation.cluster-west-1.pool-x"})
    void aQueueNameWithDotsRenders(String queue) {
        KubeObject lws = ChartUnderTest.render(LWS, Map.of("kueue.queueName", queue, "fullnameOverride", "nim")).one("LeaderWorkerSet");
        assertThat(lws.labels()).containsEntry("kueue.x-k8s.io/queue-name", queue);
    }

    /** An ImplementationSpecific path is the Ingress controller's to read: the API server takes /../ there. */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"/v1/../admin, ImplementationSpecific", "/v1/models, Prefix", "/v1/.well-known, Exact"})
    void ingressPathsTheApiServerTakesRender(String path, String type) {
        RenderedManifest m = ChartUnderTest.render(LWS, Map.of("ingress.enabled", "true", "ingress.hosts[0].host", "nim.example.com",
                "ingress.hosts[0].paths[0].path", path, "ingress.hosts[0].paths[0].pathType", type));
        assertThat(m.one("Ingress").at("spec.rules[0].http.paths[0].path")).isEqualTo(path);
    }

    /** Env field references of the downward API that validateEnvVarValueFrom takes. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"metadata.labels['app.kubernetes.io/name']", "metadata.annotations['example.com/Team']", "status.hostIPs",
            "spec.serviceAccountName"})
    void envFieldReferencesTheApiServerTakesRender(String fieldPath) {
        RenderedManifest m = ChartUnderTest.render(LWS, Map.of("env[0].name", "FROM_FIELD", "env[0].valueFrom.fieldRef.fieldPath", fieldPath));
        for (String role : List.of("leaderTemplate", "workerTemplate")) {
            KubeObject nim = m.one("LeaderWorkerSet").list("spec.leaderWorkerTemplate." + role + ".spec.containers").get(0);
            assertThat(nim.list("env")).as("%s env", role).anyMatch(e -> "FROM_FIELD".equals(e.at("name"))
                    && fieldPath.equals(e.at("valueFrom.fieldRef.fieldPath")));
        }
    }
}
