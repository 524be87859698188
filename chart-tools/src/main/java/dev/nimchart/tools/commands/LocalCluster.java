package dev.nimchart.tools.commands;

import dev.nimchart.cluster.ClusterUnavailableException;
import dev.nimchart.controllers.ControllerEnvironment;
import dev.nimchart.controllers.ControllerTierException;
import dev.nimchart.settings.SettingsFromProperties;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;

/**
 * {@code ci/local-cluster.sh up}'s command (this repository's, outside the library's jar): the controller tier's
 * environment (kube-apiserver, kube-controller-manager, kube-scheduler, kwok's fake GPU nodes, the LeaderWorkerSet
 * controller and mpi-operator) started as one cluster that stays up until this process is stopped (SIGTERM: {@code ci/local-cluster.sh down}), its kubeconfig written to the
 * file given as the argument once every part is ready. The suite's checks can then run on it as on any cluster they
 * did not start ({@code -Dnim.cluster=kubeconfig}, {@code ci/check-chart.sh --kubeconfig}). It holds the machine's
 * controller-tier lock while it runs, so the repository's own controller tier waits for it to stop.
 */
public final class LocalCluster {

    private LocalCluster() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length != 1) {
            System.err.println("usage: LocalCluster KUBECONFIG-FILE");
            System.exit(2);
        }
        Path kubeconfig = Path.of(args[0]).toAbsolutePath();
        long started = System.nanoTime();
        Consumer<String> progress = line -> System.out.printf("[%5.1fs] %s%n", (System.nanoTime() - started) / 1e9, line);
        ControllerEnvironment env;
        try {
            env = ControllerEnvironment.start(SettingsFromProperties.fromSystemProperties(), kubeconfig.getParent().resolve("environment"), progress);
        } catch (ControllerTierException | ClusterUnavailableException e) {
            System.err.println(e.getMessage());
            System.exit(3);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("stopping the local cluster");
            env.close();
            stopped.countDown();
        }, "local-cluster stop"));
        try {
            Path partial = kubeconfig.resolveSibling(kubeconfig.getFileName() + ".partial");
            Files.writeString(partial, env.kubeConfigYaml());
            Files.move(partial, kubeconfig, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            System.err.println("cannot write the kubeconfig " + kubeconfig + ": " + e.getMessage());
            System.exit(1);
        }
        progress.accept("ready: " + env.nodes().size() + " nodes; kubeconfig " + kubeconfig);
        while (true) {
            env.requireAllRunning();
            Thread.sleep(2000);
        }
    }
}
