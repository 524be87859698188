/**
 * Inference Gateway routing: the real endpoint picker choosing among a release's pods, the test playing the
 * gateway.
 */
package dev.nimchart.chart.routing;
