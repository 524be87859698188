package dev.nimchart.tiers;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One tier of checks, as every tier implements it: {@link #start()} its environment, {@link #install(Path)} a values
 * file that must install, {@link #refuse(Path)} one that must be refused. Each check throws with the first reason the
 * file fails. One implementation per tier, each in its own package ({@code dev.nimchart.tiers.offline},
 * {@code .apiserver}, {@code .controllers}, {@code .startup}); {@link dev.nimchart.ChartCheck} makes them
 * ({@link dev.nimchart.ChartCheck#tierCheck(Tier)}) and loops over {@link Tier#values()}, and so does the command behind
 * {@code ci/check-chart.sh}. A new tier is a {@link Tier} constant, its class, and its line in
 * {@link dev.nimchart.ChartCheck#tierCheck(Tier)}.
 */
public interface TierCheck {

    Tier tier();

    /**
     * Starts the tier's environment (or finds it started: environments belong to their owner, a {@code ChartCheck}, the
     * command line or JUnit's launcher-session store, never to a tier check). Throws {@code dev.nimchart.sessions.TierNotStartedException}
     * when it cannot, skippable when this machine cannot run the tier.
     */
    void start();

    /** Whether this tier checks this values file that must install (the start-up tier: the files the chart's rules opt in). */
    default boolean installs(Path valuesFile) {
        return true;
    }

    /** A values file that must install: throws with the first reason it does not. */
    void install(Path valuesFile);

    /**
     * A values file that must be refused ({@code invalid/}): throws with the first reason it is not. Only tiers whose
     * {@link Tier#checksRefusals()} is true check refusals.
     */
    default void refuse(Path valuesFile) {
        throw new UnsupportedOperationException("the " + tier().label() + " tier checks only files that install; refusals are "
                + "the offline and API-server tiers'");
    }

    /** {@link #install(Path)} of each file, one after the other: each file's failure, if any. */
    default Map<Path, Optional<Throwable>> installEach(List<Path> files) {
        Map<Path, Optional<Throwable>> out = new LinkedHashMap<>();
        for (Path f : files) {
            out.put(f, RefusalChecksInParallel.failureOf(() -> install(f)));
        }
        return out;
    }

    /** {@link #refuse(Path)} of each file, in parallel (one per core): each file's failure, if any. */
    default Map<Path, Optional<Throwable>> refuseEach(List<Path> files) {
        return RefusalChecksInParallel.run(files, this::refuse);
    }
}
