package dev.nimchart.controllers;

import dev.nimchart.cluster.LocalProcess;
import dev.nimchart.cluster.FreePort;
import dev.nimchart.cluster.HealthProbe;
import dev.nimchart.cluster.Pki;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * kube-controller-manager with its default controllers: workloads (StatefulSet, Deployment, Job), EndpointSlices,
 * the PersistentVolume binder, disruption (PDB status), the HorizontalPodAutoscaler, namespaces, garbage collection and
 * service accounts. No node IPAM: kwok hands out pod IPs itself.
 */
final class ControllerManagerProcess {

    private ControllerManagerProcess() {
    }

    static LocalProcess start(ControllerBinaries binaries, Path runDir, Pki pki, Path kubeconfig) {
        int port = FreePort.take();
        List<String> command = KubeComponentFlags.of(binaries.binary("kube-controller-manager"), kubeconfig, port, runDir.resolve("kcm-certs"));
        command.addAll(List.of("--controllers=*",
                "--service-account-private-key-file", pki.file("sa.key").toString(),
                "--root-ca-file", pki.file("ca.crt").toString(),
                "--use-service-account-credentials=false",
                "--concurrent-statefulset-syncs", "10", "--concurrent-job-syncs", "10",
                // The autoscaler acts within a second or two of a change instead of 15 s (the tier waits on it).
                "--horizontal-pod-autoscaler-sync-period", "1s",
                "--kube-api-qps", "200", "--kube-api-burst", "400"));
        LocalProcess kcm = LocalProcess.start("kube-controller-manager", command, Map.of("KUBECONFIG", kubeconfig.toString()), runDir.resolve("logs"));
        kcm.awaitReady("/healthz answering", () -> HealthProbe.https(port, "/healthz"), LocalProcess.START_TIMEOUT);
        return kcm;
    }
}
