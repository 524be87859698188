/**
 * Helm rendering and its refusals: {@code Release} (the one value of a release every tier renders and installs),
 * {@code ChartRenderer} (helm-java), the chart's layout, the lookup stub, refusal messages.
 */
package dev.nimchart.render;
