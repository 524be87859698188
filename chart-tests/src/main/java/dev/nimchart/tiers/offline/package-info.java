/**
 * The offline tier as a {@code TierCheck}: the one judge of a values file with the chart's rules, no cluster.
 */
package dev.nimchart.tiers.offline;
