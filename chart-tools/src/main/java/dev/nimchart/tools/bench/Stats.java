package dev.nimchart.tools.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Medians and formatting of timings in nanoseconds. */
final class Stats {

    private Stats() {
    }

    static long median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    static String ms(long nanos) {
        double ms = nanos / 1e6;
        return ms >= 100 ? String.format("%.0f ms", ms) : String.format("%.1f ms", ms);
    }

    static String seconds(long nanos) {
        return String.format("%.1f s", nanos / 1e9);
    }
}
