package dev.nimchart;

import dev.nimchart.cluster.ExistingCluster;
import dev.nimchart.progress.Progress;
import dev.nimchart.sessions.OwnedTierSessions;
import dev.nimchart.sessions.TierSessions;
import dev.nimchart.settings.Settings;
import java.nio.file.Path;
import java.util.function.BiFunction;

/**
 * The cluster tiers' environments of a {@link ChartCheck} and its copies: given by the caller
 * ({@link ChartCheck#withSessions(TierSessions)}, e.g. JUnit's launcher-session store), which keeps them; or owned,
 * made on first use (the tiers' own, or an existing cluster's) and stopped by {@link #close()}. The one mutable part of
 * a check, shared by the copies made from it.
 */
final class EnvironmentHolder {

    private final TierSessions given;
    private final BiFunction<Progress, Settings, OwnedTierSessions> make;
    private OwnedTierSessions owned;

    private EnvironmentHolder(TierSessions given, BiFunction<Progress, Settings, OwnedTierSessions> make) {
        this.given = given;
        this.make = make;
    }

    /** The tiers' own environments, started on this machine on first use. */
    static EnvironmentHolder local() {
        return new EnvironmentHolder(null, OwnedTierSessions::local);
    }

    /** Sessions on a cluster the harness did not start (closing them stops nothing of it). */
    static EnvironmentHolder existing(Path kubeconfig, ExistingCluster.Writes writes) {
        return new EnvironmentHolder(null, (progress, settings) -> OwnedTierSessions.existing(kubeconfig, writes, settings.workDir(), settings, progress));
    }

    /** Environments the caller owns and closes. */
    static EnvironmentHolder given(TierSessions sessions) {
        return new EnvironmentHolder(java.util.Objects.requireNonNull(sessions, "sessions"), null);
    }

    /** The sessions; owned ones made on first use, with these settings, saying what they do to {@code progress}. */
    synchronized TierSessions get(Progress progress, Settings settings) {
        if (given != null) {
            return given;
        }
        if (owned == null) {
            owned = make.apply(progress, settings);
        }
        return owned;
    }

    synchronized void close() {
        if (owned != null) {
            owned.close();
        }
    }
}
