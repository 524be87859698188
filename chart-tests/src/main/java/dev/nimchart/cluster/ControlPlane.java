package dev.nimchart.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * etcd and kube-apiserver as local processes of this JVM (under {@link LocalProcess}'s watchdog), with a certificate
 * authority of their own, from binaries in the directories given: the one control plane both cluster tiers compose
 * ({@link LocalControlPlane} alone, the controller tier's environment with its controllers on top).
 *
 * @param pki            the control plane's own certificate authority and certificates
 * @param processes      etcd, then kube-apiserver
 * @param kubeConfigYaml an admin kubeconfig for the API server on 127.0.0.1
 * @param startTimes     how long etcd and kube-apiserver each took to be ready
 */
public record ControlPlane(Pki pki, List<LocalProcess> processes, String kubeConfigYaml, Map<String, Duration> startTimes) implements AutoCloseable {

    /**
     * Starts etcd, then kube-apiserver, each once it is ready; on a failure, stops what it started and rethrows.
     * {@code controllersRun}: the API server is configured for a cluster with controllers (ServiceAccount tokens).
     */
    public static ControlPlane start(Path etcdBinary, Path apiServerBinary, Path runDir, boolean controllersRun) {
        List<LocalProcess> processes = new ArrayList<>();
        Map<String, Duration> times = new LinkedHashMap<>();
        try {
            Pki pki = Pki.forLocalApiServer(runDir.resolve("pki"));
            int etcdPort = FreePort.take();
            int apiPort = FreePort.take();
            long started = System.nanoTime();
            processes.add(EtcdProcess.start(etcdBinary, runDir, etcdPort));
            times.put("etcd", Duration.ofNanos(System.nanoTime() - started));
            started = System.nanoTime();
            processes.add(ApiServerProcess.start(apiServerBinary, runDir, pki, etcdPort, apiPort, controllersRun));
            times.put("kube-apiserver", Duration.ofNanos(System.nanoTime() - started));
            return new ControlPlane(pki, processes, pki.adminKubeConfig("https://127.0.0.1:" + apiPort), times);
        } catch (RuntimeException e) {
            stop(processes);
            throw e;
        }
    }

    /** Whether this process is one a control plane starts (etcd or kube-apiserver): the last to stop in a cluster. */
    public static boolean isControlPlane(LocalProcess process) {
        return process.name().equals("etcd") || process.name().equals("kube-apiserver");
    }

    /** Stops the API server before etcd. */
    @Override
    public void close() {
        stop(processes);
    }

    private static void stop(List<LocalProcess> processes) {
        for (int i = processes.size() - 1; i >= 0; i--) {
            processes.get(i).close();
        }
    }
}
