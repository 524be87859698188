package dev.nimchart.tools.bench;

import java.io.IOException;
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

    private static final List<Row> ROWS = List.of(
            new Row("Offline tier, every example: values schema, render, strict parse, strict model and CRD checks (warm median)",
                    "offline-harness", "warm-median", Shape.ONE, "s", 2),
            new Row("... its first pass in a fresh JVM (loads Helm's native library)", "offline-harness", "first-pass", Shape.ONE, "s", 1),
            new Row("The usual pipeline on the same files, `helm template \\| kubeconform -strict` (warm median)",
                    "offline-usual-pipeline", "warm-median", Shape.ONE, "s", 2),
            new Row("... how many times slower than this harness", "offline", "ratio-usual-over-harness", Shape.ONE, "x", 1),
            new Row("The command a user runs, `ci/check-chart.sh --tier offline --fuzz 0`, on the same files, end to end (launcher built: java"
                    + " directly, no Maven; median of paired runs)", "offline-command", "check-chart-median", Shape.ONE, "s", 1),
            new Row("... the usual pipeline as a command on the same files, in turn with it (median)", "offline-command",
                    "usual-pipeline-median", Shape.ONE, "s", 1),
            new Row("... how many times slower the usual pipeline is as a command (median of the pairs' ratios)", "offline-command",
                    "ratio-usual-over-command", Shape.ONE, "x", 1),
            new Row("... CPU time of the command, all its processes (median)", "offline-command", "check-chart-cpu-median", Shape.ONE, "s", 1),
            new Row("... CPU time of the usual pipeline as a command (median)", "offline-command", "usual-pipeline-cpu-median", Shape.ONE, "s", 1),
            new Row("... the machine's load average when they were measured", "offline-command", "load-average", Shape.ONE, "", 1),
            new Row("... its first run, which goes through Maven to build the launcher (chart-tests already compiled)", "offline-command", "first-run", Shape.ONE, "s", 1),
            new Row("... the command with the default fuzz, `--fuzz 200` (median)", "offline-command", "fuzz-200-median", Shape.ONE, "s", 1),
            new Row("... what the fuzz's 200 generated documents add", "offline-command", "fuzz-adds", Shape.ONE, "s", 1),
            new Row("API-server tier: local control plane ready (etcd + kube-apiserver, median)", "cluster", "start-median", Shape.ONE, "s", 1),
            new Row("... with the three CRDs established (median)", "cluster", "ready-with-crds-median", Shape.ONE, "s", 1),
            new Row("API-server tier: `helm install` plus reading every object back, per example",
                    "cluster-install", "*", Shape.RANGE_AND_TOTAL, "s", 1),
            new Row("Controller tier: start to all ready (7 processes, fake nodes Ready, LWS webhooks answering; median of 3)",
                    "controllers", "start-to-all-ready-median", Shape.ONE, "s", 1),
            new Row("... Kueue added for the tests that need it: its CRDs, process and webhooks answering (median of 3)",
                    "controllers", "kueue-start-median", Shape.ONE, "s", 1),
            new Row("Controller tier: `helm install` to every pod scheduled and Ready, per example",
                    "controllers-install-to-ready", "*", Shape.RANGE_AND_TOTAL, "s", 1),
            new Row("Start-up tier: the group's processes started to the serving pod Ready, per multi-node example (median of each)",
                    "startup-ready", "*", Shape.RANGE, "s", 1),
            new Row("... of which the Ray groups (NIM 2.x/3.x: a real Ray head and workers)", "startup-ready", "multi-node-ray-*", Shape.RANGE, "s", 1),
            new Row("... resident memory of a Ray group's processes once Ready (2 to 4 pods)", "startup-rss", "multi-node-ray-*", Shape.RANGE, "MiB", 0),
            new Row("Fault suite (FaultIT, fixed seed): faults injected", "faults", "injected", Shape.ONE, "", 0),
            new Row("... survived (back in the desired state within the fault's time limit, nothing lost)", "faults", "survived", Shape.ONE, "", 0),
            new Row("... the suite's own run (its controller tier's start included)", "faults", "suite", Shape.ONE, "s", 0),
            new Row("... time to recover, median: ", "fault-recover-median", "*", Shape.EACH, "s", 1),
            new Row("... time to recover, worst: ", "fault-recover-worst", "*", Shape.EACH, "s", 1),
            new Row("Endpoint picker (real GAIE v1.5.0 with the chart's args and config, EndpointPickerIT): decision latency, p50",
                    "endpoint-picker", "decision-p50", Shape.ONE, "ms", 2),
            new Row("... p99", "endpoint-picker", "decision-p99", Shape.ONE, "ms", 2),
            new Row("... requests measured", "endpoint-picker", "decisions", Shape.ONE, "", 0),
            new Row("GPU check on another machine (`DIR/run` of ci/gpu-check.sh's bundle, the real GPU engine), the whole run: ",
                    "gpu-check-run", "*", Shape.EACH, "s", 1),
            new Row("... time to Ready (the chart's startup probe first tries after 40 s): ", "gpu-check-ready", "*", Shape.EACH, "s", 1),
            new Row("... the engine's own start (PyTorch import, model written and loaded, Triton JIT, torch.compile): ",
                    "gpu-check-engine-ready", "*", Shape.EACH, "s", 1),
            new Row("... the chat completion (32 tokens, one request): ", "gpu-check-tokens-per-second", "*", Shape.EACH, "tokens/s", 0),
            new Row("Scale sweep (workers 2/8/32/64 x replicas 1/8): offline check per point", "scale-render", "*", Shape.RANGE, "ms", 0),
            new Row("... install plus read-back per point", "scale-install", "*", Shape.RANGE, "s", 2),
            new Row("... manifest size, LeaderWorkerSet", "scale-bytes", "scale-lws-*", Shape.RANGE, "kB", 1),
            new Row("... manifest size, MPIJob (one per replica)", "scale-bytes", "scale-mpijob-*", Shape.RANGE, "kB", 1),
            new Row("Whole `mvn -B verify`, all tiers, warm caches", "mvn-verify", "warm", Shape.ONE, "min", 1),
            new Row("... tests in that run, offline tier", "verify-tests", "offline", Shape.ONE, "", 0),
            new Row("... tests in that run, cluster tiers", "verify-tests", "cluster", Shape.ONE, "", 0),
            new Row("... and again on the oldest Kubernetes Chart.yaml claims (Failsafe's oldest-kubernetes execution)",
                    "verify-tests", "cluster-oldest-kubernetes", Shape.ONE, "", 0),
            new Row("... ", "verify-class", "*", Shape.EACH, "s", 0),
            new Row("First run on a fresh machine: fresh clone, empty Maven, Go and binary caches, `CI=true mvn -B verify`",
                    "mvn-verify", "cold", Shape.ONE, "min", 0),
            new Row("... of which the build of ", "cold-build", "*", Shape.EACH, "s", 0));

    private ReadmeFigures() {
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
