package dev.nimchart.sessions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The record of which tier environments JUnit's adapters started in which test JVM ({@code dev.nimchart.junit.SharedTier#started}): one
 * line per start in {@code <work directory>/tier-starts.tsv}, so a run can prove what the adapters promise, one
 * environment per tier per test JVM, and {@link #startedTwice} names every JVM that started a tier again. Environments a
 * {@code ChartCheck} or the command line owns are not recorded: starting their own is what they are for.
 */
public final class TierStarts {

    public static final String FILE = "tier-starts.tsv";

    /** One start: the tier, the JVM (process id and start time, so a reused id is another JVM) and the class that asked. */
    public record Start(String tier, String jvm, String askedBy) {

        String line() {
            return tier + "\t" + jvm + "\t" + askedBy + "\n";
        }

        static Start parse(String line) {
            String[] f = line.split("\t", -1);
            if (f.length != 3) {
                throw new IllegalArgumentException("not a tier start (tier, JVM, class; tab-separated): " + line);
            }
            return new Start(f[0], f[1], f[2]);
        }
    }

    private TierStarts() {
    }

    /** This JVM, as the record names it: its process id and when it started. */
    public static String thisJvm() {
        ProcessHandle self = ProcessHandle.current();
        return self.pid() + "@" + self.info().startInstant().map(Instant::toString).orElse("unknown");
    }

    /** Appends a start of {@code tier} by this JVM, asked for by {@code askedBy}, to {@code workDir}'s record. */
    public static synchronized void record(Path workDir, String tier, String askedBy) {
        try {
            Files.createDirectories(workDir);
            Files.writeString(workDir.resolve(FILE), new Start(tier, thisJvm(), askedBy).line(), StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The starts recorded in these files (a missing file holds none). */
    public static List<Start> read(Collection<Path> files) {
        List<Start> starts = new ArrayList<>();
        for (Path file : files) {
            if (!Files.isRegularFile(file)) {
                continue;
            }
            try {
                Files.readAllLines(file).stream().filter(l -> !l.isBlank()).map(Start::parse).forEach(starts::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return starts;
    }

    /**
     * Every tier a JVM started more than once, as "tier in JVM: N starts (asked by classes)"; empty when every JVM
     * started each tier at most once.
     */
    public static List<String> startedTwice(List<Start> starts) {
        Map<String, List<Start>> byTierAndJvm = starts.stream()
                .collect(Collectors.groupingBy(s -> s.tier() + " in JVM " + s.jvm(), TreeMap::new, Collectors.toList()));
        return byTierAndJvm.entrySet().stream().filter(e -> e.getValue().size() > 1)
                .map(e -> e.getKey() + ": " + e.getValue().size() + " starts (asked by "
                        + e.getValue().stream().map(Start::askedBy).collect(Collectors.joining(", ")) + ")")
                .toList();
    }

    /** How many JVMs started each tier. */
    public static Map<String, Long> jvmsPerTier(List<Start> starts) {
        return starts.stream().collect(Collectors.groupingBy(Start::tier, TreeMap::new,
                Collectors.mapping(Start::jvm, Collectors.collectingAndThen(Collectors.toSet(), s -> (long) s.size()))));
    }
}
