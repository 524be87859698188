package dev.nimchart.cluster;

import io.fabric8.kubeapitest.KubeAPIServer;
import io.fabric8.kubeapitest.KubeAPIServerConfigBuilder;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * etcd and kube-apiserver as local processes, managed by io.fabric8:kube-api-test from the binaries that
 * ci/build-control-plane.sh builds from the upstream Go modules (no container image involved). There are no
 * controllers: the API server stores, defaults, validates and admits objects, and nothing reconciles them.
 */
public final class LocalControlPlane implements TestCluster {

    /** The Kubernetes version: the pin of ci/control-plane/kubernetes/go.mod unless overridden. */
    public static final String VERSION_PROPERTY = "nim.kube.version";
    public static final String DEFAULT_VERSION = "1.34.10";

    private final KubeAPIServer server;
    private final String version;
    private final Duration startTime;
    private final String kubeConfig;

    private LocalControlPlane(KubeAPIServer server, String version, Duration startTime) {
        this.server = server;
        this.version = version;
        this.startTime = startTime;
        this.kubeConfig = server.getKubeConfigYaml();
    }

    public static String version() {
        return System.getProperty(VERSION_PROPERTY, DEFAULT_VERSION).replaceFirst("^v", "");
    }

    /** Builds the binaries when they are not cached yet (minutes, with progress), then starts the processes. */
    public static LocalControlPlane start(Consumer<String> progress) {
        String version = version();
        progress.accept("local control plane " + version + ": checking the binaries (the first run builds them from Go modules: 6-8 min on 2 cores)");
        CiScript.run("build-control-plane.sh", List.of(version), line -> progress.accept("  " + line));
        long started = System.nanoTime();
        KubeAPIServer server = new KubeAPIServer(KubeAPIServerConfigBuilder.anAPIServerConfig()
                // In code: kube-api-test 7.6.1 casts the KUBE_API_TEST_OFFLINE_MODE variable's String to Boolean and fails.
                .withOfflineMode(true)
                .withApiServerVersion(version)
                .withUpdateKubeConfig(false)
                .build());
        try {
            server.start();
        } catch (RuntimeException e) {
            safeStop(server);
            throw new ClusterUnavailableException("the local control plane " + version + " did not start: " + e.getMessage(), e);
        }
        LocalControlPlane plane = new LocalControlPlane(server, version, Duration.ofNanos(System.nanoTime() - started));
        progress.accept("local control plane " + version + " ready in " + plane.startTime.toMillis() + " ms");
        return plane;
    }

    @Override
    public String kubeConfigYaml() {
        return kubeConfig;
    }

    @Override
    public String description() {
        return "local control plane (kube-apiserver v" + version + " and etcd, no controllers)";
    }

    @Override
    public Duration startTime() {
        return startTime;
    }

    @Override
    public void close() {
        server.stop();
    }

    private static void safeStop(KubeAPIServer server) {
        try {
            server.stop();
        } catch (RuntimeException ignored) {
            // the start failure is the error worth reporting
        }
    }
}
