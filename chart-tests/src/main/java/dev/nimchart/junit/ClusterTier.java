package dev.nimchart.junit;

import dev.nimchart.settings.Settings;
import dev.nimchart.cluster.ClusterSession;
import dev.nimchart.cluster.ClusterUnavailableException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The API-server tier's one cluster per test JVM, handed to tests as a {@link ClusterSession} parameter: started on
 * first use (building the local control plane if needed), torn down when the JVM's tests end. Without a cluster the
 * tier fails when CI=true and is skipped, with the reason, otherwise. Timings go to target/cluster-tier/timings.tsv.
 */
public final class ClusterTier extends SharedTier<ClusterSession> {

    /** The report directory of the default settings; a tier's own is {@code cluster-tier/} of its settings' work directory. */
    public static final Path REPORT_DIR = Path.of("target", "cluster-tier");

    public ClusterTier() {
        super("cluster tier", ClusterSession.class);
    }

    /** The tier started with these settings if it is the first of the JVM to start (see {@link SharedTier#settings()}). */
    public ClusterTier(Settings settings) {
        super("cluster tier", ClusterSession.class, settings);
    }

    /** As {@link #ClusterTier(Settings)}, saying what it does to {@code progress} (tagged {@code [cluster tier]}). */
    public ClusterTier(Settings settings, dev.nimchart.progress.Progress progress) {
        super("cluster tier", ClusterSession.class, settings, progress);
    }

    @Override
    protected ClusterSession start() {
        Settings settings = settings();
        Path reportDir = settings.workDir().resolve(REPORT_DIR.getFileName());
        try {
            Files.deleteIfExists(reportDir.resolve("timings.tsv"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ClusterSession session = ClusterSession.start(settings, settings::chartDir, reportDir, progress());
        record("cluster start (" + session.cluster().description() + ")", session.cluster().startTime());
        record("cluster ready with CRDs", session.readyTime());
        return session;
    }

    @Override
    protected boolean unavailable(RuntimeException failure) {
        return failure instanceof ClusterUnavailableException;
    }

    @Override
    protected void stop(ClusterSession session) {
        session.close();
    }

    /** Appends one timing line (what, milliseconds) to the tier's report. */
    public static void record(String what, Duration time) {
        Timings.record(REPORT_DIR, what, time);
    }
}
