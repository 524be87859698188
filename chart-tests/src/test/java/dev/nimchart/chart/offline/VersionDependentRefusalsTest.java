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
 * Refusals that follow the cluster's Kubernetes version (.Capabilities.KubeVersion), where a value is supported only
 * from a version newer than the oldest the chart claims. The refusal files cannot show them (the API-server tier
 * installs every file on 1.37), so each is rendered at a version that refuses it and one that takes it.
 */
class VersionDependentRefusalsTest {

    private static final ChartRenderer RENDERER = new ChartRenderer(ChartUnderTest.chartDir(), dev.nimchart.junit.RunSettings.get());

    /** An init container's restartPolicy Never or OnFailure: ContainerRestartRules, on by default from 1.35. */
    private static final Map<String, String> NEVER = Map.of("initContainers.extraInit[0].name", "warm-cache",
            "initContainers.extraInit[0].image", "registry.example.com/tools/warm:1.0.0",
            "initContainers.extraInit[0].restartPolicy", "Never");

    /** seLinuxChangePolicy MountOption: the SELinuxMount gate, on by default from 1.37. */
    private static final Map<String, String> MOUNT_OPTION = Map.of("podSecurityContext.seLinuxChangePolicy", "MountOption");

    @Test
    void kubernetes134RefusesAnInitContainersRestartPolicyNeverNamingTheKeyAndTheFix() {
        assertThatThrownBy(() -> RENDERER.template("init", ChartUnderTest.NAMESPACE, List.of(), NEVER, "1.34.10"))
                .isInstanceOf(ChartRefusedException.class)
                .hasMessageContaining("initContainers.extraInit[0].restartPolicy is Never, which Kubernetes v1.34.10 does not support")
                .hasMessageContaining("leave restartPolicy out");
    }

    @Test
    void kubernetes135RendersAnInitContainersRestartPolicyNever() {
        String manifest = RENDERER.template("init", ChartUnderTest.NAMESPACE, List.of(), NEVER, "1.35.0");
        assertThat(manifest).contains("name: warm-cache").containsPattern("restartPolicy: \"?Never\"?");
    }

    @Test
    void kubernetes136RefusesSeLinuxChangePolicyMountOption() {
        assertThatThrownBy(() -> RENDERER.template("selinux", ChartUnderTest.NAMESPACE, List.of(), MOUNT_OPTION, "1.36.5"))
                .isInstanceOf(ChartRefusedException.class)
                .hasMessageContaining("podSecurityContext.seLinuxChangePolicy is MountOption, which Kubernetes v1.36.5 supports only")
                .hasMessageContaining("set Recursive");
    }

    @Test
    void kubernetes137RendersSeLinuxChangePolicyMountOption() {
        String manifest = RENDERER.template("selinux", ChartUnderTest.NAMESPACE, List.of(), MOUNT_OPTION, "1.37.2");
        assertThat(manifest).containsPattern("seLinuxChangePolicy: \"?MountOption\"?");
    }
}
