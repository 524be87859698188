package dev.nimchart.controllers;

import dev.nimchart.cluster.LocalProcess;
import dev.nimchart.cluster.FreePort;
import dev.nimchart.cluster.HealthProbe;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The kubeflow MPI operator (v2beta1 MPIJobs) for every namespace. v0.8.0 serves its health check on port 8080 of
 * every interface, hard-coded. {@code ci/build-controllers.sh} builds it with that address read from
 * {@value #HEALTH_ADDRESS_ENV} (and marks the build with a file {@code health-address} beside the binary): such a build
 * gets a free loopback port, so tiers run side by side. A build without the mark (from {@code -Dnim.binaries.dir})
 * gets 8080, and the tier then holds the machine lock: one such tier at a time on a machine.
 */
final class MpiOperatorProcess {

    static final int UPSTREAM_HEALTH_PORT = 8080;
    static final String HEALTH_ADDRESS_ENV = "MPI_OPERATOR_HEALTH_ADDRESS";
    static final String LOCK_NAMESPACE = "mpi-operator";

    private MpiOperatorProcess() {
    }

    /** Whether this build reads its health address from {@value #HEALTH_ADDRESS_ENV} (ci/build-controllers.sh marks it so). */
    static boolean healthAddressSettable(ControllerBinaries binaries) {
        return Files.isRegularFile(binaries.home("mpi-operator").resolve("health-address"));
    }

    static LocalProcess start(ControllerBinaries binaries, Path runDir, Path kubeconfig) {
        Map<String, String> env = new HashMap<>(Map.of("KUBECONFIG", kubeconfig.toString()));
        int port;
        if (healthAddressSettable(binaries)) {
            port = FreePort.take();
            env.put(HEALTH_ADDRESS_ENV, "127.0.0.1:" + port);
        } else {
            port = UPSTREAM_HEALTH_PORT;
            if (FreePort.listening(port)) {
                throw new ControllerTierException("port " + port + " is already in use on this machine; this mpi-operator build"
                        + " listens on the hard-coded health port " + port + " and cannot start. Stop the program on that port, or"
                        + " give the harness an mpi-operator whose health address is set by " + HEALTH_ADDRESS_ENV
                        + " (the harness's pinned build), so that its port is free to choose.");
            }
        }
        LocalProcess operator = LocalProcess.start("mpi-operator", List.of(binaries.binary("mpi-operator").toString(),
                "--kubeConfig", kubeconfig.toString(), "--lock-namespace", LOCK_NAMESPACE,
                "--threadiness", "4", "--kube-api-qps", "200", "--kube-api-burst", "400"),
                env, runDir.resolve("logs"));
        operator.awaitReady("/healthz answering on port " + port, () -> HealthProbe.http(port, "/healthz"), LocalProcess.START_TIMEOUT);
        return operator;
    }
}
