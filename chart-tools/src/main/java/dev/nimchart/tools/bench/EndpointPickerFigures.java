package dev.nimchart.tools.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The endpoint picker's decision latency, from the record chart-tests' EndpointPickerIT writes (one line per request:
 * milliseconds from sending the request's headers and body over ext_proc to the picker's answer to the headers, every
 * stand-in idle), which ci/benchmark.sh --epp copies next to the report: p50, p99 and the worst.
 */
final class EndpointPickerFigures {

    private final Report report;

    EndpointPickerFigures(Report report) {
        this.report = report;
    }

    void run(Path decisionsTsv) {
        report.line("");
        report.line("## Endpoint picker");
        report.line("");
        if (!Files.isRegularFile(decisionsTsv)) {
            report.line("Not measured in this run: `ci/benchmark.sh --epp` runs EndpointPickerIT with NIM_EPP_REQUESTS requests and reports"
                    + " the picker's decision latency.");
            return;
        }
        List<Double> ms = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(decisionsTsv)) {
                if (!line.isBlank()) {
                    ms.add(Double.parseDouble(line.trim()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (ms.isEmpty()) {
            report.line("The record " + decisionsTsv + " is empty.");
            return;
        }
        Collections.sort(ms);
        double p50 = percentile(ms, 50);
        double p99 = percentile(ms, 99);
        double worst = ms.get(ms.size() - 1);
        report.line(String.format(Locale.ROOT, "GAIE v1.5.0's endpoint picker with the chart's arguments and EndpointPickerConfig, two Ready"
                + " leaders in its pool, %d requests one after another: decision p50 %.2f ms, p99 %.2f ms, worst %.2f ms (from the"
                + " test's ext_proc client on this machine's loopback, through the test's TCP bridge into the picker's network"
                + " namespace, TLS as the picker serves by default).", ms.size(), p50, p99, worst));
        report.figure("endpoint-picker", "decision-p50", p50, "ms");
        report.figure("endpoint-picker", "decision-p99", p99, "ms");
        report.figure("endpoint-picker", "decisions", ms.size(), "count");
    }

    /** The nearest-rank percentile of sorted values. */
    static double percentile(List<Double> sorted, int p) {
        int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }
}
