package dev.nimchart.tiers;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One tier of checks, as every tier implements it: {@link #start()} its environment, {@link #install(Path)} a values
 * file that must install, {@link #refuse(Path)} one that must be refused, and any {@link #ownChecks()} of its own
 * (the offline tier's fuzz run). Each check throws with the first reason the file fails. The door
 * ({@code dev.nimchart.ChartCheck}) knows no tier by name: it makes each registered tier's checks with the tier's
 * {@link TierFactory} and runs every tier the same way, so a new tier is three places:
 * <ol>
 *   <li>its {@code TierCheck} (in the library, a package of its own below {@code dev.nimchart.tiers}, e.g.
 *       {@code .offline}, {@code .apiserver}, {@code .controllers}, {@code .startup});</li>
 *   <li>its {@link Tier}: its name and whether it checks refusal files (the library's a constant of {@code Tier},
 *       a downstream user's {@link Tier#named(String, boolean)});</li>
 *   <li>its registration with its {@link TierFactory}: the library's one line in the door's registry
 *       ({@code dev.nimchart.TierRegistry}, whose order is the order the tiers run in and the command line's list), a
 *       downstream user's {@code ChartCheck.withTier(tier, factory)}.</li>
 * </ol>
 * A tier that needs an environment no tier starts yet (a process of its own) needs its lifecycle in
 * {@code dev.nimchart.sessions} and an accessor on {@code TierSessions} besides: that is a fourth place, and the
 * only one. The test {@code dev.nimchart.toytier.ToyTierTest} adds a toy tier in these three places and runs it through the door.
 */
public interface TierCheck {

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
        throw new UnsupportedOperationException(getClass().getSimpleName() + " checks only files that install "
                + "(its Tier says it checks no refusal file)");
    }

    /**
     * Whether the tier checks its files together: its first check runs {@link #installEach(List)} over every file (in
     * parallel, as the offline tier does) and each check then reports its own file. Otherwise each file is installed
     * by its own check (the cluster tiers).
     */
    default boolean checksFilesTogether() {
        return false;
    }

    /**
     * Checks of the tier's own besides one per values file, run after them (the offline tier: the fuzz run), each
     * throwing with the reason it fails, or {@code CheckSkipped} when it does not apply. Their names are subjects of
     * their own in the door's verdicts and tables.
     */
    default List<dev.nimchart.result.Check.Test> ownChecks() {
        return List.of();
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
