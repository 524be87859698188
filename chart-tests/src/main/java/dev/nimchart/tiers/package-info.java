/**
 * What a tier is, for the door and for every tier alike: {@code Tier} (the tiers, cheapest first), {@code TierCheck}
 * (the one interface every tier implements: start, install, refuse), {@code ChartRules} (a chart's own rules on the
 * tiers, opt-in) and {@code RefusalChecksInParallel}. One implementation per tier in the packages below
 * ({@code offline}, {@code apiserver}, {@code controllers}, {@code startup}); {@code dev.nimchart.ChartCheck} makes
 * them. Nothing here imports the door, so the tiers sit below it.
 */
package dev.nimchart.tiers;
