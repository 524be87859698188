package dev.nimchart.junit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The CPU time of this JVM and of every process it started since it joined the meter, whatever became of them (ended,
 * or daemons that left the process tree, as {@code ray start}'s do): a control group of the cgroup v1 {@code cpuacct}
 * hierarchy of its own, which every later child inherits. Where none can be made (no such hierarchy, not root), the
 * process tree instead: this JVM's own time and its ended children's, and the live descendants' ({@link #source()} says
 * which). Only accounting: a cpuacct group limits nothing.
 */
final class ForkCpuMeter {

    private static final Path CPUACCT = Path.of("/sys/fs/cgroup/cpuacct");

    private final Optional<Path> group;
    private final Path before;

    private ForkCpuMeter(Optional<Path> group, Path before) {
        this.group = group;
        this.before = before;
    }

    /** Moves this JVM into a cpuacct group of its own when it can (removing groups left by JVMs that have ended). */
    static ForkCpuMeter join() {
        return join("jvm");
    }

    /** {@link #join()} with a group named {@code NAME-PID}, so that a test of the meter leaves the JVM's own alone. */
    static ForkCpuMeter join(String name) {
        long pid = ProcessHandle.current().pid();
        Path parent = CPUACCT.resolve("nim-chart-tests");
        try {
            if (!Files.isRegularFile(CPUACCT.resolve("cpuacct.usage"))) {
                return new ForkCpuMeter(Optional.empty(), CPUACCT);
            }
            Path before = currentGroup();
            Files.createDirectories(parent);
            removeEndedGroups(parent);
            Path group = parent.resolve(name + "-" + pid);
            Files.createDirectories(group);
            Files.writeString(group.resolve("cgroup.procs"), Long.toString(pid));
            return new ForkCpuMeter(Optional.of(group), before);
        } catch (IOException | RuntimeException e) {
            return new ForkCpuMeter(Optional.empty(), CPUACCT);
        }
    }

    /** The cpuacct group this JVM is in now (/proc/self/cgroup's line of that controller). */
    private static Path currentGroup() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
            String[] f = line.split(":", 3);
            if (f.length == 3 && List.of(f[1].split(",")).contains("cpuacct")) {
                return CPUACCT.resolve(f[2].replaceFirst("^/", ""));
            }
        }
        throw new IOException("no cpuacct line in /proc/self/cgroup");
    }

    /** Where the figures come from, for the record. */
    String source() {
        return group.isPresent() ? "cgroup" : "process-tree";
    }

    /** CPU seconds so far (user and system), of this JVM and of what it started. */
    double cpuSeconds() {
        if (group.isPresent()) {
            try {
                return Long.parseLong(Files.readString(group.get().resolve("cpuacct.usage")).trim()) / 1e9;
            } catch (IOException | NumberFormatException e) {
                // the group went away: fall back to the tree
            }
        }
        return processTreeSeconds(ProcessHandle.current().pid());
    }

    /** Leaves the group (back to the one the JVM was in) and removes it when nothing of this JVM's is left in it. */
    void close() {
        group.ifPresent(g -> {
            try {
                Files.writeString(before.resolve("cgroup.procs"), Long.toString(ProcessHandle.current().pid()));
                Files.deleteIfExists(g);
            } catch (IOException | RuntimeException e) {
                // processes it started are still there: the next join removes the group once they have ended
            }
        });
    }

    private static void removeEndedGroups(Path parent) throws IOException {
        try (var groups = Files.list(parent)) {
            for (Path g : groups.filter(Files::isDirectory).toList()) {
                // NAME-PID: its JVM has ended, and nothing it started is left
                String pid = g.getFileName().toString().replaceFirst(".*-", "");
                if (!pid.matches("\\d+") || ProcessHandle.of(Long.parseLong(pid)).isPresent()) {
                    continue;
                }
                try {
                    if (Files.readString(g.resolve("cgroup.procs")).isBlank()) {
                        Files.deleteIfExists(g);
                    }
                } catch (IOException e) {
                    // another JVM removed it meanwhile
                }
            }
        }
    }

    /** /proc: utime, stime, cutime and cstime of {@code root} and of every live descendant, in seconds. */
    static double processTreeSeconds(long root) {
        return ProcessHandle.of(root).stream().flatMap(h -> java.util.stream.Stream.concat(java.util.stream.Stream.of(h), h.descendants()))
                .mapToLong(h -> ticks(h.pid())).sum() / 100.0; // USER_HZ is 100 on Linux
    }

    /** A process's own and its ended children's CPU ticks, from /proc/PID/stat; 0 once it has ended. */
    private static long ticks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // the fields after the command, which may hold spaces and parentheses: utime is the 12th
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]) + Long.parseLong(f[13]) + Long.parseLong(f[14]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
