/**
 * The library's front door: {@code ChartCheck} (a chart, its values directories, the tiers to run), {@code Verdict},
 * and {@code CheckChart} behind ci/check-chart.sh. What a tier is and a chart's own rules on the tiers
 * ({@code Tier}, {@code TierCheck}, {@code ChartRules}) are in {@code dev.nimchart.tiers}, below the door.
 */
package dev.nimchart;
