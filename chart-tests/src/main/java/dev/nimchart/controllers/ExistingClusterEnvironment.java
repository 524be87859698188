package dev.nimchart.controllers;

import dev.nimchart.cluster.ExistingCluster;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.cluster.LocalProcess;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.settings.Settings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The controller tier on a cluster the harness did not start: its own controllers, nodes and storage. Nothing is
 * started or stopped and no lock taken; {@link #requireAllRunning()} asks the API server for readiness (at most every
 * 5 s); cluster-scoped writes only as the cluster's {@link ExistingCluster.Writes} allow; and what needs the tier's own
 * environment (fake GPU nodes, stand-ins, its processes) fails naming the cluster.
 */
public final class ExistingClusterEnvironment implements ControllerEnvironment {

    private final ExistingCluster cluster;
    private final Access access;
    private long lastReadyCheck;

    private ExistingClusterEnvironment(ExistingCluster cluster, Access access) {
        this.cluster = cluster;
        this.access = access;
    }

    static ExistingClusterEnvironment attach(ExistingCluster cluster, Settings settings, Consumer<String> progress) {
        KubeApi api = new KubeApi(cluster.kubeConfigYaml());
        @SuppressWarnings("unchecked")
        List<String> nodes = ((List<Object>) KubeApi.require(api.get("/api/v1/nodes"), "list the nodes").getOrDefault("items", List.of()))
                .stream().map(n -> new KubeObject((Map<String, Object>) n).name()).toList();
        progress.accept("controller tier on " + cluster.description() + ": " + nodes.size() + " nodes; nothing started");
        return new ExistingClusterEnvironment(cluster, new Access(cluster.kubeConfigYaml(), api, nodes, settings));
    }

    @Override
    public boolean startedByHarness() {
        return false;
    }

    @Override
    public boolean clusterScopedWrites() {
        return cluster.clusterScopedWrites();
    }

    /** Pods get 10 minutes to go after an uninstall or a namespace deletion (image pulls, real terminations). */
    @Override
    public Duration settleTimeout() {
        return Duration.ofMinutes(10);
    }

    @Override
    public ControllerEnvironment requireStartedByHarness(String what) {
        throw new ControllerTierException(what + " needs the controller tier's own environment (fake GPU nodes, stand-ins,"
                + " its processes); it does not run on " + cluster.description());
    }

    @Override
    public Access access() {
        return access;
    }

    @Override
    public Map<String, Duration> startTimes() {
        return Map.of("attached", cluster.startTime());
    }

    @Override
    public java.util.Optional<Path> runDir() {
        return java.util.Optional.empty();
    }

    @Override
    public synchronized void requireAllRunning() {
        if (System.nanoTime() - lastReadyCheck > Duration.ofSeconds(5).toNanos()) {
            KubeApi.Response ready = api().get("/readyz");
            if (ready.code() != 200) {
                throw new ControllerTierException("the API server of " + cluster.description() + " is not ready (/readyz: HTTP " + ready.code() + ")");
            }
            lastReadyCheck = System.nanoTime();
        }
    }

    @Override
    public List<LocalProcess> processes() {
        return List.of();
    }

    @Override
    public Duration restartControlPlane() {
        requireStartedByHarness("restarting kube-apiserver and etcd");
        return Duration.ZERO;
    }

    /** Nothing was started. */
    @Override
    public void close() {
    }
}
