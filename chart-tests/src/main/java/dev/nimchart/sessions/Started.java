package dev.nimchart.sessions;

import java.util.Optional;

/**
 * A tier's started environment, or why there is none: what its owner holds and closes ({@link OwnedTierSessions} in
 * {@link OwnedTierSessions#close()}; JUnit's launcher-session store closes it as an {@link AutoCloseable} value).
 */
public final class Started<S> implements AutoCloseable {
    private final TierLifecycle<S> tier;
    private S session;
    private final RuntimeException failure;

    private Started(TierLifecycle<S> tier, S session, RuntimeException failure) {
        this.tier = tier;
        this.session = session;
        this.failure = failure;
    }

    static <S> Started<S> of(TierLifecycle<S> tier) {
        try {
            return new Started<>(tier, tier.start(), null);
        } catch (RuntimeException e) {
            if (tier.unavailable(e)) {
                return new Started<>(tier, null, e);
            }
            return new Started<>(tier, null, new IllegalStateException("the " + tier.name() + " failed to start: " + e, e));
        }
    }

    /** The session when the tier runs (checked alive), else empty with {@link #failure()} saying why. */
    public synchronized Optional<S> session() {
        if (session != null) {
            tier.check(session);
        }
        return Optional.ofNullable(session);
    }

    /** The session (checked alive), or a {@link TierNotStartedException} saying why there is none. */
    public S sessionOrThrow() {
        return session().orElseThrow(() -> new TierNotStartedException(tier.name(), failure, tier.unavailable(failure),
                tier.settings().ci(), tier.progress()));
    }

    public String failure() {
        return failure == null ? null : failure.getMessage();
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
