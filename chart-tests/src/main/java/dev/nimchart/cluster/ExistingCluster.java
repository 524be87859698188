package dev.nimchart.cluster;

import dev.nimchart.settings.Settings;
import dev.nimchart.objects.KubeObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * A cluster the harness did not start, reached through a kubeconfig file ({@code -Dnim.cluster=kubeconfig
 * -Dnim.kubeconfig=FILE}, or {@code ChartCheck.withExistingCluster(FILE, writes)}). The harness stops nothing of it. What it may
 * create there is {@link Writes}: by default only its own namespaces and what goes in them.
 *
 * @param file           the kubeconfig file
 * @param kubeConfigYaml what the file held when the cluster was opened
 * @param description    the cluster as progress and reports name it (the file, the Kubernetes version, the writes)
 * @param startTime      how long reading the file and asking the API server took
 * @param writes         what the harness may create there
 */
public record ExistingCluster(Path file, String kubeConfigYaml, String description, Duration startTime, Writes writes) implements TestCluster {

    /** The kubeconfig file of the existing cluster. */
    public static final String KUBECONFIG_PROPERTY = "nim.kubeconfig";
    /** {@code namespaced} (default) or {@code cluster}: see {@link Writes}. */
    public static final String WRITES_PROPERTY = "nim.cluster.writes";

    /** What the harness may create on a cluster it did not start. */
    public enum Writes {
        /**
         * Its own namespaces (labelled {@code nim-chart-tests/made-by}) and what goes in them, nothing else
         * cluster-scoped: CRDs, StorageClasses, PersistentVolumes, PriorityClasses and RuntimeClasses a release needs
         * must be there already (a file whose release needs a missing one fails, naming it).
         */
        NAMESPACED,
        /** Also what an administrator would provide (CRDs, StorageClasses, volumes, priority and runtime classes), as on the tier's own clusters. */
        CLUSTER;

        /** The choice of {@link Settings#clusterWrites()}; another word fails naming the two. */
        public static Writes of(Settings settings) {
            String value = settings.clusterWrites().trim().toUpperCase(Locale.ROOT);
            try {
                return valueOf(value);
            } catch (IllegalArgumentException e) {
                throw new ClusterUnavailableException("-D" + WRITES_PROPERTY + "=" + settings.clusterWrites()
                        + " is not a choice: use namespaced (create only namespaces and what goes in them) or cluster");
            }
        }
    }

    /** The cluster of {@link Settings#kubeconfig()} ({@code -Dnim.kubeconfig}), with {@link Settings#clusterWrites()} ({@code -Dnim.cluster.writes}). */
    public static ExistingCluster of(Settings settings, Consumer<String> progress) {
        Path file = settings.kubeconfig().orElseThrow(() -> new ClusterUnavailableException("-Dnim.cluster=kubeconfig needs -D"
                + KUBECONFIG_PROPERTY + "=FILE, the kubeconfig of the cluster to check on (Settings.withExistingCluster(FILE, writes))"));
        return open(file, Writes.of(settings), progress);
    }

    /** Reads the kubeconfig and asks the API server for its version and readiness; fails naming the file and the answer. */
    public static ExistingCluster open(Path file, Writes writes, Consumer<String> progress) {
        long started = System.nanoTime();
        String yaml;
        try {
            yaml = Files.readString(file);
        } catch (IOException e) {
            throw new ClusterUnavailableException("cannot read the kubeconfig " + file + ": " + e.getMessage());
        }
        KubeApi api;
        KubeApi.Response version;
        try {
            api = new KubeApi(yaml);
            version = api.get("/version");
        } catch (RuntimeException e) {
            throw new ClusterUnavailableException("the cluster of the kubeconfig " + file + " does not answer: " + e.getMessage());
        }
        if (!version.ok()) {
            throw new ClusterUnavailableException("the cluster of the kubeconfig " + file + " answers /version with " + version.message());
        }
        KubeApi.Response ready = api.get("/readyz");
        if (ready.code() != 200) {
            throw new ClusterUnavailableException("the API server of the kubeconfig " + file + " is not ready (/readyz: HTTP " + ready.code() + ")");
        }
        String description = "existing cluster of " + file + " (Kubernetes " + new KubeObject(version.body()).at("gitVersion")
                + ", writes: " + writes.name().toLowerCase(Locale.ROOT) + ")";
        progress.accept(description);
        return new ExistingCluster(file, yaml, description, Duration.ofNanos(System.nanoTime() - started), writes);
    }

    @Override
    public boolean clusterScopedWrites() {
        return writes == Writes.CLUSTER;
    }

    @Override
    public boolean startedByHarness() {
        return false;
    }

    /** Stops nothing: the harness did not start this cluster (its namespaces are deleted by the checks that made them). */
    @Override
    public void close() {
    }
}
