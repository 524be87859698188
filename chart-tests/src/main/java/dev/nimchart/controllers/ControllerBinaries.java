package dev.nimchart.controllers;

import dev.nimchart.cluster.BinaryAssets;
import dev.nimchart.settings.BinarySource;
import dev.nimchart.settings.Settings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Where the tier's binaries are: etcd, kube-apiserver, the controllers and kwok (with the data files of their module
 * versions), from the {@link BinaryAssets} of the settings. This repository's builder (its ci/ scripts) builds what is
 * missing from pinned Go modules (minutes on a fresh machine, progress passed on) and is instant when cached.
 */
public final class ControllerBinaries {

    /** The programs besides etcd and kube-apiserver, each in a directory of its own with the data files of its version. */
    static final List<String> CONTROLLERS = BinaryAssets.CONTROLLERS;

    private final Path controlPlane;
    private final Map<String, Path> dirs;

    private ControllerBinaries(Path controlPlane, Map<String, Path> dirs) {
        this.controlPlane = controlPlane;
        this.dirs = dirs;
    }

    /** Every program of the tier, executable, from the settings' binaries directory when given, else from their builder (this repository's ci/ scripts). */
    public static ControllerBinaries ensureBuilt(Settings settings, Consumer<String> progress) {
        BinarySource source = BinaryAssets.of(settings);
        if (source instanceof BinaryAssets dir) {
            progress.accept("binaries from " + dir.dir() + " (-Dnim.binaries.dir)");
            return fromDirectory(dir.dir());
        }
        String version = settings.kubeVersion();
        progress.accept("control plane " + version + ": checking the binaries (a fresh machine builds them from Go modules)");
        Path controlPlane = source.controlPlane(version, line -> progress.accept("  " + line));
        progress.accept("controllers (Kubernetes " + version + "): checking the binaries (a fresh machine builds them from Go modules)");
        Map<String, Path> dirs = new HashMap<>(source.controllers(version, line -> progress.accept("  " + line)));
        ControllerBinaries binaries = new ControllerBinaries(controlPlane, dirs);
        for (String name : List.of("etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok", "lws", "mpi-operator")) {
            if (!Files.isExecutable(binaries.binary(name))) {
                throw new ControllerTierException("no executable " + binaries.binary(name) + " after building the tier's programs with " + source);
            }
        }
        return binaries;
    }

    /** The programs of a binaries directory ({@link BinaryAssets}); a missing one fails naming it. */
    public static ControllerBinaries fromDirectory(Path dir) {
        Map<String, Path> dirs = new HashMap<>();
        for (String name : CONTROLLERS) {
            dirs.put(name, BinaryAssets.require(dir, name + "/" + name).getParent());
        }
        Path controlPlane = BinaryAssets.require(dir, "control-plane/kube-apiserver").getParent();
        BinaryAssets.require(dir, "control-plane/etcd");
        return new ControllerBinaries(controlPlane, dirs);
    }

    /** The executable of etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kwok, lws or mpi-operator. */
    public Path binary(String name) {
        return home(name).resolve(name);
    }

    /** The directory of a binary, which also holds the data files of its module version (kwok stages, LWS webhooks). */
    public Path home(String name) {
        if (name.equals("etcd") || name.equals("kube-apiserver")) {
            return controlPlane;
        }
        Path dir = dirs.get(name);
        if (dir == null) {
            throw new ControllerTierException("the binary source gave no directory for " + name
                    + ": its controllers(...) must name one per controller (LeaderWorkerSet, mpi-operator, kwok, Kueue)");
        }
        return dir;
    }
}
