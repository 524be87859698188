package dev.nimchart.chart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.ChartRenderer;
import dev.nimchart.LookupStub;
import dev.nimchart.NimChart;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * NOTES.txt as a user sees it after install. helm-java's template leaves NOTES out, so the test renders a copy of the
 * chart in which the same NOTES.txt text is a named template, emitted into a ConfigMap.
 */
class NotesTest {

    @TempDir
    static Path copy;
    private static ChartRenderer renderer;

    @BeforeAll
    static void copyTheChartWithNotesAsATemplate() throws IOException {
        Path chart = NimChart.chartDir();
        try (Stream<Path> files = Files.walk(chart)) {
            for (Path source : files.sorted(Comparator.naturalOrder()).toList()) {
                Path target = copy.resolve(chart.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target);
                }
            }
        }
        Path notes = copy.resolve("templates/NOTES.txt");
        Files.writeString(copy.resolve("templates/_notes-under-test.tpl"),
                "{{- define \"notes-under-test\" -}}\n" + Files.readString(notes) + "\n{{- end -}}\n");
        Files.delete(notes);
        Files.writeString(copy.resolve("templates/notes-under-test.yaml"), String.join("\n", "apiVersion: v1",
                "kind: ConfigMap", "metadata:", "  name: notes", "data:",
                "  notes: {{ include \"notes-under-test\" . | quote }}", ""));
        renderer = new ChartRenderer(copy);
    }

    @Test
    void notesTellHowToReachTheApiAndCheckReadiness() {
        String notes = notes("single-node-minimal.yaml", Map.of());
        assertThat(notes).contains("kubectl -n nim port-forward service/single-node-minimal-nim-llm 8000:8000")
                .contains("/v1/health/ready").contains("/v1/models").contains("helm test single-node-minimal")
                .contains("create secret generic ngc-api");
    }

    @Test
    void notesNameTheClusterPrerequisiteOfTheChosenProvider() {
        assertThat(notes("multi-node-aws-efa-p5.yaml", Map.of())).contains("EFA device plugin").contains("32 vpc.amazonaws.com/efa");
        assertThat(notes("multi-node-azure-infiniband-ndv5.yaml", Map.of())).contains("RDMA shared device plugin")
                .contains("IPC_LOCK");
        assertThat(notes("multi-node-gcp-tcpxo-a3-mega.yaml", Map.of())).contains("GKE multi-networking");
        assertThat(notes("multi-node-oci-sriov-h100.yaml", Map.of())).contains("SR-IOV Network Operator");
        assertThat(notes("multi-node-llama-3.1-405b-lws.yaml", Map.of())).contains("LeaderWorkerSet controller")
                .doesNotContain("Networking:");
    }

    @Test
    void notesSayASingleNodeDeploymentGetsNoNetworkingInjected() {
        assertThat(notes("single-node-minimal.yaml", Map.of("multinodeNetworking.oci.enabled", "true")))
                .contains("multinodeNetworking.oci is enabled but this is a single-node deployment")
                .contains("no high-speed networking was injected");
    }

    @Test
    void notesNeverShowTheNgcKey() {
        assertThat(notes("single-node-production-features.yaml", Map.of())).doesNotContain("nvapi-example-not-a-real-key")
                .doesNotContain("create secret generic");
    }

    private static String notes(String example, Map<String, String> set) {
        LookupStub.shared();
        Path file = Examples.named(example);
        return (String) renderer.render(NimChart.releaseName(file), NimChart.NAMESPACE, List.of(file), set)
                .find("ConfigMap", "notes").orElseThrow().at("data.notes");
    }

}
