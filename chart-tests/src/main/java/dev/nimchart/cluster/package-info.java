/**
 * The API-server tier's pieces: a test cluster (local control plane, K3s or an existing one), its API, CRDs, Helm
 * releases ({@code HelmReleases}, every verb taking a {@code Release}) and the checks of what it stored.
 */
package dev.nimchart.cluster;
