/**
 * Policy engines (kube-score and checkov, the project's pinned builds) on what the valid values render, pods
 * inside custom resources unwrapped first.
 */
package dev.nimchart.lint;
