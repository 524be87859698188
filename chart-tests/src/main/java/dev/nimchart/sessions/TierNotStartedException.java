package dev.nimchart.sessions;

import dev.nimchart.progress.Progress;
import dev.nimchart.result.CheckSkipped;

/**
 * A tier's environment did not start: {@link #skippable()} when this machine cannot run the tier (no root, no binaries,
 * no cluster), which skips its tests unless CI=true; otherwise a failure whatever CI says.
 */
public final class TierNotStartedException extends RuntimeException {

    private final String tier;
    private final boolean skippable;
    private final boolean ci;
    private final transient Progress progress;

    /** {@code ci}: the settings' CI (every tier must run); {@code progress}: where a skip is said, tagged with the tier's name. */
    public TierNotStartedException(String tier, Throwable cause, boolean skippable, boolean ci, Progress progress) {
        super(cause == null ? "the " + tier + " did not start" : cause.getMessage(), cause);
        this.tier = tier;
        this.skippable = skippable;
        this.ci = ci;
        this.progress = progress;
    }

    /** The tier cannot run on this machine (rather than a bug). */
    public boolean skippable() {
        return skippable;
    }

    /**
     * For a check: with CI=true, or when the tier failed rather than being unavailable, an {@link AssertionError} to
     * throw; otherwise the reason is printed and the check skipped (this method throws the {@link CheckSkipped} itself,
     * which JUnit's adapter reports as an aborted test).
     */
    public AssertionError failOrSkip() {
        if (ci || !skippable) {
            return new AssertionError("CI=true and the " + tier + " is unavailable: " + getMessage(), this);
        }
        progress.line("SKIPPED (CI is not true; with CI=true this fails the build): " + getMessage());
        throw new CheckSkipped(tier + " skipped (CI is not true): " + getMessage());
    }
}
