package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.ChartNotes;
import dev.nimchart.chart.repository.Examples;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** NOTES.txt as a user sees it after install (rendered by {@link ChartNotes}). */
class NotesTest {

    @Test
    void notesTellHowToReachTheApiAndCheckReadiness() {
        String notes = notes("single-node-minimal.yaml", Map.of());
        assertThat(notes).contains("kubectl -n nim port-forward service/single-node-minimal-" + dev.nimchart.render.ChartUnderTest.chart().name() + " 8000:8000")
                .contains("/v1/health/ready").contains("/v1/models").contains("helm test single-node-minimal")
                .contains("create secret generic ngc-api");
    }

    @Test
    void inDynamoModeTheNotesCheckTheFrontendsHealthAndTellHowToSeeTheFallback() {
        String notes = notes("single-node-dynamo-nim3.yaml", Map.of());
        assertThat(notes).contains("curl http://localhost:8000/health").doesNotContain("/v1/health/ready")
                .contains("Starting Dynamo worker: python -m dynamo.vllm").contains("then the Dynamo frontend for a registered worker");
        assertThat(notes("single-node-engine-settings-speculative.yaml", Map.of())).contains("asks /v1/models for llama-70b")
                .doesNotContain("Dynamo");
    }

    @Test
    void notesNameTheClusterPrerequisiteOfTheChosenProvider() {
        assertThat(notes("multi-node-aws-efa-p5.yaml", Map.of())).contains("EFA device plugin").contains("32 vpc.amazonaws.com/efa");
        assertThat(notes("multi-node-azure-infiniband-ndv5.yaml", Map.of())).contains("RDMA shared device plugin")
                .contains("IPC_LOCK").contains("does not get it in its effective set").contains("ulimit -l");
        assertThat(notes("multi-node-gcp-tcpxo-a3-mega.yaml", Map.of())).contains("GKE multi-networking")
                .contains("nccl-tcpxo-installer").contains("v1.0.21 goes with installer v1.0.15");
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
        assertThat(notes("single-node-production-features.yaml", Map.of("model.ngcAPIKey", "nvapi-example-not-a-real-key")))
                .doesNotContain("nvapi-example-not-a-real-key").doesNotContain("create secret generic")
                .contains("Helm keeps it in its release records");
    }

    private static String notes(String example, Map<String, String> set) {
        return ChartNotes.of(Examples.named(example), set);
    }
}
