package dev.nimchart.chart.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.cluster.ClusterSession;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.cluster.LocalControlPlane;
import dev.nimchart.cluster.TierAddresses;
import dev.nimchart.junit.ClusterTier;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The API-server tier's local control plane hands out addresses only from 198.18.0.0/15 (the machine's rule for every
 * address a test may dial): the kubernetes Service has the first address of {@link TierAddresses#SERVICE_RANGE}, and a
 * Service created in it gets its ClusterIP from that range.
 */
@ExtendWith(ClusterTier.class)
class ClusterAddressesIT {

    @Test
    void serviceAddressesComeFromTheBenchmarkingRange(ClusterSession cluster) {
        Assumptions.assumeTrue(cluster.cluster() instanceof LocalControlPlane,
                "K3s chooses its own Service range; this checks the local control plane");
        KubeApi api = cluster.api();
        assertThat(api.get("/api/v1/namespaces/default/services/kubernetes").body().get("spec"))
                .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .containsEntry("clusterIP", TierAddresses.KUBERNETES_SERVICE_IP);
        String namespace = cluster.restrictedNamespace("addresses");
        KubeApi.Response created = api.post("/api/v1/namespaces/" + namespace + "/services", Map.of("apiVersion", "v1",
                "kind", "Service", "metadata", Map.of("name", "probe"), "spec", Map.of("ports",
                        java.util.List.of(Map.of("port", 8000)))));
        assertThat(created.ok()).as(created.message()).isTrue();
        Object ip = ((Map<?, ?>) created.body().get("spec")).get("clusterIP");
        assertThat(ip).asString().startsWith("198.19.");
    }
}
