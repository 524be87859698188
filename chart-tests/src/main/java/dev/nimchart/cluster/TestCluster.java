package dev.nimchart.cluster;

import java.time.Duration;

/** A running Kubernetes API server the cluster tier installs into; closing it tears it down. */
public interface TestCluster extends AutoCloseable {

    /** A kubeconfig with cluster-admin rights, as YAML. */
    String kubeConfigYaml();

    /** What runs, for reports: "local control plane (kube-apiserver v1.34.10, etcd)" or "K3s rancher/k3s:...". */
    String description();

    /** From asking for the cluster to its API server answering, binaries and images already at hand. */
    Duration startTime();

    @Override
    void close();

    /** Whether the harness may create cluster-scoped objects (CRDs, StorageClasses, volumes, classes) on it. */
    default boolean clusterScopedWrites() {
        return true;
    }

    /** Whether the harness started this cluster (and may restart or stop it). */
    default boolean startedByHarness() {
        return true;
    }

    /** The certificate authority the cluster's API server serves with, when the tier made it (the local control plane). */
    default java.util.Optional<Pki> pki() {
        return java.util.Optional.empty();
    }
}
