package dev.nimchart.junit;

import dev.nimchart.settings.Settings;
import dev.nimchart.settings.SettingsFromProperties;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * A tier's one environment per JVM, handed to tests as a parameter of type {@code S} (with
 * {@code @ExtendWith(ClusterTier.class)} or {@code @ExtendWith(ControllerTier.class)}) and to the library's door
 * ({@code ChartCheck.apiServerTests()}, {@code controllerTests()}, ...): started on first use by whichever asks first,
 * shared by every test class of the run, stopped when the JVM ends. When it cannot start, the tier fails with CI=true
 * and is skipped, with the reason printed, otherwise: a tier is never skipped silently.
 */
public abstract class SharedTier<S> implements BeforeAllCallback, ParameterResolver {

    private static final Map<Class<?>, Started<?>> STARTED = new ConcurrentHashMap<>();

    private final String name;
    private final Class<S> type;

    private final Settings settings;

    protected SharedTier(String name, Class<S> type) {
        this(name, type, null);
    }

    /** A tier that starts with these settings (null: this JVM's system properties), if it is the first to start. */
    protected SharedTier(String name, Class<S> type, Settings settings) {
        this.name = name;
        this.type = type;
        this.settings = settings;
    }

    /** Starts the environment. */
    protected abstract S start();

    /** Whether this start failure means the tier cannot run on this machine (rather than a bug). */
    protected abstract boolean unavailable(RuntimeException failure);

    protected abstract void stop(S session);

    /** Checked before every use (a process of the tier may have died). */
    protected void check(S session) {
    }

    /**
     * The settings the tier starts with: those given (by {@code ChartCheck.settings}), else those of this JVM's system
     * properties, read once ({@link SettingsFromProperties#shared()}); the one place the adapters take them from. The
     * first to start the JVM's session decides.
     */
    protected Settings settings() {
        return settings != null ? settings : SettingsFromProperties.shared();
    }

    public String name() {
        return name;
    }

    /** The started environment (starting it on first use), or why there is none. */
    @SuppressWarnings("unchecked")
    public Started<S> started() {
        return (Started<S>) STARTED.computeIfAbsent(getClass(), k -> {
            Started<S> s = Started.of(this);
            if (s.session != null) {
                Runtime.getRuntime().addShutdownHook(new Thread(s::close, name + " stop"));
            }
            return s;
        });
    }

    /** The environment for a test: fails (CI=true) or aborts the test, with the reason, when the tier is unavailable. */
    public S sessionOrAbort() {
        return started().sessionOrAbort();
    }

    /** Fails (CI=true) or skips the whole test class, with the reason, when the tier is unavailable. */
    @Override
    public void beforeAll(ExtensionContext context) {
        sessionOrAbort();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == type;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return sessionOrAbort();
    }

    /** The started environment, or why there is none. */
    public static final class Started<S> {
        private final SharedTier<S> tier;
        private final S session;
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
        public java.util.Optional<S> session() {
            if (session != null) {
                tier.check(session);
            }
            return java.util.Optional.ofNullable(session);
        }

        public String failure() {
            return failure == null ? null : failure.getMessage();
        }

        S sessionOrAbort() {
            if (session != null) {
                tier.check(session);
                return session;
            }
            if (tier.settings().ci() || !tier.unavailable(failure)) {
                throw new AssertionError("CI=true and the " + tier.name + " is unavailable: " + failure.getMessage(), failure);
            }
            System.out.println("[" + tier.name + "] SKIPPED (CI is not true; with CI=true this fails the build): " + failure.getMessage());
            Assumptions.abort(tier.name + " skipped (CI is not true): " + failure.getMessage());
            return null;
        }

        synchronized void close() {
            if (session != null) {
                tier.stop(session);
            }
        }
    }
}
