package dev.nimchart.junit;

import dev.nimchart.progress.Progress;
import dev.nimchart.sessions.ControllerSession;
import dev.nimchart.sessions.ControllerTierLifecycle;
import dev.nimchart.settings.Settings;

/**
 * The controller tier's one environment per test JVM (real controllers on fake GPU nodes; with
 * {@code -Dnim.cluster=kubeconfig}, the existing cluster instead), handed to tests as a {@link ControllerSession}:
 * started on first use, stopped when the JVM's tests end ({@link ControllerTierLifecycle} starts, checks and stops it;
 * this adapter keeps it in JUnit's launcher-session store). Without it the tier fails when CI=true and is skipped, with
 * the reason, otherwise. Timings go to {@code controller-tier/timings.tsv} of the settings' work directory.
 */
public final class ControllerTier extends SharedTier<ControllerSession> {

    /** The tier with the settings of this JUnit run ({@link RunSettings}), as {@code @ExtendWith(ControllerTier.class)} makes it. */
    public ControllerTier() {
        this(RunSettings.get());
    }

    /**
     * The tier started with these settings if it is the first of the JVM to start, saying what it does on the console
     * (tagged {@code [controller tier]}).
     */
    public ControllerTier(Settings settings) {
        super(new ControllerTierLifecycle(settings, Progress.console()));
    }
}
