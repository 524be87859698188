/**
 * This repository's commands on the library: {@code ci/show-example.sh}'s two (a values file rendered, or installed
 * and reconciled on the controller tier, and printed for a person) and {@code ci/local-cluster.sh}'s cluster that
 * stays up; each a {@code main} that reads the settings from system properties once and uses the library's public API.
 */
package dev.nimchart.tools.commands;
