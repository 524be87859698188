package dev.nimchart.junit;

import dev.nimchart.cluster.ClusterSession;
import dev.nimchart.junit.ControllerTier.ControllerSession;
import dev.nimchart.junit.SharedTier.Started;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Where the cluster tiers' environments come from, each started on its first call: JUnit's launcher-session store
 * ({@link #of(ExtensionContext)}, one environment per tier per test JVM, closed by JUnit), or an owner that closes what
 * it started ({@link OwnedTierSessions}: a {@code ChartCheck}'s own, the command line's, or one on an existing cluster).
 */
public interface TierSessions {

    /** The API-server tier's cluster, or why there is none. */
    Started<ClusterSession> apiServer();

    /** The controller tier's environment (the start-up tier runs on it too), or why there is none. */
    Started<ControllerSession> controllers();

    /** The environments of this JUnit run, kept in its launcher session's store and shared with {@code @ExtendWith(ClusterTier.class)} classes. */
    static TierSessions of(ExtensionContext context) {
        return new TierSessions() {
            @Override
            public Started<ClusterSession> apiServer() {
                return new ClusterTier().started(context);
            }

            @Override
            public Started<ControllerSession> controllers() {
                return new ControllerTier().started(context);
            }
        };
    }
}
