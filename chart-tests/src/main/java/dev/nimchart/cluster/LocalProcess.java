package dev.nimchart.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One process of the controller tier: started with its output in a log file of its own, known by its PID, ready when
 * its own check says so, and stopped by that PID (its children too). When it dies, or does not get ready in time, the
 * error names it and carries the tail of its log. It never outlives the JVM that started it, however the JVM ends
 * (killed by a timeout or by hand included): a small bash watchdog runs it and stops it once the JVM is gone.
 */
public final class LocalProcess implements AutoCloseable {

    private static final int TAIL_LINES = 25;

    /** Runs "$@" and waits for it; stops it (TERM, then KILL) when the JVM with PID $1 is gone. Exits with its code. */
    private static final String WATCHDOG = """
            jvm=$1; shift
            "$@" & child=$!
            trap 'kill -TERM "$child" 2>/dev/null; wait "$child"; exit $?' TERM INT
            while kill -0 "$jvm" 2>/dev/null && kill -0 "$child" 2>/dev/null; do sleep 1; done
            if kill -0 "$child" 2>/dev/null; then
              kill -TERM "$child"; sleep 5; kill -KILL "$child" 2>/dev/null
            fi
            wait "$child"
            """;

    private final String name;
    private final List<String> command;
    private final Map<String, String> env;
    private final Path log;
    private volatile Process process;
    /** The last readiness check {@link #awaitReady} passed, so that {@link #restart} awaits the same one. */
    private String readyWhat;
    private BooleanSupplier readyCheck;

    private LocalProcess(String name, List<String> command, Map<String, String> env, Process process, Path log) {
        this.name = name;
        this.command = List.copyOf(command);
        this.env = Map.copyOf(env);
        this.process = process;
        this.log = log;
    }

    /**
     * How long a started process of the tiers (etcd, kube-apiserver, the controllers, the webhooks) may take to answer
     * its health check. Generous on purpose: on a 2-core machine running five test JVMs, each starting its own tiers,
     * kube-apiserver 1.37 was seen taking more than 60 s; a process that is ready sooner is used at once.
     */
    public static final java.time.Duration START_TIMEOUT = java.time.Duration.ofSeconds(180);

    /** Starts {@code command} with extra environment variables; stdout and stderr go to {@code <logDir>/<name>.log}. */
    public static LocalProcess start(String name, List<String> command, Map<String, String> env, Path logDir) {
        Path log = logDir.resolve(name + ".log");
        try {
            Files.createDirectories(logDir);
            return new LocalProcess(name, command, env, launch(command, env, log, false), log);
        } catch (IOException e) {
            throw new ClusterUnavailableException("cannot start " + name + " (" + command.get(0) + "): " + e.getMessage(), e);
        }
    }

    /** The command under the watchdog, its output to the log (appended on a restart). */
    private static Process launch(List<String> command, Map<String, String> env, Path log, boolean append) throws IOException {
        List<String> watched = new ArrayList<>(List.of("bash", "-c", WATCHDOG, "watchdog", Long.toString(ProcessHandle.current().pid())));
        watched.addAll(command);
        ProcessBuilder builder = new ProcessBuilder(watched).redirectErrorStream(true)
                .redirectOutput(append ? ProcessBuilder.Redirect.appendTo(log.toFile()) : ProcessBuilder.Redirect.to(log.toFile()));
        // Never a kubeconfig of the calling JVM (Maven points KUBECONFIG at the lookup stub): only what the caller passes.
        builder.environment().remove("KUBECONFIG");
        builder.environment().putAll(env);
        return builder.start();
    }

    /**
     * Starts the same command again (stopping it first if it runs), its output appended to the same log,
     * and waits for the readiness check it last passed; returns how long that took.
     */
    public Duration restart(Duration timeout) {
        if (process.isAlive()) {
            close();
        }
        try {
            Files.writeString(log, "\n--- restarted by the harness ---\n", java.nio.file.StandardOpenOption.APPEND);
            process = launch(command, env, log, true);
        } catch (IOException e) {
            throw new ClusterUnavailableException("cannot restart " + name + " (" + command.get(0) + "): " + e.getMessage(), e);
        }
        return readyCheck == null ? Duration.ZERO : awaitReady(readyWhat, readyCheck, timeout);
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    public boolean alive() {
        return process.isAlive();
    }

    public Path log() {
        return log;
    }

    /** Polls {@code ready} until it holds; fails with the log tail when the process exits or the time runs out. */
    public Duration awaitReady(String what, BooleanSupplier ready, Duration timeout) {
        readyWhat = what;
        readyCheck = ready;
        long started = System.nanoTime();
        boolean ok = Poll.upTo(timeout).every(50).until(() -> {
            if (!process.isAlive()) {
                throw new ClusterUnavailableException(name + " exited with code " + process.exitValue() + " before " + what
                        + "; last lines of " + log + ":\n" + tail());
            }
            try {
                return ready.getAsBoolean();
            } catch (RuntimeException e) {
                return false;
            }
        });
        if (!ok) {
            throw new ClusterUnavailableException(name + " (PID " + pid() + ") was not ready (" + what + ") within "
                    + timeout.toSeconds() + " s; last lines of " + log + ":\n" + tail());
        }
        return Duration.ofNanos(System.nanoTime() - started);
    }

    /** Fails with the log tail when the process is no longer running. */
    public void requireAlive() {
        if (!process.isAlive()) {
            throw new ClusterUnavailableException(name + " died (exit code " + process.exitValue() + "); last lines of " + log + ":\n" + tail());
        }
    }

    /** The last lines of the log. */
    public String tail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }

    /** Stops the process and its descendants by PID: SIGTERM, then SIGKILL after five seconds. */
    @Override
    public void close() {
        closeTogether(List.of(this));
    }

    /**
     * Stops these processes and their descendants at once (each is asked to end, then given up to 5 s, then killed):
     * for processes that do not need each other to shut down, so their graceful shutdowns overlap.
     */
    public static void closeTogether(List<LocalProcess> processes) {
        List<ProcessHandle> tree = new ArrayList<>();
        for (LocalProcess local : processes) {
            tree.addAll(local.process.descendants().toList());
            tree.add(local.process.toHandle());
        }
        tree.forEach(ProcessHandle::destroy);
        for (ProcessHandle p : tree) {
            try {
                p.onExit().get(5, TimeUnit.SECONDS);
            } catch (Exception e) {
                p.destroyForcibly();
            }
        }
    }

    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterUnavailableException("interrupted", e);
        }
    }

    @Override
    public String toString() {
        return name + " (PID " + pid() + ")";
    }
}
