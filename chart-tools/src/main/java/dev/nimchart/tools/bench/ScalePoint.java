package dev.nimchart.tools.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * One point of the scale sweep: a seed example (LeaderWorkerSet or MPIJob) with {@code multiNode.workers} and
 * {@code replicaCount} overridden by a small values file layered on top.
 */
record ScalePoint(String backend, Path seed, int workers, int replicas) {

    String release() {
        return "scale-" + backend + "-w" + workers + "-r" + replicas;
    }

    /** The seed and the overlay, in the order Helm merges them; the overlay is written under dir. */
    List<Path> valuesFiles(Path dir) {
        Path overlay = dir.resolve(release() + ".yaml");
        try {
            Files.createDirectories(dir);
            Files.writeString(overlay, "replicaCount: " + replicas + "\nmultiNode:\n  workers: " + workers + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return List.of(seed, overlay);
    }
}
