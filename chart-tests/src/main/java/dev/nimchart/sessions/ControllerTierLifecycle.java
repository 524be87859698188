package dev.nimchart.sessions;

import dev.nimchart.cluster.ClusterChoice;
import dev.nimchart.cluster.ClusterUnavailableException;
import dev.nimchart.cluster.ExistingCluster;
import dev.nimchart.controllers.ControllerEnvironment;
import dev.nimchart.controllers.ControllerTierException;
import dev.nimchart.progress.Progress;
import dev.nimchart.settings.Settings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The controller tier's environment (real controllers on fake GPU nodes; with {@code -Dnim.cluster=kubeconfig}, the
 * existing cluster instead) as a {@link ControllerSession}: started (building the binaries if needed), checked alive
 * before each use, stopped. Unavailable, rather than broken, when this machine cannot run it. Timings go to
 * target/controller-tier/timings.tsv.
 */
public final class ControllerTierLifecycle extends TierLifecycle<ControllerSession> {

    public static final String NAME = "controller tier";

    public static final Path REPORT_DIR = Path.of("target", "controller-tier");

    /** The tier started with these settings (null: this JVM's), saying what it does to {@code progress}. */
    public ControllerTierLifecycle(Settings settings, Progress progress) {
        super(NAME, ControllerSession.class, settings, progress);
    }

    @Override
    protected ControllerSession start() {
        try {
            Files.deleteIfExists(REPORT_DIR.resolve("timings.tsv"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Progress progress = progress();
        Settings settings = settings();
        ControllerEnvironment environment = ClusterChoice.existing(settings)
                ? ControllerEnvironment.attach(ExistingCluster.of(settings, progress), settings, progress)
                : ControllerEnvironment.start(settings, REPORT_DIR.toAbsolutePath(), progress);
        for (Map.Entry<String, Duration> t : environment.startTimes().entrySet()) {
            Timings.record(REPORT_DIR, "start: " + t.getKey(), t.getValue());
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
