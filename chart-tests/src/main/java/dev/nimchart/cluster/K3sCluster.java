package dev.nimchart.cluster;

import java.time.Duration;
import java.util.function.Consumer;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * K3s in a Docker container through Testcontainers, where a Docker engine runs and the rancher/k3s image can be had.
 *
 * @param container      the started container
 * @param image          the K3s image it runs
 * @param startTime      how long pulling and starting took
 * @param kubeConfigYaml the container's admin kubeconfig
 */
public record K3sCluster(K3sContainer container, String image, Duration startTime, String kubeConfigYaml) implements TestCluster {

    public static final String IMAGE_PROPERTY = "nim.k3s.image";
    public static final String DEFAULT_IMAGE = dev.nimchart.settings.Settings.DEFAULT_K3S_IMAGE;

    /** Whether a Docker engine answers (Testcontainers' own check; it does not pull anything). */
    public static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    /** Pulls the image when needed and starts K3s; a failure says which image and why. */
    public static K3sCluster start(dev.nimchart.settings.Settings settings, Consumer<String> progress) {
        String image = settings.k3sImage();
        if (!dockerAvailable()) {
            throw new ClusterUnavailableException("K3s needs a running Docker engine, and Testcontainers found none");
        }
        progress.accept("K3s " + image + ": starting in Docker (pulls the image the first time)");
        long started = System.nanoTime();
        K3sContainer container = new K3sContainer(DockerImageName.parse(image).asCompatibleSubstituteFor("rancher/k3s"));
        try {
            container.start();
        } catch (RuntimeException e) {
            container.close();
            throw new ClusterUnavailableException("K3s " + image + " did not start (is the image reachable? set -D"
                    + IMAGE_PROPERTY + "=<image> to use another): " + e.getMessage(), e);
        }
        K3sCluster cluster = new K3sCluster(container, image, Duration.ofNanos(System.nanoTime() - started), container.getKubeConfigYaml());
        progress.accept("K3s ready in " + cluster.startTime.toMillis() + " ms");
        return cluster;
    }

    @Override
    public String description() {
        return "K3s " + image + " (Testcontainers)";
    }

    @Override
    public void close() {
        container.close();
    }
}
