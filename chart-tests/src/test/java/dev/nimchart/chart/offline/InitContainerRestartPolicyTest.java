package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nimchart.render.ChartRefusedException;
import dev.nimchart.render.ChartRenderer;
import dev.nimchart.render.ChartUnderTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An init container's own restartPolicy other than Always follows the cluster's version: Kubernetes 1.34's API server
 * supports only Always (a sidecar) there, 1.35 adds Never and OnFailure (ContainerRestartRules, on by default). The
 * refusal files cannot show a rule that depends on the version (the API-server tier installs them on 1.37), so this
 * renders at both versions.
 */
class InitContainerRestartPolicyTest {

    private static final Map<String, String> NEVER = Map.of("initContainers.extraInit[0].name", "warm-cache",
            "initContainers.extraInit[0].image", "registry.example.com/tools/warm:1.0.0",
            "initContainers.extraInit[0].restartPolicy", "Never");

    private static final ChartRenderer RENDERER = new ChartRenderer(ChartUnderTest.chartDir());

    @Test
    void kubernetes134RefusesNeverNamingTheKeyAndTheFix() {
        assertThatThrownBy(() -> RENDERER.template("init", ChartUnderTest.NAMESPACE, List.of(), NEVER, "1.34.10"))
                .isInstanceOf(ChartRefusedException.class)
                .hasMessageContaining("initContainers.extraInit[0].restartPolicy is Never, which Kubernetes v1.34.10 does not support")
                .hasMessageContaining("leave restartPolicy out");
    }

    @Test
    void kubernetes135RendersIt() {
        String manifest = RENDERER.template("init", ChartUnderTest.NAMESPACE, List.of(), NEVER, "1.35.0");
        assertThat(manifest).contains("name: warm-cache").containsPattern("restartPolicy: \"?Never\"?");
    }
}
