/**
 * Inference Gateway routing: the real endpoint pickers (GAIE's full and lightweight ones) choosing among a release's
 * pods, the test playing the gateway.
 */
package dev.nimchart.chart.routing;
