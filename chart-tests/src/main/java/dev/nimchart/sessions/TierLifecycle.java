package dev.nimchart.sessions;

import dev.nimchart.progress.Progress;
import dev.nimchart.settings.Settings;

/**
 * A tier's environment and how it starts, is checked alive and stops, knowing nothing of who owns it: an owner
 * ({@link OwnedTierSessions}, which a {@code ChartCheck} or the command line holds, or JUnit's adapter
 * {@code dev.nimchart.junit.SharedTier}, which keeps it in its launcher session's store) calls {@link #startNow()} and
 * closes what it returns. As Testcontainers splits a container (a resource that knows no JUnit) from its extension
 * (which keeps the container in JUnit's store).
 */
public abstract class TierLifecycle<S> {

    private final String name;
    private final Class<S> type;
    private final Settings settings;
    private final Progress progress;

    /**
     * A tier that starts with these settings (its owner's: a {@code ChartCheck}'s, the command line's or the JUnit run's) and says what it does to
     * {@code progress}, tagged with its name ({@code [cluster tier] ...}).
     */
    protected TierLifecycle(String name, Class<S> type, Settings settings, Progress progress) {
        this.name = name;
        this.type = type;
        this.settings = java.util.Objects.requireNonNull(settings, "the tier's settings");
        this.progress = progress.tagged(name);
    }

    /** The settings the tier starts with, as its owner gave them. */
    public Settings settings() {
        return settings;
    }

    /** Where the tier says what it does (its lines tagged with its name). */
    public Progress progress() {
        return progress;
    }

    public String name() {
        return name;
    }

    /** The type of the started environment (what a test asks for as a parameter). */
    public Class<S> type() {
        return type;
    }

    /** Starts the environment. */
    protected abstract S start();

    /** Whether this start failure means the tier cannot run on this machine (rather than a bug); by default none does. */
    protected boolean unavailable(RuntimeException failure) {
        return false;
    }

    protected abstract void stop(S session);

    /** Checked before every use (a process of the tier may have died). */
    protected void check(S session) {
    }

    /** Starts the environment now, for an owner that closes it: the started session, or why there is none. */
    public Started<S> startNow() {
        return Started.of(this);
    }
}
