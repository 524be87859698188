package dev.nimchart.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nimchart.values.ExampleValuesFiles;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.junit.ControllerTier.ControllerSession;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.cluster.LocalProcess;
import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.junit.ControllerTier;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every refused values file is refused by `helm install` with the controllers running too: the namespace holds
 * nothing of the release, no controller made a pod or anything else from it, and every controller still runs.
 */
@ExtendWith(ControllerTier.class)
class RefusedWithControllersIT {

    /** One namespace for the whole corpus: a refusal creates nothing, so it must stay empty file after file. */
    private static final String NAMESPACE = "refused-with-controllers";

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.nimchart.values.ExampleValuesFiles#invalidExamples")
    void helmInstallRefusesAndNoControllerMakesAnything(Path file, ControllerSession session) {
        KubeApi api = session.environment().api();
        if (!api.get("/api/v1/namespaces/" + NAMESPACE).ok()) {
            KubeApi.require(api.post("/api/v1/namespaces", Map.of("apiVersion", "v1", "kind", "Namespace",
                    "metadata", Map.of("name", NAMESPACE))), "create the namespace " + NAMESPACE);
        }
        String release = ChartUnderTest.releaseName(file);
        assertThatThrownBy(() -> session.releases().install(release, NAMESPACE, List.of(file), Map.of()))
                .as("%s: helm install", file.getFileName())
                .hasMessageContaining(ExampleValuesFiles.expectedError(file));
        assertThat(NamespaceContents.of(api, NAMESPACE)).as("%s: objects after the refusal", file.getFileName()).isEmpty();
        NamespaceState state = NamespaceState.read(api, NAMESPACE);
        assertThat(state.pods()).as("%s: pods after the refusal", file.getFileName()).isEmpty();
        assertThat(state.all("Event")).as("%s: events after the refusal", file.getFileName()).isEmpty();
        assertThat(session.environment().processes()).as("%s: controllers still running", file.getFileName())
                .allMatch(LocalProcess::alive);
    }
}
