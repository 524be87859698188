package dev.nimchart.sessions;

import dev.nimchart.cluster.ClusterChoice;
import dev.nimchart.cluster.ClusterUnavailableException;
import dev.nimchart.cluster.ExistingCluster;
import dev.nimchart.controllers.ControllerEnvironment;
import dev.nimchart.controllers.ControllerTierException;
import dev.nimchart.progress.Progress;
import dev.nimchart.settings.Settings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The controller tier's environment (real controllers on fake GPU nodes; with {@code -Dnim.cluster=kubeconfig}, the
 * existing cluster instead) as a {@link ControllerSession}: started (building the binaries if needed), checked alive
 * before each use, stopped. Unavailable, rather than broken, when this machine cannot run it. Timings go to
 * {@code controller-tier/timings.tsv} of the settings' work directory.
 */
public final class ControllerTierLifecycle extends TierLifecycle<ControllerSession> {

    public static final String NAME = "controller tier";

    /** The tier's report directory (timings, its processes' logs, Helm's home): {@code controller-tier/} of the settings' work directory. */
    public static Path reportDir(Settings settings) {
        return settings.workDir().resolve("controller-tier");
    }

    /** The tier started with these settings, saying what it does to {@code progress}. */
    public ControllerTierLifecycle(Settings settings, Progress progress) {
        super(NAME, ControllerSession.class, settings, progress);
    }

    @Override
    protected ControllerSession start() {
        Settings settings = settings();
        Path reportDir = Timings.restart(reportDir(settings));
        Progress progress = progress();
        ControllerEnvironment environment = ClusterChoice.existing(settings)
                ? ControllerEnvironment.attach(ExistingCluster.of(settings, progress), settings, progress)
                : ControllerEnvironment.start(settings, reportDir, progress);
        for (Map.Entry<String, Duration> t : environment.startTimes().entrySet()) {
            Timings.record(reportDir, "start: " + t.getKey(), t.getValue());
        }
        return new ControllerSession(environment);
    }

    @Override
    protected boolean unavailable(RuntimeException failure) {
        return failure instanceof ControllerTierException || failure instanceof ClusterUnavailableException;
    }

    @Override
    protected void stop(ControllerSession session) {
        session.environment().close();
    }

    @Override
    protected void check(ControllerSession session) {
        session.environment().requireAllRunning();
    }
}
