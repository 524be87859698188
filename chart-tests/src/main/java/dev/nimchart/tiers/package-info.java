/**
 * What a tier is, for the door and for every tier alike: {@code Tier} (a tier's name and whether it checks refusal
 * files; the library's four, and any of a caller's own), {@code TierCheck} (the one interface every tier implements:
 * start, install, refuse, its own checks), {@code TierFactory} (how a tier's checks are made), {@code CheckOptions} (the
 * door's options, one value every tier is made from), {@code ChartRules} (a chart's own rules on the tiers, opt-in) and
 * {@code RefusalChecksInParallel}. One implementation per tier in the packages below ({@code offline},
 * {@code apiserver}, {@code controllers}, {@code startup}); the door's registry makes them. Nothing here imports the
 * door, so the tiers sit below it.
 */
package dev.nimchart.tiers;
