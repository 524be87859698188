package dev.nimchart.controllers;

import dev.nimchart.cluster.CiScript;
import dev.nimchart.cluster.LocalControlPlane;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Where the tier's binaries are: etcd and kube-apiserver from ci/build-control-plane.sh, the controllers and kwok
 * (with the data files of their module versions) from ci/build-controllers.sh. Both scripts build what is missing
 * from pinned Go modules (minutes on a fresh machine, progress passed on) and are instant when cached.
 */
public final class ControllerBinaries {

    /** The programs besides etcd and kube-apiserver, each in a directory of its own with the data files of its version. */
    static final List<String> CONTROLLERS = List.of("kube-controller-manager", "kube-scheduler", "kwok", "lws", "mpi-operator", "kueue");

    private final Path controlPlane;
    private final Map<String, Path> dirs;

    private ControllerBinaries(Path controlPlane, Map<String, Path> dirs) {
        this.controlPlane = controlPlane;
        this.dirs = dirs;
    }

    /** Every program of the tier, executable, from {@code -Dnim.binaries.dir} when given, else built or found by the ci/ scripts. */
    public static ControllerBinaries ensureBuilt(Consumer<String> progress) {
        if (dev.nimchart.cluster.BinaryAssets.dir().isPresent()) {
            Path dir = dev.nimchart.cluster.BinaryAssets.dir().get();
            progress.accept("binaries from " + dir + " (-D" + dev.nimchart.cluster.BinaryAssets.PROPERTY + ")");
            return fromDirectory(dir);
        }
        String version = LocalControlPlane.version();
        progress.accept("control plane " + version + ": checking the binaries (a fresh machine builds them from Go modules)");
        CiScript.run("build-control-plane.sh", List.of(version), line -> progress.accept("  " + line));
        Path controlPlane = LocalControlPlane.binaryDir(version);
        progress.accept("controllers: checking the binaries (a fresh machine builds them from Go modules)");
        String out = CiScript.run("build-controllers.sh", List.of("--print-dirs"), line -> progress.accept("  " + line));
        Map<String, Path> dirs = new HashMap<>();
        out.lines().map(String::strip).filter(l -> l.matches("\\S+ /\\S.*")).forEach(l -> {
            String[] parts = l.split(" ", 2);
            dirs.put(parts[0], Path.of(parts[1]));
        });
        ControllerBinaries binaries = new ControllerBinaries(controlPlane, dirs);
        for (String name : List.of("etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok", "lws", "mpi-operator")) {
            if (!Files.isExecutable(binaries.binary(name))) {
                throw new ControllerTierException("no executable " + binaries.binary(name) + " after ci/build-controllers.sh and ci/build-control-plane.sh");
            }
        }
        return binaries;
    }

    /** The programs of a binaries directory ({@link dev.nimchart.cluster.BinaryAssets}); a missing one fails naming it. */
    public static ControllerBinaries fromDirectory(Path dir) {
        Map<String, Path> dirs = new HashMap<>();
        for (String name : CONTROLLERS) {
            dirs.put(name, dev.nimchart.cluster.BinaryAssets.require(dir, name + "/" + name).getParent());
        }
        Path controlPlane = dev.nimchart.cluster.BinaryAssets.require(dir, "control-plane/kube-apiserver").getParent();
        dev.nimchart.cluster.BinaryAssets.require(dir, "control-plane/etcd");
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
            throw new ControllerTierException("ci/build-controllers.sh reported no directory for " + name);
        }
        return dir;
    }
}
