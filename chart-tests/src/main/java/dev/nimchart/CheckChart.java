package dev.nimchart;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The command behind {@code ci/check-chart.sh}: checks a chart with values directories on the offline tier and prints
 * one table, each values file by each tier, "passed" or the first reason it failed, with what the cluster tiers'
 * test classes reported (see {@link TierResults}).
 *
 * <pre>
 * CheckChart --chart DIR --values DIR[,DIR...] --tiers offline[,api,controllers] --results DIR
 *            [--fuzz N] [--seed S] [--cwd DIR] [--lint off|none|EXCEPTIONS.yaml] [--offline-only]
 * </pre>
 * With {@code --offline-only} it runs the offline tier and writes its verdicts to {@code <results>/offline.tsv}
 * (printing one summary line); without, it prints the table (running the offline tier first unless that file exists)
 * and writes the exit status, 0 or 1, to {@code <results>/status}. It always exits 0 itself once it got that far, so
 * the build tool around it prints nothing of its own; a usage error exits 2.
 */
public final class CheckChart {

    private static final int MAX_REASON = 240;

    private CheckChart() {
    }

    public static void main(String[] args) {
        Map<String, String> options;
        try {
            options = options(args);
        } catch (IllegalArgumentException e) {
            System.err.println("check-chart: " + e.getMessage());
            System.exit(2);
            return;
        }
        Path results = Path.of(options.get("results"));
        try {
            Files.createDirectories(results);
            ChartCheck check = ChartCheck.of(Path.of(options.get("chart")))
                    .values(Arrays.stream(options.get("values").split(",")).map(String::strip).filter(s -> !s.isEmpty()).map(Path::of).toList())
                    .fuzz(Integer.parseInt(options.getOrDefault("fuzz", String.valueOf(ChartCheck.DEFAULT_FUZZ_COUNT))),
                            Long.parseLong(options.getOrDefault("seed", String.valueOf(ChartCheck.DEFAULT_FUZZ_SEED))))
                    .workDir(results);
            String lint = options.getOrDefault("lint", "off");
            if (!lint.equals("off")) {
                check = lint.equals("none") ? check.lint(null) : check.lint(Path.of(options.getOrDefault("cwd", "")).resolve(lint));
            }
            List<Tier> tiers = Arrays.stream(options.get("tiers").split(",")).map(Tier::of).distinct().sorted().toList();
            Path offlineFile = results.resolve("offline.tsv");
            if (tiers.contains(Tier.OFFLINE) && (options.containsKey("offline-only") || !Files.isRegularFile(offlineFile))) {
                List<Verdict> verdicts = check.offline();
                StringBuilder tsv = new StringBuilder();
                verdicts.forEach(v -> tsv.append(v.subject()).append('\t').append(v.ok() ? "" : oneLine(v.reason())).append('\n'));
                Files.writeString(offlineFile, tsv);
                long failed = verdicts.stream().filter(v -> !v.ok()).count();
                System.out.println("offline tier: " + (verdicts.size() - failed) + " of " + verdicts.size() + " passed");
            }
            if (options.containsKey("offline-only")) {
                System.exit(0);
            }
            boolean ok = printTable(check, tiers, results, Path.of(options.getOrDefault("cwd", "")).toAbsolutePath());
            Files.writeString(results.resolve("status"), ok ? "0\n" : "1\n");
        } catch (RuntimeException | IOException e) {
            System.out.println("check-chart: " + e.getMessage());
            writeQuietly(results.resolve("status"), "1\n");
        }
        // the lookup stub's server and Helm's threads would keep the JVM alive
        System.exit(0);
    }

    private static boolean printTable(ChartCheck check, List<Tier> tiers, Path results, Path cwd) throws IOException {
        Map<String, String> offline = new LinkedHashMap<>();
        Path offlineFile = results.resolve("offline.tsv");
        if (Files.isRegularFile(offlineFile)) {
            for (String line : Files.readAllLines(offlineFile)) {
                String[] f = line.split("\t", 2);
                offline.put(f[0], f.length > 1 ? f[1] : "");
            }
        }
        Map<Tier, TierResults> cluster = new LinkedHashMap<>();
        for (Tier tier : tiers) {
            if (tier != Tier.OFFLINE) {
                cluster.put(tier, TierResults.read(tier, results.resolve(tier.label() + ".tsv")));
            }
        }
        List<String> subjects = new ArrayList<>();
        check.validFiles().forEach(f -> subjects.add(f.toString()));
        check.invalidFiles().forEach(f -> subjects.add(f.toString()));
        List<List<String>> rows = new ArrayList<>();
        boolean ok = true;
        for (String subject : subjects) {
            List<String> row = new ArrayList<>();
            row.add(display(Path.of(subject), cwd));
            for (Tier tier : tiers) {
                String reason = tier == Tier.OFFLINE ? offlineOutcome(offline, subject) : clusterOutcome(cluster.get(tier), tier, subject, results);
                ok &= reason.isEmpty();
                row.add(reason.isEmpty() ? "passed" : "FAILED: " + shorten(reason));
            }
            rows.add(row);
        }
        if (tiers.contains(Tier.OFFLINE) && offline.containsKey(check.fuzzSubject())) {
            List<String> row = new ArrayList<>();
            row.add(check.fuzzSubject());
            for (Tier tier : tiers) {
                String reason = tier == Tier.OFFLINE ? offline.get(check.fuzzSubject()) : null;
                ok &= reason == null || reason.isEmpty();
                row.add(reason == null ? "-" : reason.isEmpty() ? "passed" : "FAILED: " + shorten(reason));
            }
            rows.add(row);
        }
        List<String> header = new ArrayList<>();
        header.add("values file");
        tiers.forEach(t -> header.add(t.label()));
        System.out.println();
        System.out.println("== chart " + check.chartDir());
        System.out.println(markdownRow(header));
        System.out.println(markdownRow(header.stream().map(h -> "---").toList()));
        rows.forEach(r -> System.out.println(markdownRow(r)));
        long failedRows = rows.stream().filter(r -> r.stream().anyMatch(c -> c.startsWith("FAILED"))).count();
        System.out.println();
        System.out.println(failedRows == 0 ? "all " + rows.size() + " passed" : failedRows + " of " + rows.size() + " failed");
        return ok && !rows.isEmpty();
    }

    private static String offlineOutcome(Map<String, String> offline, String subject) {
        String reason = offline.get(subject);
        return reason == null ? "no result: the offline tier did not run it" : reason;
    }

    private static String clusterOutcome(TierResults results, Tier tier, String subject, Path resultsDir) {
        return results.outcome(Path.of(subject)).orElseGet(() -> results.classFailure()
                .orElse("no result: the " + tier.label() + " tier did not run it (log: " + resultsDir.resolve(tier.label() + ".log") + ")"));
    }

    private static String display(Path file, Path cwd) {
        return cwd.getNameCount() > 0 && file.startsWith(cwd) ? cwd.relativize(file).toString() : file.toString();
    }

    private static String shorten(String reason) {
        String line = oneLine(reason);
        return line.length() <= MAX_REASON ? line : line.substring(0, MAX_REASON - 1) + "…";
    }

    private static String oneLine(String text) {
        return text.replaceAll("\\s+", " ").strip();
    }

    private static String markdownRow(List<String> cells) {
        return "| " + String.join(" | ", cells.stream().map(c -> c.replace("|", "\\|")).toList()) + " |";
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].isBlank()) {
                continue;
            }
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument " + args[i]);
            }
            String name = args[i].substring(2);
            if (name.equals("offline-only")) {
                options.put(name, "");
            } else if (i + 1 < args.length) {
                options.put(name, args[++i]);
            } else {
                throw new IllegalArgumentException("--" + name + " needs a value");
            }
        }
        for (String required : List.of("chart", "values", "tiers", "results")) {
            if (!options.containsKey(required) || options.get(required).isBlank()) {
                throw new IllegalArgumentException("--" + required + " is required");
            }
        }
        return options;
    }

    private static void writeQuietly(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException ignored) {
            // the caller reports a missing status as a failure
        }
    }
}
