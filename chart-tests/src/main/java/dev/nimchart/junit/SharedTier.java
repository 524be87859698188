package dev.nimchart.junit;

import dev.nimchart.progress.Progress;
import dev.nimchart.result.CheckSkipped;
import dev.nimchart.sessions.Started;
import dev.nimchart.sessions.TierLifecycle;
import dev.nimchart.sessions.TierNotStartedException;
import dev.nimchart.sessions.TierStarts;
import dev.nimchart.settings.Settings;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * A tier's JUnit 5 adapter: hands tests its environment as a parameter of type {@code S} (with
 * {@code @ExtendWith(ClusterTier.class)} or {@code @ExtendWith(ControllerTier.class)}) and the library's door its
 * {@code TierSessions} ({@link ChartTiers}). How the environment starts and stops is its {@link TierLifecycle}
 * ({@code dev.nimchart.sessions}, which knows no JUnit); this class only keeps the started environment in the launcher
 * session's {@link ExtensionContext.Store} ({@link #started(ExtensionContext)}): started on first use by whichever test
 * asks first, shared by every test class of the session (one environment per tier per test JVM), and closed by JUnit
 * when the session ends. When it cannot start, the tier fails with CI=true and is skipped, with the reason printed,
 * otherwise ({@link #sessionOrAbort(Started)}): a tier is never skipped silently.
 */
public abstract class SharedTier<S> implements BeforeAllCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SharedTier.class);

    private final TierLifecycle<S> lifecycle;

    /** The adapter of this lifecycle (JUnit makes one adapter per class it extends; the store keys on the adapter's class). */
    protected SharedTier(TierLifecycle<S> lifecycle) {
        this.lifecycle = lifecycle;
    }

    /**
     * An adapter whose lifecycle is this class's own {@code start}, {@code unavailable}, {@code stop} (and
     * {@code check}): for a tier defined in a test, in one class.
     */
    protected SharedTier(String name, Class<S> type, Settings settings, Progress progress) {
        SharedTier<S> self = this;
        this.lifecycle = new TierLifecycle<>(name, type, settings, progress) {
            @Override
            protected S start() {
                return self.start();
            }

            @Override
            protected boolean unavailable(RuntimeException failure) {
                return self.unavailable(failure);
            }

            @Override
            protected void stop(S session) {
                self.stop(session);
            }
        };
    }

    /** For the one-class form ({@link #SharedTier(String, Class, Settings, Progress)}): starts the environment. */
    protected S start() {
        throw new UnsupportedOperationException("a SharedTier made with a TierLifecycle starts through it");
    }

    /** For the one-class form: whether this start failure means the tier cannot run on this machine. */
    protected boolean unavailable(RuntimeException failure) {
        return false;
    }

    /** For the one-class form: stops the environment. */
    protected void stop(S session) {
    }

    public TierLifecycle<S> lifecycle() {
        return lifecycle;
    }

    public String name() {
        return lifecycle.name();
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
            TierStarts.record(lifecycle.settings().workDir(), lifecycle.name(),
                    context.getTestClass().map(Class::getName).orElse(context.getUniqueId()));
            return lifecycle.startNow();
        }, Started.class);
    }

    /** Fails (CI=true) or skips the whole test class, with the reason, when the tier is unavailable. */
    @Override
    public void beforeAll(ExtensionContext context) {
        sessionOrAbort(started(context));
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == lifecycle.type();
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return sessionOrAbort(started(context));
    }

    /** The session for a test: fails (CI=true) or aborts the test, with the reason, when the tier is unavailable. */
    public static <S> S sessionOrAbort(Started<S> started) {
        try {
            return started.sessionOrThrow();
        } catch (TierNotStartedException e) {
            try {
                throw e.failOrSkip();
            } catch (CheckSkipped skipped) {
                Assumptions.abort(skipped.getMessage());
                throw skipped;
            }
        }
    }
}
