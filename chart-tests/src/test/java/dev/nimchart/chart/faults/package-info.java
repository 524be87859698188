/**
 * The fault suite: what the release does when a process, a node or the control plane fails.
 */
package dev.nimchart.chart.faults;
