package dev.nimchart.controllers;

import dev.nimchart.cluster.LocalProcess;
import dev.nimchart.cluster.FreePort;
import dev.nimchart.cluster.HealthProbe;
import dev.nimchart.cluster.TierAddresses;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * kwok, the kubelet of the fake nodes: it manages the nodes annotated {@code kwok.x-k8s.io/node: fake} (heartbeats
 * with leases) and moves their pods through the Stage files of its module version (scheduled pods turn Running and
 * Ready; deleted pods go away), with the harness's own Stages over them ({@value #HARNESS_STAGES}: a deleted pod that
 * still has finalizers is stopped first, Failed, and removed once its finalizers are gone, as a kubelet does). No containers run. The pod-complete stage is left out, so an MPIJob launcher keeps
 * running like a real one instead of completing at once.
 */
final class KwokProcess {

    static final String NODE_ANNOTATION = "kwok.x-k8s.io/node";
    static final String NODE_ANNOTATION_VALUE = "fake";

    private KwokProcess() {
    }

    /** The harness's Stages (a resource next to this class), which replace kwok's of the same name or add to them. */
    static final String HARNESS_STAGES = "kwok-stages.yaml";

    private static List<String> harnessStages() throws IOException {
        try (java.io.InputStream in = KwokProcess.class.getResourceAsStream(HARNESS_STAGES)) {
            if (in == null) {
                throw new ControllerTierException("the harness has no " + HARNESS_STAGES + " next to " + KwokProcess.class.getName());
            }
            String text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            return java.util.Arrays.stream(text.split("(?m)^---\\s*$")).filter(d -> d.contains("kind: Stage")).toList();
        }
    }

    private static String stageName(String stage, String where) {
        Object metadata = ((Map<?, ?>) new org.yaml.snakeyaml.Yaml().load(stage)).get("metadata");
        if (!(metadata instanceof Map<?, ?> m) || m.get("name") == null) {
            throw new ControllerTierException("a kwok Stage without metadata.name in " + where);
        }
        return m.get("name").toString();
    }

    static LocalProcess start(ControllerBinaries binaries, Path runDir, Path kubeconfig) {
        int port = FreePort.take();
        Path config = runDir.resolve("kwok-stages.yaml");
        try (Stream<Path> stages = Files.list(binaries.home("kwok").resolve("stages"))) {
            Map<String, String> byName = new java.util.TreeMap<>();
            for (Path stage : stages.sorted().toList()) {
                String text = Files.readString(stage);
                byName.put(stageName(text, stage.toString()), text);
            }
            if (byName.isEmpty()) {
                throw new ControllerTierException("no Stage files in " + binaries.home("kwok").resolve("stages"));
            }
            for (String text : harnessStages()) {
                byName.put(stageName(text, HARNESS_STAGES), text);
            }
            Files.writeString(config, String.join("\n---\n", byName.values()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write kwok's stage configuration to " + config, e);
        }
        LocalProcess kwok = LocalProcess.start("kwok", List.of(binaries.binary("kwok").toString(),
                "--kubeconfig", kubeconfig.toString(), "--config", config.toString(),
                "--manage-all-nodes=false",
                "--manage-nodes-with-annotation-selector", NODE_ANNOTATION + "=" + NODE_ANNOTATION_VALUE,
                "--cidr", TierAddresses.POD_RANGE, "--node-ip", TierAddresses.NODE_IP,
                "--node-lease-duration-seconds", "40",
                "--server-address", "127.0.0.1:" + port),
                Map.of("KUBECONFIG", kubeconfig.toString()), runDir.resolve("logs"));
        kwok.awaitReady("/healthz answering", () -> HealthProbe.http(port, "/healthz"), LocalProcess.START_TIMEOUT);
        return kwok;
    }
}
