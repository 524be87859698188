package dev.nimchart.settings;

import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Where the tiers' programs come from when {@link Settings#binariesDir()} names no directory of them: a builder that
 * makes (or finds cached) what is asked for, printing progress as it goes: {@link BuildScripts}, a directory of build
 * scripts named by its manifest ({@link SettingsFromProperties} wires in the one of {@code -Dnim.ci.dir}), or a builder of
 * one's own ({@link Settings#withBinaryBuilder}); a downstream team may give a directory of the programs instead
 * ({@link Settings#withBinariesDir}). A method fails with
 * {@link ToolUnavailableException} naming what is missing and how to get it.
 */
public interface BinarySource {

    /** The directory holding etcd, kube-apiserver and kubectl of this Kubernetes version. */
    Path controlPlane(String version, Consumer<String> progress);

    /**
     * The controllers' directories by program (kube-controller-manager, kube-scheduler, kwok, lws, mpi-operator,
     * kueue), each holding the program and the data files of its version; kube-controller-manager and kube-scheduler
     * of this Kubernetes version (the API server's).
     */
    Map<String, Path> controllers(String kubeVersion, Consumer<String> progress);

    /** The executable of a tool: helm, kubeconform, kube-score, ct or registry. */
    Path tool(String name, Consumer<String> progress);

    /** The executable of a Python tool in an environment of its own: checkov, yamllint or yamale. */
    Path pythonTool(String name, Consumer<String> progress);

    /** Fills this directory (which does not exist yet) with the pinned CRDs the cluster tiers install. */
    void crds(Path dir, Consumer<String> progress);

    /** Installs what the start-up tier needs of the machine (sshd, Open MPI, iproute2) when missing. */
    void startupTools(Consumer<String> progress);

    /** Installs Ray into this directory (a virtual environment) when missing. */
    void ray(Path dir, Consumer<String> progress);

    /** Installs what the start-up tier's model proxy needs of the machine (tinyproxy, openssl) when missing. */
    void modelProxyTools(Consumer<String> progress);

    /**
     * The directory of the NetworkPolicy enforcer the start-up tier runs on its pod network (its
     * {@code kube-network-policies} and the {@code crds/} it needs), with what it needs of the machine (socat, nft)
     * installed. None by default: a builder that has one says so.
     */
    default Path networkPolicyEnforcer(Consumer<String> progress) {
        throw new ToolUnavailableException("no NetworkPolicy enforcer: this binary source builds none; give"
                + " Settings a binary source that does (Settings.withBinaryBuilder) or a binaries directory that holds one");
    }
}
