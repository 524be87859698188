package dev.nimchart.controllers;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line Kubernetes' own components (kube-controller-manager, kube-scheduler) share in this tier: the
 * API server through one kubeconfig, for their own calls and to authenticate and authorize callers of their secure
 * port; that port on loopback, with a self-signed certificate in a directory of its own; no leader election (one
 * replica).
 */
final class KubeComponentFlags {

    private KubeComponentFlags() {
    }

    /** {@code binary} with the shared flags, serving on {@code port} with its certificate in {@code certDir}; append its own. */
    static List<String> of(Path binary, Path kubeconfig, int port, Path certDir) {
        return new ArrayList<>(List.of(binary.toString(),
                "--kubeconfig", kubeconfig.toString(),
                "--authentication-kubeconfig", kubeconfig.toString(), "--authorization-kubeconfig", kubeconfig.toString(),
                "--bind-address", "127.0.0.1", "--secure-port", Integer.toString(port),
                "--cert-dir", certDir.toString(),
                "--leader-elect=false"));
    }
}
