package dev.nimchart.sessions;

import dev.nimchart.cluster.ClusterSession;
import dev.nimchart.progress.Progress;
import dev.nimchart.settings.Settings;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The API-server tier's cluster ("cluster tier"): started (building the local control plane if needed, or K3s or an
 * existing cluster as the settings choose) and torn down. Unavailable, rather than broken, when there is no cluster.
 * Timings go to {@code cluster-tier/timings.tsv} of the settings' work directory.
 */
public final class ClusterTierLifecycle extends TimedTierLifecycle<ClusterSession> {

    public static final String NAME = "cluster tier";

    /** The tier's report directory: {@code cluster-tier/} of the settings' work directory. */
    public static Path reportDir(Settings settings) {
        return reportDir(settings, NAME);
    }

    /** Appends one timing line (what, milliseconds) to the report of the tier of these settings. */
    public static void record(Settings settings, String what, Duration time) {
        Timings.record(reportDir(settings), what, time);
    }

    /** The tier started with these settings, saying what it does to {@code progress}. */
    public ClusterTierLifecycle(Settings settings, Progress progress) {
        super(NAME, ClusterSession.class, settings, progress);
    }

    @Override
    protected ClusterSession start(Path reportDir) {
        ClusterSession session = ClusterSession.start(settings(), settings()::chartDir, reportDir, progress());
        Timings.record(reportDir, "cluster start (" + session.cluster().description() + ")", session.cluster().startTime());
        Timings.record(reportDir, "cluster ready with CRDs", session.readyTime());
        return session;
    }

    @Override
    protected void stop(ClusterSession session) {
        session.close();
    }
}
