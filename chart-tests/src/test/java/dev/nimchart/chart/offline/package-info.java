/**
 * What the chart renders and refuses offline: every example and refusal file, its scripts, its rules, the fuzz
 * run.
 */
package dev.nimchart.chart.offline;
