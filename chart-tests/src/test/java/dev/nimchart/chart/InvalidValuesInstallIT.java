package dev.nimchart.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nimchart.values.ExampleValuesFiles;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.cluster.ClusterSession;
import dev.nimchart.junit.ClusterTier;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every refused values file is refused by `helm install` on the cluster too, and leaves its namespace empty. */
@ExtendWith(ClusterTier.class)
class InvalidValuesInstallIT {

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.nimchart.values.ExampleValuesFiles#invalidExamples")
    void helmInstallRefusesAndCreatesNothing(Path file, ClusterSession cluster) {
        String release = ChartUnderTest.releaseName(file);
        String namespace = cluster.restrictedNamespace("refused-" + release);
        assertThatThrownBy(() -> cluster.releases().install(release, namespace, List.of(file), Map.of()))
                .as("%s: helm install", file.getFileName())
                .hasMessageContaining(ExampleValuesFiles.expectedError(file))
                .satisfies(t -> assertThat(t.getMessage()).doesNotContainIgnoringCase("nil pointer").doesNotContain("panic"));
        assertThat(NamespaceContents.of(cluster.api(), namespace)).as("%s: objects in the namespace after the refusal", file.getFileName()).isEmpty();
    }
}
