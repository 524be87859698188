package dev.nimchart.tiers;

import dev.nimchart.sessions.TierSessions;
import java.util.function.Supplier;

/**
 * How a tier's checks are made for one check of a chart: from the door's options (the chart, its rules, the settings,
 * the reconcile timeout...) and, for a tier that needs one, the environments of the cluster tiers (asked for only when
 * the tier needs them; made by their owner on first use). A tier is registered with its factory: the library's in the
 * door's registry, a downstream user's own with {@code ChartCheck.withTier(tier, factory)}.
 */
@FunctionalInterface
public interface TierFactory {

    TierCheck make(CheckOptions options, Supplier<TierSessions> sessions);
}
