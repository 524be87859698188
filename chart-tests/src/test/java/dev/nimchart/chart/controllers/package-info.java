/**
 * Releases reconciled by real controllers on fake GPU nodes: examples, lifecycle, upgrades, placement, Kueue, Pod
 * Security, an existing cluster.
 */
package dev.nimchart.chart.controllers;
