package dev.nimchart.sessions;

import dev.nimchart.cluster.ClusterUnavailableException;
import dev.nimchart.progress.Progress;
import dev.nimchart.settings.Settings;
import java.nio.file.Path;

/**
 * A tier whose environment this harness starts itself, from the settings (the API-server tier's cluster, the controller
 * tier's processes): each start empties the timings of the tier's report directory (its name with dashes under the
 * settings' work directory: {@code cluster-tier/}, {@code controller-tier/}), then starts the environment there, which
 * records its own steps in them; the tier is unavailable, rather than broken, when there is no cluster to start.
 */
public abstract class TimedTierLifecycle<S> extends TierLifecycle<S> {

    /** A tier named {@code name} ({@code cluster tier}), its report directory named after it. */
    protected TimedTierLifecycle(String name, Class<S> type, Settings settings, Progress progress) {
        super(name, type, settings, progress);
    }

    /** The report directory of the tier named {@code tierName} with these settings: {@code cluster tier} → {@code cluster-tier/}. */
    public static Path reportDir(Settings settings, String tierName) {
        return settings.workDir().resolve(tierName.replace(' ', '-'));
    }

    @Override
    protected final S start() {
        return start(Timings.restart(reportDir(settings(), name())));
    }

    /** Starts the environment, its timings (emptied) and what else it reports in {@code reportDir}. */
    protected abstract S start(Path reportDir);

    @Override
    protected boolean unavailable(RuntimeException failure) {
        return failure instanceof ClusterUnavailableException;
    }
}
