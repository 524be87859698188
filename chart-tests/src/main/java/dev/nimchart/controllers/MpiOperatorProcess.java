package dev.nimchart.controllers;

import dev.nimchart.cluster.LocalProcess;
import dev.nimchart.cluster.FreePort;
import dev.nimchart.cluster.HealthProbe;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The kubeflow MPI operator (v2beta1 MPIJobs) for every namespace. v0.8.0 serves its health check on port 8080 of
 * every interface, hard-coded: a second instance on the machine, or any other program on 8080, clashes with it.
 */
final class MpiOperatorProcess {

    static final int HEALTH_PORT = 8080;
    static final String LOCK_NAMESPACE = "mpi-operator";

    private MpiOperatorProcess() {
    }

    static LocalProcess start(ControllerBinaries binaries, Path runDir, Path kubeconfig) {
        if (FreePort.listening(HEALTH_PORT)) {
            throw new ControllerTierException("port " + HEALTH_PORT + " is already in use on this machine; mpi-operator v0.8.0"
                    + " hard-codes its health port " + HEALTH_PORT + " and cannot start. Stop the program on that port (or"
                    + " another controller tier run) and try again.");
        }
        LocalProcess operator = LocalProcess.start("mpi-operator", List.of(binaries.binary("mpi-operator").toString(),
                "--kubeConfig", kubeconfig.toString(), "--lock-namespace", LOCK_NAMESPACE,
                "--threadiness", "4", "--kube-api-qps", "200", "--kube-api-burst", "400"),
                Map.of("KUBECONFIG", kubeconfig.toString()), runDir.resolve("logs"));
        operator.awaitReady("/healthz answering on port " + HEALTH_PORT,
                () -> HealthProbe.http(HEALTH_PORT, "/healthz"), Duration.ofSeconds(120));
        return operator;
    }
}
