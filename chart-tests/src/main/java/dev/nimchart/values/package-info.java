/**
 * Values files and the chart they are for: the chart and its subcharts, Helm's merge, the values schema and its
 * independent validator.
 */
package dev.nimchart.values;
