package dev.nimchart.controllers;

import dev.nimchart.cluster.FreePort;
import dev.nimchart.cluster.HealthProbe;
import dev.nimchart.cluster.LocalProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Kueue's controller manager with its webhooks served on 127.0.0.1 under the tier's certificate: no internal certificate
 * management, no leader election, no metrics server, no visibility API (it would take a fixed port), managing only the
 * namespaces labelled {@value #MANAGED_LABEL}{@code =}{@value #MANAGED_VALUE}, with the integrations the chart's
 * {@code kueue.queueName} label targets (LeaderWorkerSet, StatefulSet, Deployment, MPIJob, and the pods under them).
 * <p>
 * With its internal certificates off, Kueue v0.15.0 exits unless {@code /etc/kueue/metrics/certs/tls.crt} exists (read
 * even when metrics are off). It is given that file in a mount namespace of its own, under an overlay of {@code /etc},
 * so the machine's {@code /etc} is never written; that needs root, as the start-up tier does.
 */
final class KueueProcess {

    static final String MANAGED_LABEL = "nim-chart-tests/kueue";
    static final String MANAGED_VALUE = "managed";
    static final String NAMESPACE = "kueue-system";

    private static final String SANDBOX = """
            set -euo pipefail
            certs="$1"; upper="$2"; work="$3"; shift 3
            mount -t overlay overlay -o "lowerdir=/etc,upperdir=${upper},workdir=${work}" /etc
            mkdir -p /etc/kueue/metrics/certs
            cp "${certs}/tls.crt" "${certs}/tls.key" /etc/kueue/metrics/certs/
            exec "$@"
            """;

    private KueueProcess() {
    }

    static LocalProcess start(ControllerBinaries binaries, Path runDir, Path kubeconfig, int webhookPort) {
        int healthPort = FreePort.take();
        Path certDir = runDir.resolve("kueue-webhook-certs");
        Path etcUpper = runDir.resolve("kueue-etc/upper");
        Path etcWork = runDir.resolve("kueue-etc/work");
        Path config = runDir.resolve("kueue-config.yaml");
        try {
            Files.createDirectories(certDir);
            Files.createDirectories(etcUpper);
            Files.createDirectories(etcWork);
            Files.copy(runDir.resolve("pki/webhook.crt"), certDir.resolve("tls.crt"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Files.copy(runDir.resolve("pki/webhook.key"), certDir.resolve("tls.key"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Files.writeString(config, """
                    apiVersion: config.kueue.x-k8s.io/v1beta2
                    kind: Configuration
                    namespace: %s
                    manageJobsWithoutQueueName: false
                    managedJobsNamespaceSelector:
                      matchLabels:
                        %s: %s
                    featureGates:
                      VisibilityOnDemand: false
                    integrations:
                      frameworks:
                      - pod
                      - deployment
                      - statefulset
                      - leaderworkerset.x-k8s.io/leaderworkerset
                      - kubeflow.org/mpijob
                    """.formatted(NAMESPACE, MANAGED_LABEL, MANAGED_VALUE) + ManagerConfiguration.fields(webhookPort, certDir, healthPort));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write Kueue's configuration under " + runDir, e);
        }
        LocalProcess kueue = LocalProcess.start("kueue", List.of("unshare", "--mount", "--propagation", "private",
                "bash", "-c", SANDBOX, "kueue-sandbox", certDir.toString(), etcUpper.toString(), etcWork.toString(),
                binaries.binary("kueue").toString(), "--config", config.toString(), "--zap-log-level", "2"),
                Map.of("KUBECONFIG", kubeconfig.toString()), runDir.resolve("logs"));
        kueue.awaitReady("/readyz answering and the webhook port listening",
                () -> HealthProbe.http(healthPort, "/readyz") && FreePort.listening(webhookPort), LocalProcess.START_TIMEOUT);
        return kueue;
    }
}
