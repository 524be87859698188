/**
 * What the tiers are configured with: one immutable {@code Settings} value, the {@code BinarySource} of their
 * programs, and {@code SettingsFromProperties}, the one class that reads system properties and environment variables
 * (and knows this repository's ci/ scripts and machine paths).
 */
package dev.nimchart.settings;
