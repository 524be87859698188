package dev.nimchart.cluster;

import dev.nimchart.values.HarnessPaths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The tiers' binaries taken from a directory given with {@code -Dnim.binaries.dir=DIR} (as envtest takes its binary
 * assets), instead of built or found by this repository's ci/ scripts. The layout is one directory per program:
 * {@code DIR/control-plane/{etcd,kube-apiserver,kubectl}}, {@code DIR/<controller>/<controller>} with the data files
 * of its version beside it (kube-controller-manager, kube-scheduler, kwok, lws, mpi-operator, kueue), {@code
 * DIR/<tool>/<tool>} (helm, kube-score, ct, registry, kubeconform) and {@code DIR/<python tool>/bin/<tool>} (checkov,
 * yamllint, yamale). {@code ci/binaries.sh DIR} builds everything and links it there. Read when asked, never when a
 * class loads.
 */
public final class BinaryAssets {

    public static final String PROPERTY = "nim.binaries.dir";

    private BinaryAssets() {
    }

    /** The directory of {@code -Dnim.binaries.dir}, when given. */
    public static Optional<Path> dir() {
        String value = System.getProperty(PROPERTY, "").trim();
        return value.isEmpty() ? Optional.empty() : Optional.of(HarnessPaths.userPath(value));
    }

    /** The executable {@code relative} under the directory, or a failure naming it and the script that makes it. */
    public static Path require(Path dir, String relative) {
        Path file = dir.resolve(relative);
        if (!Files.isExecutable(file)) {
            throw new ClusterUnavailableException("no executable " + file + " in the binaries directory (-D" + PROPERTY + "=" + dir
                    + "): run ci/binaries.sh " + dir + " from the nim-llm chart repository, which builds the pinned versions and"
                    + " links them there");
        }
        return file;
    }
}
