package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.objects.KubeObject;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.values.ValuesSchemaValidator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keys of NVIDIA's upstream nim-deploy chart with a clear meaning are accepted and mapped (the ones this chart renamed
 * or removed are refused naming the replacement: values-examples/invalid/upstream-*.yaml).
 */
class UpstreamKeysTest {

    private static final ValuesSchemaValidator SCHEMA = new ValuesSchemaValidator(ChartUnderTest.chartDir());

    @TempDir
    Path dir;

    @Test
    void scaleDownStabilizationSecsBecomesTheAutoscalersScaleDownWindow() throws IOException {
        Path values = write("autoscaling:\n  enabled: true\n  scaleDownStabilizationSecs: 600\n");
        assertThat(SCHEMA.validate(ChartUnderTest.values(values))).isEmpty();
        KubeObject hpa = ChartUnderTest.render(values).one("HorizontalPodAutoscaler");
        assertThat(hpa.at("spec.behavior.scaleDown.stabilizationWindowSeconds")).isEqualTo(600);
    }

    @Test
    void scaleDownStabilizationSecsKeepsTheRestOfBehaviorAndAnEqualWindow() throws IOException {
        Path values = write("autoscaling:\n  enabled: true\n  scaleDownStabilizationSecs: 120\n  behavior:\n    scaleDown:\n"
                + "      stabilizationWindowSeconds: 120\n      selectPolicy: Min\n    scaleUp:\n      stabilizationWindowSeconds: 0\n");
        KubeObject hpa = ChartUnderTest.render(values).one("HorizontalPodAutoscaler");
        assertThat(hpa.at("spec.behavior.scaleDown.stabilizationWindowSeconds")).isEqualTo(120);
        assertThat(hpa.at("spec.behavior.scaleDown.selectPolicy")).isEqualTo("Min");
        assertThat(hpa.at("spec.behavior.scaleUp.stabilizationWindowSeconds")).isEqualTo(0);
    }

    @Test
    void zeroScaleDownStabilizationSecsLeavesTheKubernetesDefaultAsUpstream() throws IOException {
        Path values = write("autoscaling:\n  enabled: true\n  scaleDownStabilizationSecs: 0\n");
        assertThat(ChartUnderTest.render(values).one("HorizontalPodAutoscaler").at("spec.behavior")).isNull();
    }

    @Test
    void aNullStorageClassIsTheClusterDefaultAsUpstream() throws IOException {
        Path values = write("persistence:\n  enabled: true\n  storageClass: null\n");
        assertThat(SCHEMA.validate(ChartUnderTest.values(values))).isEmpty();
        KubeObject sts = ChartUnderTest.render(values).one("StatefulSet");
        assertThat(sts.at("spec.volumeClaimTemplates[0].spec.resources.requests.storage")).isEqualTo("50Gi");
        assertThat(sts.at("spec.volumeClaimTemplates[0].spec.storageClassName")).as("no class: the cluster default").isNull();
    }

    private Path write(String yaml) throws IOException {
        return Files.writeString(dir.resolve("upstream-values.yaml"), yaml);
    }
}
