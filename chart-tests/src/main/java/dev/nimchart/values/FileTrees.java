package dev.nimchart.values;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The one way the harness removes, empties, copies and measures a directory tree. */
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
                Files.deleteIfExists(p); // one its own process removed while the tree was walked is gone all the same
            }
        }
    }

    /** Makes {@code dir} an empty directory: what an earlier run left there is deleted. */
    public static void empty(Path dir) {
        try {
            delete(dir);
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot empty " + dir, e);
        }
    }

    /** Copies the tree {@code from} to {@code to} (made if missing), leaving out the files {@code skip} accepts. */
    public static void copy(Path from, Path to, java.util.function.Predicate<Path> skip) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path source : files.sorted(Comparator.naturalOrder()).toList()) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else if (!skip.test(source)) {
                    Files.copy(source, target);
                }
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
