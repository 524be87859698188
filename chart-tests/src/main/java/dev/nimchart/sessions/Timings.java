package dev.nimchart.sessions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;

/** One timing line (what, milliseconds) appended to a tier's timings.tsv, for the benchmark report. */
public final class Timings {

    private Timings() {
    }

    /** Empties the tier's timings (a tier's start writes them anew): its report directory, for what follows. */
    public static synchronized Path restart(Path reportDir) {
        try {
            Files.deleteIfExists(reportDir.resolve("timings.tsv"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return reportDir;
    }

    public static synchronized void record(Path reportDir, String what, Duration time) {
        try {
            Files.createDirectories(reportDir);
            Files.writeString(reportDir.resolve("timings.tsv"), what + "\t" + time.toMillis() + "\n",
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
