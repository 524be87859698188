/**
 * The start-up tier as a {@code TierCheck}: reconciled, then the pods' processes started on this machine (native, MPI, Ray).
 */
package dev.nimchart.tiers.startup;
