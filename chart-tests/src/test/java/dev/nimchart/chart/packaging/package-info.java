/**
 * The chart as a package: metadata, helm package and signing, the OCI registry, chart-testing and the policy
 * engines.
 */
package dev.nimchart.chart.packaging;
