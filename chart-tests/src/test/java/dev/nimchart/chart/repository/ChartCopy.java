package dev.nimchart.chart.repository;

import dev.nimchart.values.FileTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Predicate;

/**
 * A copy of the chart under target/, for tests that must change one file of it (render NOTES or the test hook as an
 * ordinary template, drop the schema) and leave the chart itself alone.
 */
public final class ChartCopy {

    private ChartCopy() {
    }

    /** Copies the chart into a new directory named with this prefix, leaving out the files {@code skip} accepts. */
    public static Path of(Path chart, String prefix, Predicate<Path> skip) {
        try {
            Path copy = Files.createTempDirectory(Files.createDirectories(Path.of("target")), prefix);
            FileTrees.copy(chart, copy, skip);
            return copy;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy the chart " + chart, e);
        }
    }
}
