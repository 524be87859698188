package dev.nimchart.chart.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * The fault suite's record: one line per fault injected (fault, example, seed, survived or failed, milliseconds from
 * the injection until the release was back in its desired state, or until it failed), in target/faults/faults.tsv,
 * which ci/benchmark.sh reads for its fault figures.
 */
final class FaultLog {

    static final Path REPORT_DIR = Path.of("target", "faults");
    /** The seed every random choice of the suite (which pod, which group, which node) draws from: -Dnim.faults.seed. */
    static final long SEED = Long.getLong("nim.faults.seed", 22L);

    private FaultLog() {
    }

    /**
     * Injects the fault, then awaits the recovery (which fails when it does not come within the fault's time limit);
     * records the outcome and the time from the injection either way.
     */
    static <T> T inject(String fault, String example, Runnable injection, Supplier<T> recovery) {
        long started = System.nanoTime();
        try {
            injection.run();
            T recovered = recovery.get();
            write(fault, example, "survived", Duration.ofNanos(System.nanoTime() - started));
            return recovered;
        } catch (RuntimeException | AssertionError e) {
            write(fault, example, "failed", Duration.ofNanos(System.nanoTime() - started));
            throw new AssertionError(fault + " on " + example + " (seed " + SEED + ", -Dnim.faults.seed): " + e.getMessage(), e);
        }
    }

    private static synchronized void write(String fault, String example, String outcome, Duration time) {
        try {
            Files.createDirectories(REPORT_DIR);
            Files.writeString(REPORT_DIR.resolve("faults.tsv"), fault + "\t" + example + "\t" + SEED + "\t" + outcome + "\t" + time.toMillis() + "\n",
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
