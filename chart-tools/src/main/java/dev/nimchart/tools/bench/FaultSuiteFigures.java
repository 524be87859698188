package dev.nimchart.tools.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fault suite's figures, from the record its run wrote (chart-tests' FaultIT: one line per fault injected, with
 * fault, example, seed, outcome and milliseconds from the injection to the desired state or the failure), which
 * ci/benchmark.sh --faults copies next to the report with the suite's wall time: faults injected, faults survived,
 * and per fault the median and worst time to recover.
 */
final class FaultSuiteFigures {

    private final Report report;

    FaultSuiteFigures(Report report) {
        this.report = report;
    }

    void run(Path faultsTsv, Path suiteTsv) {
        report.line("");
        report.line("## Fault suite");
        report.line("");
        if (!Files.isRegularFile(faultsTsv)) {
            report.line("Not measured in this run: `ci/benchmark.sh --faults` runs the fault suite (FaultIT) and reports it.");
            return;
        }
        List<String[]> rows = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(faultsTsv)) {
                if (!line.isBlank()) {
                    rows.add(line.split("\t"));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long survived = rows.stream().filter(r -> r[3].equals("survived")).count();
        report.line(String.format("%d faults injected, %d survived (back in the desired state within the fault's time limit, nothing"
                + " lost), seed %s.", rows.size(), survived, rows.isEmpty() ? "-" : rows.get(0)[2]));
        report.figure("faults", "injected", rows.size(), "count");
        report.figure("faults", "survived", survived, "count");
        suiteTime(suiteTsv);
        Map<String, List<Long>> byFault = new LinkedHashMap<>();
        Map<String, List<String>> examples = new LinkedHashMap<>();
        for (String[] r : rows) {
            byFault.computeIfAbsent(r[0], k -> new ArrayList<>()).add(Long.parseLong(r[4]) * 1_000_000);
            examples.computeIfAbsent(r[0], k -> new ArrayList<>()).add(r[1] + (r[3].equals("survived") ? "" : " (FAILED)"));
        }
        report.line("");
        report.line("| fault | injected | survived | time to recover, median | worst | examples |");
        report.line("|---|---|---|---|---|---|");
        for (Map.Entry<String, List<Long>> f : byFault.entrySet()) {
            long ok = rows.stream().filter(r -> r[0].equals(f.getKey()) && r[3].equals("survived")).count();
            long worst = f.getValue().stream().mapToLong(Long::longValue).max().orElseThrow();
            report.line("| " + f.getKey() + " | " + f.getValue().size() + " | " + ok + " | " + Stats.seconds(Stats.median(f.getValue()))
                    + " | " + Stats.seconds(worst) + " | " + String.join(", ", examples.get(f.getKey())) + " |");
            report.figure("fault-recover-median", slug(f.getKey()), Stats.median(f.getValue()) / 1e9, "s");
            report.figure("fault-recover-worst", slug(f.getKey()), worst / 1e9, "s");
        }
    }

    private void suiteTime(Path suiteTsv) {
        try {
            if (Files.isRegularFile(suiteTsv)) {
                long ms = Long.parseLong(Files.readString(suiteTsv).trim());
                report.line("The suite's own run: " + Stats.seconds(ms * 1_000_000) + " (one Maven run of FaultIT, its controller tier's start"
                        + " included).");
                report.figure("faults", "suite", ms / 1000.0, "s");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String slug(String fault) {
        return fault.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("(^-|-$)", "");
    }
}
