package dev.nimchart.controllers;

import dev.nimchart.cluster.ExistingCluster;
import dev.nimchart.settings.Settings;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.cluster.LocalProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The controller tier's cluster, in one of two implementations: {@link LocalControllerEnvironment}, real controllers
 * on fake GPU nodes as local processes the tier starts and stops ({@link #start}); or {@link ExistingClusterEnvironment},
 * a cluster the harness did not start, with its own controllers, nodes and storage, of which it starts and stops nothing
 * ({@link #attach}). What differs between the two is here, answered by each; no caller asks which one it has.
 */
public interface ControllerEnvironment extends AutoCloseable {

    /** Builds what is missing, then starts everything; on any failure, stops what it started and says why. */
    static ControllerEnvironment start(Settings settings, Path workDir, Consumer<String> progress) {
        return LocalControllerEnvironment.start(settings, workDir, progress);
    }

    /**
     * The reconciled-state checks on a cluster the harness did not start (its own controllers, nodes and storage): no
     * process is started or stopped, no lock taken; {@link #requireAllRunning()} asks the API server for readiness.
     */
    static ControllerEnvironment attach(ExistingCluster cluster, Settings settings, Consumer<String> progress) {
        return ExistingClusterEnvironment.attach(cluster, settings, progress);
    }

    /** Whether the tier started this environment (its fake nodes, stand-ins and processes are there to use). */
    boolean startedByHarness();

    /** Whether the checks may create cluster-scoped objects here (volumes, classes an administrator would provide). */
    boolean clusterScopedWrites();

    /** How long pods get to go after an uninstall or a namespace deletion: 120 s here, 10 minutes on an existing cluster. */
    Duration settleTimeout();

    /** The tier's own environment, or a failure naming what needs it: on an existing cluster there are no fake nodes. */
    ControllerEnvironment requireStartedByHarness(String what);

    /**
     * What both implementations reach the cluster through, held in one value: the kubeconfig, the API client, the
     * names of the nodes, the settings the environment was started or attached with.
     */
    record Access(String kubeConfigYaml, KubeApi api, List<String> nodes, Settings settings) {
    }

    /** The cluster's kubeconfig, client, nodes and settings. */
    Access access();

    default String kubeConfigYaml() {
        return access().kubeConfigYaml();
    }

    default KubeApi api() {
        return access().api();
    }

    default List<String> nodes() {
        return access().nodes();
    }

    /** How long each step of the start took, and "all ready". */
    Map<String, Duration> startTimes();

    /** The settings the environment was started or attached with (its fake nodes, its Helm CLI). */
    default Settings settings() {
        return access().settings();
    }

    /** Where the environment's processes keep their files and logs; empty on an existing cluster, which has none of ours. */
    java.util.Optional<Path> runDir();

    /** Fails with the reason when the environment no longer runs (a process ended; an existing cluster not ready). */
    void requireAllRunning();

    /** The processes the tier started (none on an existing cluster). */
    List<LocalProcess> processes();

    /**
     * Stops kube-apiserver and etcd (in that order, as a control-plane node's restart does) and starts them again on
     * the same ports and data, while the controllers, kwok and the webhooks keep running; returns from the stop until
     * /readyz answers again. Only on the tier's own environment.
     */
    Duration restartControlPlane();

    /** Stops what the tier started (on an existing cluster: nothing). */
    @Override
    void close();
}
