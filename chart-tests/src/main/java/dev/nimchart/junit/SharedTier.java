package dev.nimchart.junit;

import dev.nimchart.progress.Progress;
import dev.nimchart.settings.Settings;
import dev.nimchart.settings.SettingsFromProperties;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * A tier's environment, how it starts and stops, and its JUnit 5 adapter: handed to tests as a parameter of type
 * {@code S} (with {@code @ExtendWith(ClusterTier.class)} or {@code @ExtendWith(ControllerTier.class)}) and to the
 * library's door through {@link TierSessions}. In JUnit the started environment is kept in the launcher session's
 * {@link ExtensionContext.Store} ({@link #started(ExtensionContext)}): started on first use by whichever test asks
 * first, shared by every test class of the session (one environment per tier per test JVM), and closed by JUnit when
 * the session ends. Outside JUnit its owner ({@link OwnedTierSessions}, which a {@code ChartCheck} or the command line holds)
 * starts and closes it. When it cannot start, the tier fails with CI=true and is skipped, with the reason printed,
 * otherwise ({@link Started#sessionOrAbort()}): a tier is never skipped silently.
 */
public abstract class SharedTier<S> implements BeforeAllCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SharedTier.class);

    private final String name;
    private final Class<S> type;
    private final Settings settings;
    private final Progress progress;

    /** A tier with this JVM's settings that says what it does on standard output, tagged with its name ({@code [cluster tier] ...}). */
    protected SharedTier(String name, Class<S> type) {
        this(name, type, null);
    }

    /** A tier that starts with these settings (null: this JVM's system properties), if it is the first to start. */
    protected SharedTier(String name, Class<S> type, Settings settings) {
        this(name, type, settings, Progress.console());
    }

    /** As {@link #SharedTier(String, Class, Settings)}, saying what it does to {@code progress}, tagged with its name. */
    protected SharedTier(String name, Class<S> type, Settings settings, Progress progress) {
        this.name = name;
        this.type = type;
        this.settings = settings;
        this.progress = progress.tagged(name);
    }

    /**
     * The settings the tier starts with: those given (by {@code ChartCheck.settings}), else those of this JVM's system
     * properties, read once ({@link SettingsFromProperties#shared()}); the one place the adapters take them from. In
     * JUnit's launcher-session store the first to start the run's session decides.
     */
    protected Settings settings() {
        return settings != null ? settings : SettingsFromProperties.shared();
    }

    /** Where the tier says what it does (its lines tagged with its name). */
    protected Progress progress() {
        return progress;
    }

    /** Starts the environment. */
    protected abstract S start();

    /** Whether this start failure means the tier cannot run on this machine (rather than a bug). */
    protected abstract boolean unavailable(RuntimeException failure);

    protected abstract void stop(S session);

    /** Checked before every use (a process of the tier may have died). */
    protected void check(S session) {
    }

    public String name() {
        return name;
    }

    /** Starts the environment now, for an owner that closes it: the started session, or why there is none. */
    public Started<S> startNow() {
        return Started.of(this);
    }

    /**
     * The environment of this JUnit launcher session (starting it on first use), kept in the session's store, which
     * closes it when the session ends; or why there is none. Not the root context's store: Maven's Surefire and Failsafe
     * with {@code forkCount > 1} (and any launcher that runs one class per execution request) give every test class a
     * root context of its own, and each class then started and stopped its own environment. The launcher session
     * ({@code ExtensionContext.StoreScope.LAUNCHER_SESSION}, JUnit 5.13) spans a forked JVM's classes. Each start is
     * recorded ({@link TierStarts}), so a run can show it started at most one per tier per JVM.
     */
    @SuppressWarnings("unchecked")
    public Started<S> started(ExtensionContext context) {
        return context.getStore(ExtensionContext.StoreScope.LAUNCHER_SESSION, NAMESPACE).getOrComputeIfAbsent(getClass(), k -> {
            TierStarts.record(settings().workDir(), name, context.getTestClass().map(Class::getName).orElse(context.getUniqueId()));
            return startNow();
        }, Started.class);
    }

    /** Fails (CI=true) or skips the whole test class, with the reason, when the tier is unavailable. */
    @Override
    public void beforeAll(ExtensionContext context) {
        started(context).sessionOrAbort();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == type;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return started(context).sessionOrAbort();
    }

    /**
     * The started environment, or why there is none: what its owner holds and closes (the launcher session's store closes it as
     * an {@link AutoCloseable} value).
     */
    public static final class Started<S> implements AutoCloseable {
        private final SharedTier<S> tier;
        private S session;
        private final RuntimeException failure;

        private Started(SharedTier<S> tier, S session, RuntimeException failure) {
            this.tier = tier;
            this.session = session;
            this.failure = failure;
        }

        static <S> Started<S> of(SharedTier<S> tier) {
            try {
                return new Started<>(tier, tier.start(), null);
            } catch (RuntimeException e) {
                if (tier.unavailable(e)) {
                    return new Started<>(tier, null, e);
                }
                return new Started<>(tier, null, new IllegalStateException("the " + tier.name + " failed to start: " + e, e));
            }
        }

        /** The session when the tier runs (checked alive), else empty with {@link #failure()} saying why. */
        public synchronized java.util.Optional<S> session() {
            if (session != null) {
                tier.check(session);
            }
            return java.util.Optional.ofNullable(session);
        }

        /** The session (checked alive), or a {@link TierNotStartedException} saying why there is none. */
        public S sessionOrThrow() {
            return session().orElseThrow(() -> new TierNotStartedException(tier.name, failure, tier.unavailable(failure),
                    tier.settings().ci(), tier.progress));
        }

        public String failure() {
            return failure == null ? null : failure.getMessage();
        }

        /** The session for a test: fails (CI=true) or aborts the test, with the reason, when the tier is unavailable. */
        public S sessionOrAbort() {
            try {
                return sessionOrThrow();
            } catch (TierNotStartedException e) {
                throw e.failOrAbort();
            }
        }

        @Override
        public synchronized void close() {
            if (session != null) {
                S s = session;
                session = null;
                tier.stop(s);
            }
        }
    }
}
