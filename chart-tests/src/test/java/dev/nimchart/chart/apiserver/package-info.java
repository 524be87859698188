/**
 * Installs into a real kube-apiserver.
 */
package dev.nimchart.chart.apiserver;
