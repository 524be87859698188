package dev.nimchart.tools.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The README's table of measured figures, generated from the repository's record of the last benchmark run
 * (benchmarks/figures.tsv) between two marker comments, so no figure in it can disagree with what was measured.
 * ci/benchmark.sh rewrites both; ReadmeFactsTest fails while the README's table is not what this class makes of the
 * record. Run: {@code ReadmeFigures README.md benchmarks/figures.tsv} (rewrites the README's table).
 */
public final class ReadmeFigures {

    public static final String BEGIN = "<!-- figures:begin: generated from benchmarks/figures.tsv by ci/benchmark.sh; edit neither by hand -->";
    public static final String END = "<!-- figures:end -->";

    /** How a row shows its figures. */
    private enum Shape { ONE, RANGE, RANGE_AND_TOTAL, EACH }

    /** One row (or, for EACH, one row per matching figure) of the table. */
    private record Row(String label, String section, String measure, Shape shape, String unit, int decimals) {
    }

    /** The table's rows, in order: {@code readme-rows.tsv} beside this class (one row a line, tab-separated). */
    private static final List<Row> ROWS = rows();


    private ReadmeFigures() {
    }

    private static List<Row> rows() {
        try (InputStream in = ReadmeFigures.class.getResourceAsStream("readme-rows.tsv")) {
            if (in == null) {
                throw new IllegalStateException("readme-rows.tsv is missing beside " + ReadmeFigures.class.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank() && !l.startsWith("#"))
                    .map(l -> l.split("\t", -1)).map(c -> new Row(c[0], c[1], c[2], Shape.valueOf(c[3]), c[4], Integer.parseInt(c[5])))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: ReadmeFigures README.md benchmarks/figures.tsv");
        }
        Path readme = Path.of(args[0]);
        Files.writeString(readme, updatedReadme(Files.readString(readme), Figures.read(Path.of(args[1]))));
    }

    /** The README with its figures table made anew from the record; fails when the markers are missing. */
    public static String updatedReadme(String readme, Figures figures) {
        int begin = readme.indexOf(BEGIN);
        int end = readme.indexOf(END);
        if (begin < 0 || end < begin) {
            throw new IllegalArgumentException("the README has no " + BEGIN + " ... " + END + " block");
        }
        return readme.substring(0, begin + BEGIN.length()) + "\n" + table(figures) + readme.substring(end);
    }

    static String table(Figures figures) {
        StringBuilder out = new StringBuilder();
        figures.select("machine", "cores").stream().findFirst().ifPresent(cores -> out.append(String.format(Locale.ROOT,
                "Measured on a machine with %d cores and %s GiB; a missing row was not measured by the last run that recorded its section.%n%n",
                (int) cores.value(), figures.select("machine", "memory").stream().findFirst()
                        .map(m -> String.format(Locale.ROOT, "%.0f", m.value())).orElse("?"))));
        out.append("| What | Figure | Measured |\n|---|---|---|\n");
        for (Row row : ROWS) {
            List<Figures.Figure> found = figures.select(row.section(), row.measure());
            if (found.isEmpty()) {
                continue;
            }
            if (row.shape() == Shape.EACH) {
                found.stream().sorted(Comparator.comparing(Figures.Figure::measure)).forEach(f -> out.append(line(
                        row.label() + "`" + f.measure() + "`", format(f, row), f.measured())));
            } else {
                out.append(line(row.label(), cell(found, row), latest(found)));
            }
        }
        return out.toString();
    }

    private static String cell(List<Figures.Figure> found, Row row) {
        return switch (row.shape()) {
            case ONE -> format(found.get(0), row);
            case RANGE -> range(found, row);
            case RANGE_AND_TOTAL -> range(found, row) + " each, " + number(found.stream().mapToDouble(f -> in(f, row.unit())).sum(),
                    row.decimals()) + unitSuffix(row.unit()) + " for all " + found.size();
            case EACH -> throw new IllegalStateException("one cell per figure");
        };
    }

    private static String range(List<Figures.Figure> found, Row row) {
        double min = found.stream().mapToDouble(f -> in(f, row.unit())).min().orElseThrow();
        double max = found.stream().mapToDouble(f -> in(f, row.unit())).max().orElseThrow();
        String lo = number(min, row.decimals());
        String hi = number(max, row.decimals());
        return (lo.equals(hi) ? lo : lo + "-" + hi) + unitSuffix(row.unit());
    }

    private static String format(Figures.Figure f, Row row) {
        return number(in(f, row.unit()), row.decimals()) + unitSuffix(row.unit());
    }

    private static String line(String what, String figure, String measured) {
        return "| " + what + " | " + figure + " | " + measured + " |\n";
    }

    private static String latest(List<Figures.Figure> found) {
        return found.stream().map(Figures.Figure::measured).max(Comparator.naturalOrder()).orElseThrow();
    }

    private static String unitSuffix(String unit) {
        return unit.isEmpty() ? "" : unit.equals("x") ? "x" : " " + unit;
    }

    /** A figure as the README shows it: in a unit ("" for the figure's own), rounded to some decimals. */
    public static String shown(Figures.Figure f, String unit, int decimals) {
        return number(in(f, unit), decimals);
    }

    static String number(double value, int decimals) {
        return String.format(Locale.ROOT, decimals == 0 ? "%,.0f" : "%,." + decimals + "f", value);
    }

    /** A figure's value in the row's unit. */
    static double in(Figures.Figure f, String unit) {
        return switch (unit) {
            case "ms" -> seconds(f) * 1000;
            case "s" -> seconds(f);
            case "min" -> seconds(f) / 60;
            case "kB" -> require(f, "bytes") / 1000;
            default -> f.value();
        };
    }

    private static double seconds(Figures.Figure f) {
        return switch (f.unit()) {
            case "ms" -> f.value() / 1000;
            case "s" -> f.value();
            default -> throw new IllegalStateException(f + " is not a time");
        };
    }

    private static double require(Figures.Figure f, String unit) {
        if (!f.unit().equals(unit)) {
            throw new IllegalStateException(f + " is not in " + unit);
        }
        return f.value();
    }

    /** Rows the generator knows, for a test that every recorded section shows somewhere. */
    public static List<String> sections() {
        List<String> out = new ArrayList<>(ROWS.stream().map(Row::section).distinct().toList());
        out.add("machine");
        return out;
    }
}
