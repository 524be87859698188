package dev.nimchart.controllers;

import dev.nimchart.cluster.LocalProcess;
import dev.nimchart.cluster.FreePort;
import dev.nimchart.cluster.HealthProbe;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** kube-scheduler with its default profile: resource fit (GPUs and device resources), selectors, affinity, taints. */
final class SchedulerProcess {

    private SchedulerProcess() {
    }

    static LocalProcess start(ControllerBinaries binaries, Path runDir, Path kubeconfig) {
        int port = FreePort.take();
        List<String> command = KubeComponentFlags.of(binaries.binary("kube-scheduler"), kubeconfig, port, runDir.resolve("scheduler-certs"));
        command.addAll(List.of("--kube-api-qps", "200", "--kube-api-burst", "400"));
        LocalProcess scheduler = LocalProcess.start("kube-scheduler", command, Map.of("KUBECONFIG", kubeconfig.toString()), runDir.resolve("logs"));
        scheduler.awaitReady("/readyz answering", () -> HealthProbe.https(port, "/readyz"), LocalProcess.START_TIMEOUT);
        return scheduler;
    }
}
