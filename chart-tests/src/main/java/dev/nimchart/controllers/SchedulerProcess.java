package dev.nimchart.controllers;

import dev.nimchart.cluster.LocalProcess;
import dev.nimchart.cluster.FreePort;
import dev.nimchart.cluster.HealthProbe;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** kube-scheduler with its default profile: resource fit (GPUs and device resources), selectors, affinity, taints. */
final class SchedulerProcess {

    private SchedulerProcess() {
    }

    static LocalProcess start(ControllerBinaries binaries, Path runDir, Path kubeconfig) {
        int port = FreePort.take();
        LocalProcess scheduler = LocalProcess.start("kube-scheduler", List.of(binaries.binary("kube-scheduler").toString(),
                "--kubeconfig", kubeconfig.toString(),
                "--authentication-kubeconfig", kubeconfig.toString(), "--authorization-kubeconfig", kubeconfig.toString(),
                "--bind-address", "127.0.0.1", "--secure-port", Integer.toString(port),
                "--cert-dir", runDir.resolve("scheduler-certs").toString(),
                "--leader-elect=false", "--kube-api-qps", "200", "--kube-api-burst", "400"),
                Map.of("KUBECONFIG", kubeconfig.toString()), runDir.resolve("logs"));
        scheduler.awaitReady("/readyz answering", () -> HealthProbe.https(port, "/readyz"), LocalProcess.START_TIMEOUT);
        return scheduler;
    }
}
