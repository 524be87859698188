/**
 * The API-server tier's pieces: a test cluster (local control plane, K3s or an existing one), its API, CRDs, Helm
 * releases and the checks of what it stored.
 */
package dev.nimchart.cluster;
