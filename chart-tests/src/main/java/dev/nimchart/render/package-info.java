/**
 * Helm rendering and its refusals: {@code ChartRenderer} (helm-java), the chart's layout, the lookup stub, refusal
 * messages.
 */
package dev.nimchart.render;
