package dev.nimchart.chart;

import java.util.function.Consumer;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * A tier's one environment per test JVM, handed to tests as a parameter of type {@code S}: started on first use,
 * closed when the JVM's tests end. When it cannot start, the tier fails with CI=true and is skipped, with the reason
 * printed, otherwise: a tier is never skipped silently.
 */
abstract class SharedTier<S> implements BeforeAllCallback, ParameterResolver {

    private final String name;
    private final Class<S> type;

    SharedTier(String name, Class<S> type) {
        this.name = name;
        this.type = type;
    }

    /** Starts the environment; a failure the given exception types stand for means "unavailable here". */
    abstract S start();

    /** Whether this start failure means the tier cannot run on this machine (rather than a bug). */
    abstract boolean unavailable(RuntimeException failure);

    abstract void stop(S session);

    /** Checked before every use (a process of the tier may have died). */
    void check(S session) {
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

    @SuppressWarnings("unchecked")
    private Started<S> started(ExtensionContext context) {
        return context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                .getOrComputeIfAbsent(getClass(), k -> Started.of(this::start, this::unavailable, this::stop, this::check, name), Started.class);
    }

    /** The started environment, or why there is none; closing it stops the environment. */
    private record Started<S>(S session, RuntimeException failure, Consumer<S> stopper, Consumer<S> checker, String name)
            implements AutoCloseable {

        static <S> Started<S> of(Supplier<S> start, java.util.function.Predicate<RuntimeException> unavailable, Consumer<S> stopper,
                Consumer<S> checker, String name) {
            try {
                return new Started<>(start.get(), null, stopper, checker, name);
            } catch (RuntimeException e) {
                if (unavailable.test(e)) {
                    return new Started<>(null, e, stopper, checker, name);
                }
                throw e;
            }
        }

        S sessionOrAbort() {
            if (session != null) {
                checker.accept(session);
                return session;
            }
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new AssertionError("CI=true and the " + name + " is unavailable: " + failure.getMessage(), failure);
            }
            System.out.println("[" + name + "] SKIPPED (CI is not true; with CI=true this fails the build): " + failure.getMessage());
            Assumptions.abort(name + " skipped (CI is not true): " + failure.getMessage());
            return null;
        }

        @Override
        public void close() {
            if (session != null) {
                stopper.accept(session);
            }
        }
    }
}
