/**
 * The chart against the real validators, both ways: the differential fuzz and the refusal corpus.
 */
package dev.nimchart.chart.agreement;
