/**
 * The start-up tier's pieces: a pod's own processes run as the kubelet and runtime would run them (users, mounts,
 * network namespaces, probes), and the GPU check.
 */
package dev.nimchart.startup;
