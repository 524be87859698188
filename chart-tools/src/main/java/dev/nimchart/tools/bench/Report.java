package dev.nimchart.tools.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The benchmark's report: Markdown for people (printed as it grows) and tab-separated figures for tools. */
final class Report {

    private final StringBuilder markdown = new StringBuilder();
    private final List<Figures.Figure> figures = new ArrayList<>();

    void line(String text) {
        markdown.append(text).append('\n');
        System.out.println(text);
        System.out.flush();
    }

    /** One machine-readable figure. */
    void figure(String section, String measure, double value, String unit) {
        figures.add(Figures.today(section, measure, value, unit));
    }

    /** The figures so far. */
    Figures figures() {
        return new Figures(List.copyOf(figures));
    }

    void write(Path dir) {
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("report.md"), markdown);
            new Figures(figures).write(dir.resolve("figures.tsv"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Records this run's figures in the repository (benchmarks/figures.tsv: each section this run measured replaces
     * the recorded one) and regenerates the README's measured table from that record.
     */
    void record(Path repoRoot) {
        try {
            Path record = repoRoot.resolve("benchmarks").resolve("figures.tsv");
            Figures updated = (Files.isRegularFile(record) ? Figures.read(record) : new Figures(List.of()))
                    .updatedWith(new Figures(figures));
            updated.write(record);
            Path readme = repoRoot.resolve("docs").resolve("benchmarks.md");
            Files.writeString(readme, ReadmeFigures.updatedReadme(Files.readString(readme), updated));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
