package dev.nimchart.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The benchmark's report: Markdown for people (printed as it grows) and tab-separated figures for tools. */
final class Report {

    private final StringBuilder markdown = new StringBuilder();
    private final StringBuilder figures = new StringBuilder("section\tmeasure\tvalue\tunit\n");

    void line(String text) {
        markdown.append(text).append('\n');
        System.out.println(text);
        System.out.flush();
    }

    /** One machine-readable figure. */
    void figure(String section, String measure, double value, String unit) {
        figures.append(section).append('\t').append(measure).append('\t').append(value).append('\t').append(unit).append('\n');
    }

    void write(Path dir) {
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("report.md"), markdown);
            Files.writeString(dir.resolve("figures.tsv"), figures);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
