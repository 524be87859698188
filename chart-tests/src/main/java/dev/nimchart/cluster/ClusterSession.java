package dev.nimchart.cluster;

import dev.nimchart.settings.Settings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A started cluster made ready for the chart: the CRDs it targets installed, a REST client and Helm releases bound to
 * it. Closing it tears the cluster down.
 */
public final class ClusterSession implements AutoCloseable {

    /** Pod Security labels of every namespace the tier creates: restricted, enforced and warned. */
    public static final Map<String, String> RESTRICTED = Map.of(
            "pod-security.kubernetes.io/enforce", "restricted",
            "pod-security.kubernetes.io/enforce-version", "latest",
            "pod-security.kubernetes.io/warn", "restricted",
            "pod-security.kubernetes.io/warn-version", "latest");

    private final TestCluster cluster;
    private final Settings settings;
    private final KubeApi api;
    private final Path workDir;
    private HelmReleases releases;
    private final List<String> crds;
    private final Duration readyTime;

    private ClusterSession(TestCluster cluster, Settings settings, KubeApi api, Path workDir, List<String> crds, Duration readyTime) {
        this.cluster = cluster;
        this.settings = settings;
        this.api = api;
        this.workDir = workDir;
        this.crds = crds;
        this.readyTime = readyTime;
    }

    /** Starts the cluster {@link ClusterChoice} picks and installs the CRDs; progress lines go to the consumer. */
    public static ClusterSession start(Settings settings, Path workDir, Consumer<String> progress) {
        Path crdsDir = CrdInstaller.crdsDir(settings, progress);
        return on(ClusterChoice.of(settings).start(settings, progress), settings, crdsDir, workDir, progress);
    }

    /**
     * A session on a cluster already running (closing the session closes the cluster: for an {@link ExistingCluster}
     * that stops nothing). The CRDs of {@code crdsDir} are installed where the harness may write cluster-scoped
     * objects; elsewhere the session lists those the cluster serves already, and a release of a kind it does not
     * serve fails naming the kind.
     */
    public static ClusterSession on(TestCluster cluster, Settings settings, Path crdsDir, Path workDir, Consumer<String> progress) {
        try {
            long started = System.nanoTime();
            KubeApi api = new KubeApi(cluster.kubeConfigYaml());
            List<String> crds = cluster.clusterScopedWrites() ? CrdInstaller.install(api, crdsDir) : CrdInstaller.served(api, crdsDir);
            Duration crdTime = Duration.ofNanos(System.nanoTime() - started);
            progress.accept((cluster.clusterScopedWrites() ? "CRDs established in " + crdTime.toMillis() + " ms: " : "CRDs the cluster serves (none installed): ")
                    + String.join(", ", crds));
            return new ClusterSession(cluster, settings, api, workDir, crds, cluster.startTime().plus(crdTime));
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    public KubeApi api() {
        return api;
    }

    /** Helm releases on this cluster (of whatever chart each {@code Release} names). */
    public synchronized HelmReleases releases() {
        if (releases == null) {
            releases = new HelmReleases(cluster.kubeConfigYaml(), workDir, settings);
        }
        return releases;
    }

    /** The settings the session was started with. */
    public Settings settings() {
        return settings;
    }

    public TestCluster cluster() {
        return cluster;
    }

    public List<String> crds() {
        return crds;
    }

    /** Cluster start plus CRD installation. */
    public Duration readyTime() {
        return readyTime;
    }

    /** Creates a namespace with the restricted Pod Security labels and returns its name (the API-server tier's tests use it). */
    public String restrictedNamespace(String name) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", name);
        metadata.put("labels", RESTRICTED);
        KubeApi.require(api.post("/api/v1/namespaces", Map.of("apiVersion", "v1", "kind", "Namespace", "metadata", metadata)),
                "create the namespace " + name);
        return name;
    }

    @Override
    public void close() {
        cluster.close();
    }
}
