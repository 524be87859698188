package dev.nimchart.values;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Where the chart and the values files are: the system properties Maven passes ({@value #CHART_DIR},
 * {@value #EXAMPLES_DIR}, {@value #VALUES_DIRS}), else the repository found by walking up from the working
 * directory to the one holding charts/nim-llm. Also the one way the harness removes a directory tree it made.
 */
public final class HarnessPaths {

    public static final String CHART_DIR = "nim.chart.dir";
    public static final String EXAMPLES_DIR = "nim.examples.dir";
    /** Extra directories of values files, separated by commas or the platform's path separator. */
    public static final String VALUES_DIRS = "nim.values.dirs";

    private static final Path CHART_IN_REPO = Path.of("charts", "nim-llm");
    private static final Pattern LIST_SEPARATOR = Pattern.compile("[," + Pattern.quote(File.pathSeparator) + "]");

    private final UnaryOperator<String> properties;
    private final Path workingDir;

    HarnessPaths(UnaryOperator<String> properties, Path workingDir) {
        this.properties = properties;
        this.workingDir = workingDir.toAbsolutePath();
    }

    /** Paths from this JVM's system properties, relative ones against {@link #userPath}'s directory. */
    public static HarnessPaths fromSystemProperties() {
        return new HarnessPaths(System::getProperty, userPath(""));
    }

    /**
     * A path a user gave in a system property: a relative one is relative to the Maven module the tests run in (the
     * {@code basedir} property Surefire and Failsafe set), where the user typed it, not to a forked JVM's working
     * directory; outside Maven, to the working directory.
     */
    public static Path userPath(String path) {
        String basedir = System.getProperty("basedir", "").strip();
        return (basedir.isEmpty() ? Path.of("") : Path.of(basedir)).toAbsolutePath().resolve(path).normalize();
    }

    /**
     * Deletes a directory the harness made and everything in it (nothing when it does not exist); fails on the first
     * file it cannot delete.
     */
    public static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    public Path chartDir() {
        return property(CHART_DIR).map(this::resolve).orElseGet(() -> repoRoot().resolve(CHART_IN_REPO));
    }

    public Path examplesDir() {
        return property(EXAMPLES_DIR).map(this::resolve).orElseGet(() -> repoRoot().resolve("values-examples"));
    }

    /** The extra values directories a downstream team passes with -Dnim.values.dirs=...; empty by default. */
    public List<Path> extraValuesDirs() {
        return property(VALUES_DIRS).stream()
                .flatMap(LIST_SEPARATOR::splitAsStream)
                .map(String::strip)
                .filter(dir -> !dir.isEmpty())
                .map(this::resolve)
                .toList();
    }

    private Optional<String> property(String name) {
        return Optional.ofNullable(properties.apply(name)).map(String::strip).filter(value -> !value.isEmpty());
    }

    private Path resolve(String path) {
        return workingDir.resolve(path).normalize();
    }

    private Path repoRoot() {
        for (Path dir = workingDir; dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve(CHART_IN_REPO))) {
                return dir;
            }
        }
        throw new IllegalStateException("no directory at or above " + workingDir + " holds " + CHART_IN_REPO
                + "; set -D" + CHART_DIR + " and -D" + EXAMPLES_DIR);
    }
}
