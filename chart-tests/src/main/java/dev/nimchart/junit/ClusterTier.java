package dev.nimchart.junit;

import dev.nimchart.cluster.ClusterSession;
import dev.nimchart.progress.Progress;
import dev.nimchart.sessions.ClusterTierLifecycle;
import dev.nimchart.settings.Settings;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The API-server tier's one cluster per test JVM, handed to tests as a {@link ClusterSession} parameter: started on
 * first use, torn down when the JVM's tests end ({@link ClusterTierLifecycle} starts and stops it; this adapter keeps it
 * in JUnit's launcher-session store). Without a cluster the tier fails when CI=true and is skipped, with the reason,
 * otherwise. Timings go to target/cluster-tier/timings.tsv.
 */
public final class ClusterTier extends SharedTier<ClusterSession> {

    /** The report directory of the default settings ({@link ClusterTierLifecycle#REPORT_DIR}). */
    public static final Path REPORT_DIR = ClusterTierLifecycle.REPORT_DIR;

    public ClusterTier() {
        this(null, Progress.console());
    }

    /** The tier started with these settings if it is the first of the JVM to start. */
    public ClusterTier(Settings settings) {
        this(settings, Progress.console());
    }

    /** As {@link #ClusterTier(Settings)}, saying what it does to {@code progress} (tagged {@code [cluster tier]}). */
    public ClusterTier(Settings settings, Progress progress) {
        super(new ClusterTierLifecycle(settings, progress));
    }

    /** Appends one timing line (what, milliseconds) to the tier's report. */
    public static void record(String what, Duration time) {
        ClusterTierLifecycle.record(what, time);
    }
}
