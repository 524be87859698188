/**
 * The tiers' environments and their owners, knowing no test framework: each tier's lifecycle (start, check alive,
 * stop: {@code ClusterTierLifecycle}, {@code ControllerTierLifecycle}, on the one start of {@code TimedTierLifecycle}),
 * the {@code TierSessions} the tiers see, the sessions a ChartCheck or the command line owns and closes
 * ({@code OwnedTierSessions}), the tiers' namespaces, timings and the record of starts.
 */
package dev.nimchart.sessions;
