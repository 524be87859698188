package dev.nimchart.tools.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The benchmark's figures as a tab-separated table (section, measure, value, unit, the day it was measured): what one
 * run wrote to target/benchmark/figures.tsv, and the repository's record of the last figure of every kind
 * (benchmarks/figures.tsv), which the README's measured table is generated from.
 */
public record Figures(List<Figure> rows) {

    static final String HEADER = "section\tmeasure\tvalue\tunit\tmeasured";

    /** One measured figure. */
    public record Figure(String section, String measure, double value, String unit, String measured) {

        boolean matches(String sectionWanted, String measureGlob) {
            return section.equals(sectionWanted) && glob(measureGlob).matcher(measure).matches();
        }
    }

    public static Figures read(Path file) throws IOException {
        List<Figure> rows = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            if (line.isBlank() || line.equals(HEADER)) {
                continue;
            }
            String[] f = line.split("\t", -1);
            if (f.length != 5) {
                throw new IOException(file + ": expected 5 tab-separated fields in: " + line);
            }
            rows.add(new Figure(f[0], f[1], Double.parseDouble(f[2]), f[3], f[4]));
        }
        return new Figures(List.copyOf(rows));
    }

    public void write(Path file) throws IOException {
        StringBuilder out = new StringBuilder(HEADER).append('\n');
        for (Figure f : rows) {
            out.append(String.join("\t", f.section(), f.measure(), Double.toString(f.value()), f.unit(), f.measured()))
                    .append('\n');
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, out);
    }

    /** A figure measured today. */
    static Figure today(String section, String measure, double value, String unit) {
        return new Figure(section, measure, value, unit, LocalDate.now().toString());
    }

    /**
     * This record with a newer run's figures: every section the newer run measured is replaced whole (so a figure of
     * an example that is gone goes with it); sections it did not measure keep their older figures and dates.
     */
    public Figures updatedWith(Figures newer) {
        Set<String> measured = new LinkedHashSet<>();
        newer.rows.forEach(f -> measured.add(f.section()));
        List<Figure> merged = new ArrayList<>(rows.stream().filter(f -> !measured.contains(f.section())).toList());
        merged.addAll(newer.rows);
        return new Figures(List.copyOf(merged));
    }

    /** The figures of a section whose measure matches a glob ({@code *} for any characters). */
    public List<Figure> select(String section, String measureGlob) {
        return rows.stream().filter(f -> f.matches(section, measureGlob)).toList();
    }

    private static Pattern glob(String glob) {
        return Pattern.compile(Arrays.stream(glob.split("\\*", -1)).map(Pattern::quote).collect(Collectors.joining(".*")));
    }
}
