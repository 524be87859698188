package dev.nimchart.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.values.ValuesSchema;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Which keys of a chart pass Kubernetes objects through is read from its schema, not from nim-llm's key names. */
class OpaqueSamplesTest {

    @Test
    void aKeyOfAnyNameWhoseSchemaRefersToASampledDefinitionPassesThrough() {
        Path schemaWeb = ChartUnderTest.chartDir().toAbsolutePath().getParent().getParent().resolve("examples/charts/schema-web");
        OpaqueSamples samples = OpaqueSamples.of(ValuesSchema.load(schemaWeb));

        assertThat(samples.paths()).as("schema-web's podTolerations: a list of io.k8s.api.core.v1.Toleration")
                .containsExactly("podTolerations[]");
        assertThat(samples.holdsPassThrough("podTolerations")).isTrue();
        assertThat(samples.passesThrough("podTolerations[1].effect")).isTrue();
        assertThat(samples.isOpaque("tolerations[]")).as("nim-llm's key name, not schema-web's").isFalse();
    }

    @Test
    void nimLlmsPassThroughKeysAreFoundInItsSchema() {
        OpaqueSamples samples = OpaqueSamples.of(ValuesSchema.load(ChartUnderTest.chartDir()));

        assertThat(samples.paths()).containsExactlyInAnyOrder("podSecurityContext", "containerSecurityContext", "affinity",
                "tolerations[]", "initContainers.extraInit[]", "autoscaling.metrics[]", "autoscaling.behavior", "extraVolumes",
                "extraVolumeMounts", "env[].valueFrom.fieldRef", "env[].valueFrom.resourceFieldRef",
                "env[].valueFrom.configMapKeyRef", "env[].valueFrom.secretKeyRef", "inferencePool.epp.tolerations[]",
                "inferencePool.epp.affinity", "cachePrefill.tolerations[]",
                "cachePrefill.affinity");
    }
}
