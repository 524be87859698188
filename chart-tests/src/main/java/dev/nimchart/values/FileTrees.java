package dev.nimchart.values;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The one way the harness removes a directory tree it made, and measures one. */
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

    /** The bytes of the regular files in a directory tree (symbolic links not followed). */
    public static long size(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            return paths.filter(p -> Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).sum();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
