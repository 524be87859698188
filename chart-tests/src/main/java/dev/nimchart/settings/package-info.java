/**
 * What the tiers are configured with: one immutable {@code Settings} value, the {@code BinarySource} of their
 * programs (a directory of them, or {@code BuildScripts}, a directory of build scripts named by its manifest), and
 * {@code SettingsFromProperties}, the one class that reads system properties and environment variables (and this
 * machine's cache paths).
 */
package dev.nimchart.settings;
