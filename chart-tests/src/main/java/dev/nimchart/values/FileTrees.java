package dev.nimchart.values;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The one way the harness removes a directory tree it made. */
public final class FileTrees {

    private FileTrees() {
    }

    /**
     * Deletes a directory the harness made and everything in it (nothing when it does not exist); fails on the first
     * file it cannot delete.
     */
    public static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
