/**
 * The library's front door: {@code ChartCheck} (an immutable value: a chart, its values directories, its options and
 * the tiers to run), {@code TierRegistry} (the one list of tiers, each with the factory that makes its checks), {@code TierRun} (one tier
 * run on the values files the same way for every tier, as checks or verdicts),
 * {@code EnvironmentHolder} (the tiers' environments a check and its copies share), {@code Verdict}, and
 * {@code CheckChart} behind ci/check-chart.sh. What a tier is and a chart's own rules on the tiers ({@code Tier},
 * {@code TierCheck}, {@code TierFactory}, {@code CheckOptions}, {@code ChartRules}) are in {@code dev.nimchart.tiers},
 * below the door.
 */
package dev.nimchart;
