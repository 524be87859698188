package dev.nimchart.junit;

import dev.nimchart.cluster.ClusterSession;
import dev.nimchart.progress.Progress;
import dev.nimchart.sessions.ClusterTierLifecycle;
import dev.nimchart.settings.Settings;

/**
 * The API-server tier's one cluster per test JVM, handed to tests as a {@link ClusterSession} parameter: started on
 * first use, torn down when the JVM's tests end ({@link ClusterTierLifecycle} starts and stops it; this adapter keeps it
 * in JUnit's launcher-session store). Without a cluster the tier fails when CI=true and is skipped, with the reason,
 * otherwise. Timings go to {@code cluster-tier/timings.tsv} of the settings' work directory.
 */
public final class ClusterTier extends SharedTier<ClusterSession> {

    /** The tier with the settings of this JUnit run ({@link RunSettings}), as {@code @ExtendWith(ClusterTier.class)} makes it. */
    public ClusterTier() {
        this(RunSettings.get());
    }

    /**
     * The tier started with these settings if it is the first of the JVM to start, saying what it does on the console
     * (tagged {@code [cluster tier]}).
     */
    public ClusterTier(Settings settings) {
        super(new ClusterTierLifecycle(settings, Progress.console()));
    }
}
