package dev.nimchart.controllers;

import java.nio.file.Path;

/**
 * The fields of controller-runtime's manager configuration that the controllers built on it (Kueue, the LWS
 * controller) read from their {@code --config} file, as this tier runs them as local processes: no leader election,
 * the harness's own webhook certificate (no internal certificate management), the webhook server and the health probe
 * on loopback, no metrics listener, and a client allowed 200 requests a second (bursts of 400), so a tier's many
 * reconciles are not throttled.
 */
final class ManagerConfiguration {

    private ManagerConfiguration() {
    }

    /** The fields, as top-level YAML lines, to follow a configuration's {@code apiVersion} and {@code kind}. */
    static String fields(int webhookPort, Path certDir, int healthPort) {
        return """
                leaderElection:
                  leaderElect: false
                internalCertManagement:
                  enable: false
                webhook:
                  host: 127.0.0.1
                  port: %d
                  certDir: %s
                metrics:
                  bindAddress: "0"
                health:
                  healthProbeBindAddress: 127.0.0.1:%d
                clientConnection:
                  qps: 200
                  burst: 400
                """.formatted(webhookPort, certDir, healthPort);
    }
}
