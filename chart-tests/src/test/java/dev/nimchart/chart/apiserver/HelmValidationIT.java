package dev.nimchart.chart.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.nimchart.cluster.ClusterSession;
import dev.nimchart.cluster.HelmReleases;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.junit.ClusterTier;
import dev.nimchart.render.Release;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The harness installs without Helm's OpenAPI validation ({@code HelmReleases}) because on the tiers' Kubernetes it
 * changes nothing: Helm 3 leaves field validation to a server that does it and sends no strict directive. Shown with
 * the Helm CLI, each mistake installed once as a user's {@code helm install} does and once with
 * {@code --disable-openapi-validation}: an unknown field is stored without it, with the server's same warning, both
 * times; a value of the wrong type is refused by the server with the same message both times. If a Helm version
 * starts to validate (or to ask the server for strict validation), this fails, and the harness must validate again.
 */
@ExtendWith(ClusterTier.class)
class HelmValidationIT {

    @Test
    void anUnknownFieldIsStoredWithTheServersWarningWithOrWithoutHelmsValidation(ClusterSession cluster, @TempDir Path dir) throws IOException {
        Path chart = chart(dir, "unknown-field", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: probe\nbogusField: 1\ndata:\n  a: b\n");
        HelmReleases helm = cluster.releases();
        KubeApi api = cluster.api();
        List<Object> stored = new ArrayList<>();
        for (boolean validate : List.of(true, false)) {
            String namespace = cluster.restrictedNamespace("helm-validation-unknown-" + validate);
            String out = helm.installWithCli(probe(chart, namespace), how(validate));
            assertThat(out).as("helm install, OpenAPI validation %s", validate ? "on" : "off").contains("Warning: unknown field").contains("bogusField");
            Map<String, Object> cm = KubeApi.require(api.get("/api/v1/namespaces/" + namespace + "/configmaps/probe"), "read the ConfigMap");
            stored.add(cm.get("data"));
            api.delete("/api/v1/namespaces/" + namespace);
        }
        assertThat(stored.get(0)).as("the data stored with and without Helm's validation").isEqualTo(stored.get(1)).isEqualTo(Map.of("a", "b"));
    }

    @Test
    void aValueOfTheWrongTypeIsRefusedByTheServerAloneWithOrWithoutHelmsValidation(ClusterSession cluster, @TempDir Path dir) throws IOException {
        Path chart = chart(dir, "wrong-type", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: probe\ndata:\n  a: 1\n");
        HelmReleases helm = cluster.releases();
        List<String> messages = new ArrayList<>();
        for (boolean validate : List.of(true, false)) {
            String namespace = cluster.restrictedNamespace("helm-validation-type-" + validate);
            Throwable refused = catchThrowable(() -> helm.installWithCli(probe(chart, namespace), how(validate)));
            assertThat(refused).as("helm install, OpenAPI validation %s", validate ? "on" : "off").isNotNull();
            String message = refused.getMessage();
            messages.add(message.substring(message.indexOf("Error:")).replace(namespace, "NS"));
            cluster.api().delete("/api/v1/namespaces/" + namespace);
        }
        assertThat(messages.get(0)).as("the refusal with and without Helm's validation").isEqualTo(messages.get(1))
                .contains("ConfigMap").contains("data");
    }

    private static Path chart(Path dir, String name, String manifest) throws IOException {
        Path chart = Files.createDirectories(dir.resolve(name).resolve("templates")).getParent();
        Files.writeString(chart.resolve("Chart.yaml"), "apiVersion: v2\nname: " + name + "\nversion: 0.1.0\n");
        Files.writeString(chart.resolve("templates/probe.yaml"), manifest);
        return chart;
    }

    private static Release probe(Path chart, String namespace) {
        return Release.of(chart, "probe", namespace, List.of());
    }

    private static HelmReleases.CliInstall how(boolean validate) {
        return validate ? HelmReleases.CliInstall.AS_HELM_DEFAULTS : HelmReleases.CliInstall.WITHOUT_OPENAPI_VALIDATION;
    }
}
