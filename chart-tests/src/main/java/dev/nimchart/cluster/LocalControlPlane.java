package dev.nimchart.cluster;

import dev.nimchart.settings.Settings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The {@link ControlPlane} (etcd and kube-apiserver as local processes of this JVM, each under {@link LocalProcess}'s
 * watchdog, so they stop when the JVM is gone) alone, from the binaries of {@link Settings} ({@link BinaryAssets}: this repository builds them from the upstream Go modules) (no container
 * image involved), with a certificate authority of their own and the Service range of {@link TierAddresses}. There
 * are no controllers: the API server stores, defaults, validates and admits objects, and nothing reconciles them.
 *
 * @param runDir    the processes' directory (logs, certificates, etcd's data), removed on a clean stop
 * @param plane     etcd and kube-apiserver
 * @param version   the Kubernetes version
 * @param startTime how long finding the binaries and starting both took
 */
public record LocalControlPlane(Path runDir, ControlPlane plane, String version, Duration startTime) implements TestCluster {

    /** The Kubernetes version: the pin of ci/control-plane/kubernetes/go.mod unless the settings say otherwise. */
    public static final String DEFAULT_VERSION = Settings.DEFAULT_KUBE_VERSION;

    /** Builds the binaries when they are not cached yet (minutes, with progress), then starts the processes. */
    public static LocalControlPlane start(Settings settings, Consumer<String> progress) {
        String version = settings.kubeVersion();
        progress.accept("local control plane " + version + ": checking the binaries (the first run builds them from Go modules: 6-8 min on 2 cores)");
        Path binaries = BinaryAssets.of(settings).controlPlane(version, line -> progress.accept("  " + line));
        long started = System.nanoTime();
        try {
            Path runDir = Files.createTempDirectory("nim-api-server-tier-");
            ControlPlane controlPlane = ControlPlane.start(binaries.resolve("etcd"), binaries.resolve("kube-apiserver"), runDir, false);
            LocalControlPlane plane = new LocalControlPlane(runDir, controlPlane, version, Duration.ofNanos(System.nanoTime() - started));
            progress.accept("local control plane " + version + " ready in " + plane.startTime.toMillis() + " ms; logs in " + runDir.resolve("logs"));
            return plane;
        } catch (IOException | RuntimeException e) {
            throw new ClusterUnavailableException("the local control plane " + version + " did not start: " + e.getMessage(), e);
        }
    }

    @Override
    public java.util.Optional<Pki> pki() {
        return java.util.Optional.of(plane.pki());
    }

    @Override
    public String kubeConfigYaml() {
        return plane.kubeConfigYaml();
    }

    @Override
    public String description() {
        return "local control plane (kube-apiserver v" + version + " and etcd, no controllers)";
    }

    @Override
    public void close() {
        plane.close();
        // A clean stop leaves nothing behind; a failed start keeps the directory, whose logs its message names.
        try (Stream<Path> files = Files.walk(runDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + runDir, e);
        }
    }
}
