package dev.nimchart.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** etcd for a tier's API server: one member on loopback, data in the run directory, no fsync (tests only). */
public final class EtcdProcess {

    private EtcdProcess() {
    }

    /** Starts etcd serving clients on {@code clientPort} and returns it once {@code /health} answers. */
    public static LocalProcess start(Path etcdBinary, Path runDir, int clientPort) {
        int peerPort = FreePort.take();
        String client = "http://127.0.0.1:" + clientPort;
        String peer = "http://127.0.0.1:" + peerPort;
        LocalProcess etcd = LocalProcess.start("etcd", List.of(etcdBinary.toString(),
                "--name", "tier", "--data-dir", runDir.resolve("etcd-data").toString(),
                "--listen-client-urls", client, "--advertise-client-urls", client,
                "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
                "--initial-cluster", "tier=" + peer, "--unsafe-no-fsync", "--log-level", "warn"),
                Map.of(), runDir.resolve("logs"));
        etcd.awaitReady("/health answering", () -> HealthProbe.http(clientPort, "/health"), LocalProcess.START_TIMEOUT);
        return etcd;
    }
}
