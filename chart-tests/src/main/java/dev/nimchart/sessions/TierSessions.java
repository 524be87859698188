package dev.nimchart.sessions;

import dev.nimchart.cluster.ClusterSession;

/**
 * Where the cluster tiers' environments come from, each started on its first call: an owner that closes what it
 * started ({@link OwnedTierSessions}: a {@code ChartCheck}'s own, the command line's, or one on an existing cluster), or
 * JUnit's launcher-session store ({@code dev.nimchart.junit.ChartTiers.sessions(context)}, one environment per tier per
 * test JVM, closed by JUnit). The tiers ({@code dev.nimchart.tiers.*}) see only this interface.
 */
public interface TierSessions {

    /** The API-server tier's cluster, or why there is none. */
    Started<ClusterSession> apiServer();

    /** The controller tier's environment (the start-up tier runs on it too), or why there is none. */
    Started<ControllerSession> controllers();
}
