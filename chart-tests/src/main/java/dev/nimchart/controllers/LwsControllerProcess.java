package dev.nimchart.controllers;

import dev.nimchart.cluster.LocalProcess;
import dev.nimchart.cluster.FreePort;
import dev.nimchart.cluster.HealthProbe;
import dev.nimchart.cluster.Pki;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The LeaderWorkerSet controller with its webhooks served on 127.0.0.1 under the tier's certificate (no internal
 * certificate management, no leader election, no metrics). {@link LwsWebhooks} registers them with the API server.
 */
final class LwsControllerProcess {

    private LwsControllerProcess() {
    }

    static LocalProcess start(ControllerBinaries binaries, Path runDir, Pki pki, Path kubeconfig, int webhookPort) {
        int healthPort = FreePort.take();
        Path certDir = runDir.resolve("lws-webhook-certs");
        Path config = runDir.resolve("lws-config.yaml");
        try {
            Files.createDirectories(certDir);
            Files.copy(pki.file("webhook.crt"), certDir.resolve("tls.crt"));
            Files.copy(pki.file("webhook.key"), certDir.resolve("tls.key"));
            Files.writeString(config, """
                    apiVersion: config.lws.x-k8s.io/v1alpha1
                    kind: Configuration
                    """ + ManagerConfiguration.fields(webhookPort, certDir, healthPort));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the LWS controller's configuration under " + runDir, e);
        }
        LocalProcess lws = LocalProcess.start("lws-controller", List.of(binaries.binary("lws").toString(),
                "--config", config.toString(), "--zap-log-level", "info"),
                Map.of("KUBECONFIG", kubeconfig.toString()), runDir.resolve("logs"));
        lws.awaitReady("/readyz answering and the webhook port listening",
                () -> HealthProbe.http(healthPort, "/readyz") && FreePort.listening(webhookPort), LocalProcess.START_TIMEOUT);
        return lws;
    }
}
