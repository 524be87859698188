/**
 * The API-server tier as a {@code TierCheck}: strict dry run, {@code helm install}, read back, refusals by {@code helm install}.
 */
package dev.nimchart.tiers.apiserver;
