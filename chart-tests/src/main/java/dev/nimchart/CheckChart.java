package dev.nimchart;

import dev.nimchart.tiers.ChartRules;
import dev.nimchart.tiers.Tier;

import dev.nimchart.settings.SettingsFromProperties;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The command behind {@code ci/check-chart.sh}: checks a chart with values directories on the tiers asked for, all in
 * this one JVM through {@link ChartCheck}, printing a line per verdict as it comes, then one table: each values file
 * by each tier, "passed" or the first reason it failed, built from the verdicts themselves.
 *
 * <pre>
 * CheckChart --chart DIR --values DIR[,DIR...] --tiers all|TIER[,TIER...] --results DIR
 *            [--fuzz N] [--seed S] [--cwd DIR] [--lint off|none|EXCEPTIONS.yaml] [--pod-security LEVEL]
 *            [--startup-files GLOB[,GLOB...]]
 * </pre>
 * The tiers are the library's ({@link ChartCheck#tiers()}: offline, api, controllers, startup; {@link ChartCheck#tier(String)} refuses any other name), checked cheapest first;
 * {@code all} is every one of them. The start-up tier starts the files whose names match {@code --startup-files}
 * (default {@code none}). It writes the exit status, 0 or 1 (2 for an unknown tier), to {@code <results>/status} and always
 * exits 0 itself once it got that far, so the build tool around it prints nothing of its own; a usage error exits 2.
 * The tier environments it started are stopped before it exits.
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
        List<Tier> tiers;
        try {
            tiers = tiers(options.get("tiers"));
        } catch (IllegalArgumentException e) {
            System.out.println("check-chart: " + e.getMessage());
            writeQuietly(results, "2\n");
            System.exit(0);
            return;
        }
        String podSecurity = options.getOrDefault("pod-security", "privileged");
        List<java.nio.file.PathMatcher> startup = Arrays.stream(options.getOrDefault("startup-files", "").split(","))
                .map(String::strip).filter(g -> !g.isEmpty() && !g.equals("none")).map(g -> java.nio.file.FileSystems.getDefault().getPathMatcher("glob:" + g)).toList();
        ChartCheck base;
        ChartRules rules;
        try {
            Files.createDirectories(results);
            rules = new ChartRules() {
                private final ChartRules level = ChartRules.podSecurity(podSecurity);

                @Override
                public String podSecurityLevel(Path valuesFile, Tier tier) {
                    return level.podSecurityLevel(valuesFile, tier);
                }

                @Override
                public boolean startsUp(Path valuesFile) {
                    return startup.stream().anyMatch(m -> m.matches(valuesFile.getFileName()));
                }
            };
            // the command line's settings: its -Dnim.* properties
            base = ChartCheck.of(Path.of(options.get("chart")), SettingsFromProperties.shared());
        } catch (RuntimeException | IOException e) {
            System.out.println("check-chart: " + e.getMessage());
            writeQuietly(results, "1\n");
            System.exit(0);
            return;
        }
        // the check owns the environments of the tiers it starts: closing it stops them before the JVM exits
        try (ChartCheck owner = base) {
            ChartCheck check = owner
                    .withValues(Arrays.stream(options.get("values").split(",")).map(String::strip).filter(s -> !s.isEmpty()).map(Path::of).toList())
                    .withFuzz(Integer.parseInt(options.getOrDefault("fuzz", String.valueOf(ChartCheck.DEFAULT_FUZZ_COUNT))),
                            Long.parseLong(options.getOrDefault("seed", String.valueOf(ChartCheck.DEFAULT_FUZZ_SEED))))
                    .withWorkDir(results)
                    .withRules(rules);
            String lint = options.getOrDefault("lint", "off");
            if (!lint.equals("off")) {
                check = lint.equals("none") ? check.withLint(null) : check.withLint(Path.of(options.getOrDefault("cwd", "")).resolve(lint));
            }
            Path cwd = Path.of(options.getOrDefault("cwd", "")).toAbsolutePath();
            Map<Tier, List<Verdict>> verdicts = new LinkedHashMap<>();
            for (Tier tier : tiers) {
                System.out.println(tier.label() + " tier ...");
                long started = System.nanoTime();
                List<Verdict> list;
                try {
                    list = check.verdicts(tier, v -> System.out.println("  " + tier.label() + " "
                            + display(v.subject(), cwd) + ": " + (v.ok() ? "passed" : "FAILED")));
                } catch (RuntimeException | AssertionError e) {
                    // a tier that stops as a whole fails each file, so the table is still printed
                    list = stoppedTier(check, tier, e);
                    list.forEach(v -> System.out.println("  " + tier.label() + " " + display(v.subject(), cwd) + ": FAILED"));
                }
                long failed = list.stream().filter(v -> !v.ok()).count();
                System.out.println("  " + tier.label() + " tier: " + (list.size() - failed) + " of " + list.size() + " passed in "
                        + (System.nanoTime() - started) / 1_000_000 + " ms");
                verdicts.put(tier, list);
            }
            boolean ok = printTable(check, tiers, verdicts, cwd, System.out);
            writeQuietly(results, ok ? "0\n" : "1\n");
        } catch (RuntimeException e) {
            System.out.println("check-chart: " + e.getMessage());
            writeQuietly(results, "1\n");
        }
        // the lookup stub's server and Helm's threads would keep the JVM alive
        System.exit(0);
    }

    /** The tiers asked for, cheapest first: {@code all}, or a comma list of {@link Tier#label()}s. */
    static List<Tier> tiers(String asked) {
        List<Tier> tiers = new ArrayList<>();
        for (String label : asked.split(",")) {
            if (label.strip().equals("all")) {
                tiers.addAll(ChartCheck.tiers());
            } else if (!label.isBlank()) {
                tiers.add(ChartCheck.tier(label));
            }
        }
        if (tiers.isEmpty()) {
            throw new IllegalArgumentException("no tier asked for: " + labels() + " or all");
        }
        return TierRegistry.LIBRARY.inOrder(tiers);
    }

    /** The library's tiers by label: offline, api, controllers, startup. */
    static String labels() {
        return TierRegistry.LIBRARY.labels();
    }

    /** A failing verdict for every values file the tier would have checked, naming why the tier stopped. */
    static List<Verdict> stoppedTier(ChartCheck check, Tier tier, Throwable failure) {
        String reason = "the " + tier.label() + " tier stopped: " + failure.getMessage();
        List<Verdict> out = new ArrayList<>();
        check.validFiles().forEach(f -> out.add(new Verdict(f.toString(), tier, reason)));
        if (tier.checksRefusals()) {
            check.invalidFiles().forEach(f -> out.add(new Verdict(f.toString(), tier, reason)));
        }
        return out;
    }

    /** Prints the table of verdicts, a row per values file and a column per tier; whether every row passed. */
    static boolean printTable(ChartCheck check, List<Tier> tiers, Map<Tier, List<Verdict>> verdicts, Path cwd, java.io.PrintStream out) {
        List<String> subjects = new ArrayList<>();
        List<Path> valid = check.validFiles();
        valid.forEach(f -> subjects.add(f.toString()));
        List<String> refusals = check.invalidFiles().stream().map(Path::toString).toList();
        subjects.addAll(refusals);
        List<String> files = List.copyOf(subjects);
        // a tier's own checks (the offline tier's fuzz run) are rows of their own
        tiers.forEach(t -> verdicts.get(t).stream().map(Verdict::subject).filter(s -> !files.contains(s) && !subjects.contains(s)).forEach(subjects::add));
        Map<Tier, java.util.function.Predicate<Path>> installs = new LinkedHashMap<>();
        tiers.forEach(t -> installs.put(t, check.tierCheck(t)::installs));
        List<List<String>> rows = new ArrayList<>();
        boolean ok = true;
        for (String subject : subjects) {
            List<String> row = new ArrayList<>();
            row.add(files.contains(subject) ? display(subject, cwd) : subject);
            for (Tier tier : tiers) {
                Verdict v = verdicts.get(tier).stream().filter(x -> x.subject().equals(subject)).findFirst().orElse(null);
                if (v == null) {
                    // another tier's own check (the fuzz run), a file the tier does not check (the start-up tier starts
                    // only the files the rules opt into), or a refusal file on a tier that checks none
                    boolean notThisTiers = !files.contains(subject) || (refusals.contains(subject)
                            ? !tier.checksRefusals() : !installs.get(tier).test(Path.of(subject)));
                    ok &= notThisTiers;
                    row.add(notThisTiers ? "-" : "FAILED: no verdict: the " + tier.label() + " tier did not check it");
                } else {
                    ok &= v.ok();
                    row.add(v.ok() ? "passed" : "FAILED: " + shorten(v.reason()));
                }
            }
            rows.add(row);
        }
        List<String> header = new ArrayList<>();
        header.add("values file");
        tiers.forEach(t -> header.add(t.label()));
        out.println();
        out.println("== chart " + check.chartDir());
        out.println(markdownRow(header));
        out.println(markdownRow(header.stream().map(h -> "---").toList()));
        rows.forEach(r -> out.println(markdownRow(r)));
        long failedRows = rows.stream().filter(r -> r.stream().anyMatch(c -> c.startsWith("FAILED"))).count();
        out.println();
        out.println(failedRows == 0 ? "all " + rows.size() + " passed" : failedRows + " of " + rows.size() + " failed");
        return ok && !rows.isEmpty();
    }

    private static String display(String subject, Path cwd) {
        Path file = Path.of(subject);
        return cwd.getNameCount() > 0 && file.startsWith(cwd) ? cwd.relativize(file).toString() : subject;
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
            if (i + 1 < args.length) {
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

    /** Writes the exit status to {@code <results>/status}. */
    private static void writeQuietly(Path results, String text) {
        try {
            Files.createDirectories(results);
            Files.writeString(results.resolve("status"), text);
        } catch (IOException ignored) {
            // the caller reports a missing status as a failure
        }
    }
}
