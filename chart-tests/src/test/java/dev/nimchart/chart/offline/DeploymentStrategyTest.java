package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.Examples;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.render.ChartUnderTest;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Deployment's rollout: by default no surge (no second pod's worth of GPUs), one pod at a time; Recreate as asked. */
class DeploymentStrategyTest {

    private static final Path DEPLOYMENT = Examples.named("single-node-deployment-static-volume.yaml");

    @Test
    void theDefaultReplacesPodsInPlace() {
        KubeObject d = ChartUnderTest.render(DEPLOYMENT).ofKind("Deployment").get(0);
        assertThat(d.at("spec.strategy")).isEqualTo(Map.of("type", "RollingUpdate", "rollingUpdate", Map.of("maxSurge", 0, "maxUnavailable", 1)));
    }

    @Test
    void recreateCarriesNoRollingUpdate() {
        KubeObject d = ChartUnderTest.render(DEPLOYMENT, Map.of("strategy.type", "Recreate")).ofKind("Deployment").get(0);
        assertThat(d.at("spec.strategy")).as("Kubernetes refuses rollingUpdate with Recreate").isEqualTo(Map.of("type", "Recreate"));
    }

    @Test
    void percentagesStayStrings() {
        KubeObject d = ChartUnderTest.render(DEPLOYMENT, Map.of("strategy.rollingUpdate.maxSurge", "25%", "strategy.rollingUpdate.maxUnavailable", "0"))
                .ofKind("Deployment").get(0);
        assertThat(d.at("spec.strategy.rollingUpdate")).isEqualTo(Map.of("maxSurge", "25%", "maxUnavailable", 0));
    }

    @Test
    void theStatefulSetHasNoDeploymentStrategy() {
        KubeObject s = ChartUnderTest.render(Examples.named("single-node-minimal.yaml")).ofKind("StatefulSet").get(0);
        assertThat(s.at("spec.strategy")).isNull();
    }
}
