package dev.nimchart.sessions;

import dev.nimchart.cluster.ClusterChoice;
import dev.nimchart.cluster.ExistingCluster;
import dev.nimchart.controllers.ControllerEnvironment;
import dev.nimchart.controllers.ControllerTierException;
import dev.nimchart.progress.Progress;
import dev.nimchart.settings.Settings;
import java.nio.file.Path;

/**
 * The controller tier's environment (real controllers on fake GPU nodes; with {@code -Dnim.cluster=kubeconfig}, the
 * existing cluster instead) as a {@link ControllerSession}: started (building the binaries if needed), checked alive
 * before each use, stopped. Unavailable, rather than broken, when this machine cannot run it. Timings go to
 * {@code controller-tier/timings.tsv} of the settings' work directory.
 */
public final class ControllerTierLifecycle extends TimedTierLifecycle<ControllerSession> {

    public static final String NAME = "controller tier";

    /** The tier started with these settings, saying what it does to {@code progress}. */
    public ControllerTierLifecycle(Settings settings, Progress progress) {
        super(NAME, ControllerSession.class, settings, progress);
    }

    /** The tier's report directory (timings, its processes' logs, Helm's home): {@code controller-tier/} of the settings' work directory. */
    public static Path reportDir(Settings settings) {
        return reportDir(settings, NAME);
    }

    @Override
    protected ControllerSession start(Path reportDir) {
        ControllerEnvironment environment = ClusterChoice.existing(settings())
                ? ControllerEnvironment.attach(ExistingCluster.of(settings(), progress()), settings(), progress())
                : ControllerEnvironment.start(settings(), reportDir, progress());
        environment.startTimes().forEach((step, time) -> Timings.record(reportDir, "start: " + step, time));
        return new ControllerSession(environment);
    }

    @Override
    protected boolean unavailable(RuntimeException failure) {
        return failure instanceof ControllerTierException || super.unavailable(failure);
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
