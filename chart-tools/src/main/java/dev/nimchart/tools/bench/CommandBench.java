package dev.nimchart.tools.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The offline tier as the command a user runs, {@code ci/check-chart.sh --tier offline --fuzz 0}, timed end to end
 * as a whole process beside the usual pipeline as a command (one script running {@code helm template | kubeconform
 * -strict} per file, {@link UsualPipeline#shellScript}) on the same values files. The two run in turn, A B A B ..., so
 * the load of a shared machine hits both: the median wall and CPU time of each (CPU: every process of the command,
 * from bash's {@code times}), and the median of the pairs' ratios. Also the command's first run, which builds it with
 * Maven into a launcher of this benchmark's own ({@code NIM_CHECK_CHART_LAUNCHER}), and what the values fuzz adds:
 * {@code --fuzz 200} (the default) against {@code --fuzz 0}, in turn.
 */
final class CommandBench {

    private static final int FUZZ = 200;

    private final Report report;
    private final Path out;
    private final int runs;
    private final Path repo;

    CommandBench(Report report, Path out, int runs, Path repo) {
        this.report = report;
        this.out = out.toAbsolutePath();
        this.runs = runs;
        this.repo = repo.toAbsolutePath().normalize();
    }

    /** A run: wall time, and the CPU time of all its processes. */
    record Timed(long wallNanos, double cpuSeconds) {
    }

    void run(Path chartDir, List<Path> examples, UsualPipeline pipeline) throws IOException {
        report.line("");
        report.line("## Offline: the command a user runs, end to end, beside the usual pipeline as a command");
        report.line("");
        // the examples alone, in a directory of their own: values-examples/ also holds the refusal corpus (invalid/)
        Path values = emptied(out.resolve("command-values"));
        List<Path> copies = new ArrayList<>();
        for (Path f : examples) {
            copies.add(Files.copy(f, values.resolve(f.getFileName())));
        }
        Path script = out.resolve("usual-pipeline.sh");
        Files.writeString(script, pipeline.shellScript(copies));
        Path launcher = emptied(out.resolve("check-chart-launcher"));
        Files.delete(launcher);
        // each run's results directory (the command keeps it for its user) under the benchmark's output, not in /tmp
        Path results = emptied(out.resolve("command-results"));
        Map<String, String> env = Map.of("NIM_CHECK_CHART_LAUNCHER", launcher.toString(), "TMPDIR", results.toString());
        List<String> usual = List.of("bash", script.toString());

        Timed first = timed("command-first-run", command(chartDir, values, 0), env);
        timed("command-warm-up", command(chartDir, values, 0), env); // writes the class-data archive at its exit
        timed("usual-command-warm-up", usual, Map.of());
        List<Timed> checks = new ArrayList<>();
        List<Timed> usuals = new ArrayList<>();
        List<Double> ratios = new ArrayList<>();
        for (int r = 0; r < runs; r++) {
            Timed a = timed("command", command(chartDir, values, 0), env);
            Timed b = timed("usual-command", usual, Map.of());
            checks.add(a);
            usuals.add(b);
            ratios.add((double) b.wallNanos() / a.wallNanos());
        }
        int fuzzRuns = Math.min(runs, 3);
        List<Timed> fuzzed = new ArrayList<>();
        List<Timed> unfuzzed = new ArrayList<>();
        for (int r = 0; r < fuzzRuns; r++) {
            fuzzed.add(timed("command-fuzz", command(chartDir, values, FUZZ), env));
            unfuzzed.add(timed("command", command(chartDir, values, 0), env));
        }
        long check = Stats.median(checks.stream().map(Timed::wallNanos).toList());
        long usualWall = Stats.median(usuals.stream().map(Timed::wallNanos).toList());
        double ratio = median(ratios);
        long fuzzWall = Stats.median(fuzzed.stream().map(Timed::wallNanos).toList());
        long fuzzAdds = fuzzWall - Stats.median(unfuzzed.stream().map(Timed::wallNanos).toList());
        double load = loadAverage();

        report.line(String.format("%d values files. `ci/check-chart.sh --chart %s --values DIR --tier offline --fuzz 0` against one "
                + "script running `helm template | kubeconform -strict` per file (the pipeline above, as a command), in turn, %d "
                + "pairs after a warm-up run of each; CPU is every process of the command. Load average at the end: %.1f on %d cores.",
                examples.size(), repo.relativize(chartDir.toAbsolutePath().normalize()), runs, load,
                Runtime.getRuntime().availableProcessors()));
        report.line("");
        report.line("| | wall, median | CPU, median |");
        report.line("|---|---|---|");
        report.line("| `ci/check-chart.sh --tier offline --fuzz 0` (launcher built: java directly) | " + Stats.ms(check) + " | "
                + cpu(checks) + " |");
        report.line("| the usual pipeline as a command | " + Stats.ms(usualWall) + " | " + cpu(usuals) + " |");
        report.line("| its first run, which builds the command with Maven | " + Stats.ms(first.wallNanos()) + " | "
                + String.format("%.1f s", first.cpuSeconds()) + " |");
        report.line("| with the default fuzz (`--fuzz " + FUZZ + "`, median of " + fuzzRuns + ") | " + Stats.ms(fuzzWall) + " | "
                + cpu(fuzzed) + " |");
        report.line("");
        report.line(String.format("**As commands, the usual pipeline takes %.1fx the time of `ci/check-chart.sh`** (median of the "
                + "pairs' ratios); the fuzz's %d generated documents add %s.", ratio, FUZZ, Stats.ms(fuzzAdds)));
        report.figure("offline-command", "check-chart-median", check / 1e6, "ms");
        report.figure("offline-command", "check-chart-cpu-median", median(checks.stream().map(Timed::cpuSeconds).toList()), "s");
        report.figure("offline-command", "usual-pipeline-median", usualWall / 1e6, "ms");
        report.figure("offline-command", "usual-pipeline-cpu-median", median(usuals.stream().map(Timed::cpuSeconds).toList()), "s");
        report.figure("offline-command", "ratio-usual-over-command", ratio, "x");
        report.figure("offline-command", "first-run", first.wallNanos() / 1e6, "ms");
        report.figure("offline-command", "fuzz-" + FUZZ + "-median", fuzzWall / 1e6, "ms");
        report.figure("offline-command", "fuzz-adds", fuzzAdds / 1e6, "ms");
        report.figure("offline-command", "load-average", load, "");
    }

    private List<String> command(Path chartDir, Path values, int fuzz) {
        return List.of("bash", repo.resolve("ci/check-chart.sh").toString(), "--chart", chartDir.toAbsolutePath().toString(),
                "--values", values.toString(), "--tier", "offline", "--fuzz", String.valueOf(fuzz), "--maven-offline");
    }

    /** Runs a command to its end, its output appended to NAME.log; fails when it fails. */
    private Timed timed(String name, List<String> command, Map<String, String> env) {
        Path log = out.resolve(name + ".log");
        List<String> wrapped = new ArrayList<>(List.of("bash", "-c", "\"$@\" >>\"$0\" 2>&1; s=$?; times; exit $s", log.toString()));
        wrapped.addAll(command);
        ProcessBuilder builder = new ProcessBuilder(wrapped).redirectErrorStream(true);
        builder.environment().putAll(env);
        long started = System.nanoTime();
        try {
            Process process = builder.start();
            String times = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int exit = process.waitFor();
            long wall = System.nanoTime() - started;
            if (exit != 0) {
                throw new IllegalStateException(String.join(" ", command) + " exited " + exit + ", see " + log);
            }
            return new Timed(wall, childrenCpu(times));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** The children's user + system time from bash's {@code times} (its second line: "0m2.700s 0m0.300s"). */
    static double childrenCpu(String times) {
        String[] lines = times.strip().split("\n");
        Matcher m = Pattern.compile("(\\d+)m([\\d.]+)s\\s+(\\d+)m([\\d.]+)s").matcher(lines[lines.length - 1]);
        if (!m.find()) {
            throw new IllegalStateException("no CPU times in: " + times);
        }
        return Integer.parseInt(m.group(1)) * 60 + Double.parseDouble(m.group(2)) + Integer.parseInt(m.group(3)) * 60
                + Double.parseDouble(m.group(4));
    }

    private static String cpu(List<Timed> runs) {
        return String.format("%.1f s", median(runs.stream().map(Timed::cpuSeconds).toList()));
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static Path emptied(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> all = Files.walk(dir)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        return Files.createDirectories(dir);
    }
}
