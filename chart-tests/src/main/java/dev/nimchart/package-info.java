/**
 * The library's front door: {@code ChartCheck} (a chart, its values directories, the tiers to run), {@code
 * ChartRules} (a chart's own rules, opt-in), {@code Verdict}, {@code Tier}, and {@code CheckChart} behind
 * ci/check-chart.sh.
 */
package dev.nimchart;
