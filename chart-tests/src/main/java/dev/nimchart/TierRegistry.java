package dev.nimchart;

import dev.nimchart.sessions.TierSessions;
import dev.nimchart.tiers.CheckOptions;
import dev.nimchart.tiers.Tier;
import dev.nimchart.tiers.TierCheck;
import dev.nimchart.tiers.TierFactory;
import dev.nimchart.tiers.apiserver.ApiServerChecks;
import dev.nimchart.tiers.controllers.ControllerChecks;
import dev.nimchart.tiers.offline.OfflineChecks;
import dev.nimchart.tiers.startup.StartupChecks;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;

/**
 * The tiers a {@link ChartCheck} knows, in the order they run (cheapest first), each with the {@link TierFactory}
 * that makes its checks: the one place a tier is registered. {@link #LIBRARY} holds the library's four, one line
 * each; {@link ChartCheck#withTier(Tier, TierFactory)} adds a tier of the caller's own after them. Immutable.
 */
final class TierRegistry {

    /** A tier and how its checks are made. */
    record Registered(Tier tier, TierFactory factory) {
    }

    /** The library's tiers, cheapest first: what {@code ci/check-chart.sh} offers and {@code all} runs. */
    static final TierRegistry LIBRARY = new TierRegistry(List.of(
            new Registered(Tier.OFFLINE, (options, sessions) -> new OfflineChecks(options)),
            new Registered(Tier.API, (options, sessions) -> new ApiServerChecks(options, sessions.get())),
            new Registered(Tier.CONTROLLERS, (options, sessions) -> new ControllerChecks(options, sessions.get())),
            new Registered(Tier.STARTUP, (options, sessions) -> new StartupChecks(options, sessions.get()))));

    private final List<Registered> registered;

    private TierRegistry(List<Registered> registered) {
        this.registered = List.copyOf(registered);
    }

    /** These tiers and this one after them; refused when a tier of that name is registered already. */
    TierRegistry with(Tier tier, TierFactory factory) {
        if (registered.stream().anyMatch(r -> r.tier().label().equals(tier.label()))) {
            throw new IllegalArgumentException("a tier named '" + tier.label() + "' is registered already: " + labels());
        }
        List<Registered> more = new ArrayList<>(registered);
        more.add(new Registered(tier, java.util.Objects.requireNonNull(factory, "factory")));
        return new TierRegistry(more);
    }

    /** The tiers, in the order they run. */
    List<Tier> tiers() {
        return registered.stream().map(Registered::tier).toList();
    }

    /** The tier of this name; refused, naming every tier, when there is none. */
    Tier named(String label) {
        return registered.stream().map(Registered::tier).filter(t -> t.label().equals(label.strip())).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown tier '" + label + "': " + labels() + " or all"));
    }

    /** These tiers, each once, in the order they run. */
    List<Tier> inOrder(Collection<Tier> tiers) {
        return tiers.stream().distinct().sorted(Comparator.comparingInt(this::index)).toList();
    }

    /** The tier's checks, made by its factory. */
    TierCheck make(Tier tier, CheckOptions options, Supplier<TierSessions> sessions) {
        return registered.get(index(tier)).factory().make(options, sessions);
    }

    /** The names, comma separated: offline, api, controllers, startup. */
    String labels() {
        return String.join(", ", tiers().stream().map(Tier::label).toList());
    }

    private int index(Tier tier) {
        for (int i = 0; i < registered.size(); i++) {
            if (registered.get(i).tier() == tier) {
                return i;
            }
        }
        throw new IllegalArgumentException("the tier '" + tier.label() + "' is not registered on this check (ChartCheck.withTier): "
                + labels());
    }
}
