package dev.nimchart.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * kube-apiserver with everything the controllers need: service-account token signing, the Service range of
 * {@link TierAddresses} (both cluster tiers: every address from 198.18.0.0/15), admission as on a real cluster
 * (ServiceAccount, DefaultStorageClass, Pod Security, webhooks, and ExtendedResourceToleration as GKE runs it), and no
 * endpoint reconciler (the advertised address is not a real one).
 */
public final class ApiServerProcess {

    private ApiServerProcess() {
    }

    /**
     * Starts kube-apiserver; with {@code controllersRun} false (the API-server tier), the ServiceAccount admission is
     * off, because no controller creates the namespaces' default ServiceAccounts it would look up.
     */
    public static LocalProcess start(Path apiServerBinary, Path runDir, Pki pki, int etcdPort, int port, boolean controllersRun) {
        List<String> command = new ArrayList<>(List.of(apiServerBinary.toString(),
                "--etcd-servers", "http://127.0.0.1:" + etcdPort,
                "--bind-address", "127.0.0.1", "--secure-port", Integer.toString(port),
                "--advertise-address", TierAddresses.ADVERTISE_ADDRESS, "--endpoint-reconciler-type", "none",
                "--service-cluster-ip-range", TierAddresses.SERVICE_RANGE,
                "--tls-cert-file", pki.file("apiserver.crt").toString(), "--tls-private-key-file", pki.file("apiserver.key").toString(),
                "--client-ca-file", pki.file("ca.crt").toString(),
                "--service-account-issuer", "https://kubernetes.default.svc",
                "--service-account-key-file", pki.file("sa.pub").toString(),
                "--service-account-signing-key-file", pki.file("sa.key").toString(),
                "--authorization-mode", "Node,RBAC", "--allow-privileged=true",
                // As GKE: pods requesting an extended resource (nvidia.com/gpu) tolerate the taint of that name.
                "--enable-admission-plugins", "ExtendedResourceToleration",
                "--cert-dir", runDir.resolve("apiserver-certs").toString()));
        if (!controllersRun) {
            command.addAll(List.of("--disable-admission-plugins", "ServiceAccount"));
        }
        LocalProcess apiServer = LocalProcess.start("kube-apiserver", command, Map.of(), runDir.resolve("logs"));
        apiServer.awaitReady("/readyz answering", () -> HealthProbe.https(port, "/readyz"), LocalProcess.START_TIMEOUT);
        return apiServer;
    }
}
