package dev.nimchart.settings;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;

/**
 * A bash script run as a process: every line it prints is progress, passed on as it comes; its stdout is also the
 * result. A failure throws {@link ToolUnavailableException} with the last lines it printed.
 */
public final class ScriptRun {

    private static final int KEPT_LINES = 40;

    private ScriptRun() {
    }

    /** Runs {@code bash script args...}; returns stdout, or throws with the last lines of output on failure. */
    public static String run(Path script, List<String> args, Consumer<String> progress) {
        String name = script.getParent() == null ? script.toString() : script.getParent().getFileName() + "/" + script.getFileName();
        List<String> command = new ArrayList<>(List.of("bash", script.toString()));
        command.addAll(args);
        Process process;
        try {
            process = new ProcessBuilder(command).start();
        } catch (IOException e) {
            throw new ToolUnavailableException("cannot run " + String.join(" ", command) + ": " + e.getMessage(), e);
        }
        Deque<String> tail = new ArrayDeque<>();
        Consumer<String> shown = line -> {
            synchronized (tail) {
                tail.addLast(line);
                if (tail.size() > KEPT_LINES) {
                    tail.removeFirst();
                }
            }
            progress.accept(line);
        };
        Thread stderr = new Thread(() -> forEachLine(process.getErrorStream(), shown), script.getFileName() + "-stderr");
        stderr.start();
        StringBuilder out = new StringBuilder();
        forEachLine(process.getInputStream(), line -> {
            out.append(line).append('\n');
            shown.accept(line);
        });
        try {
            int exit = process.waitFor();
            stderr.join();
            if (exit != 0) {
                throw new ToolUnavailableException(name + " failed (exit " + exit + "):\n" + String.join("\n", tail));
            }
        } catch (InterruptedException e) {
            process.destroy();
            Thread.currentThread().interrupt();
            throw new ToolUnavailableException("interrupted while running " + name, e);
        }
        return out.toString().trim();
    }

    /** The last line of a script's output that names an existing file: the path a {@code --print-path} script printed. */
    public static Path printedPath(String output, String what) {
        return output.lines().map(String::strip).filter(l -> !l.isEmpty()).map(Path::of).filter(Files::isRegularFile)
                .reduce((a, b) -> b)
                .orElseThrow(() -> new IllegalStateException(what + " printed no path:\n" + output));
    }

    /** The last line of a script's output that names an existing directory (a script that prints where it built). */
    public static Path printedDirectory(String output, String what) {
        return output.lines().map(String::strip).filter(l -> !l.isEmpty()).map(Path::of).filter(Files::isDirectory)
                .reduce((a, b) -> b)
                .orElseThrow(() -> new IllegalStateException(what + " printed no directory:\n" + output));
    }

    private static void forEachLine(InputStream in, Consumer<String> action) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                action.accept(line);
            }
        } catch (IOException e) {
            action.accept("(output lost: " + e.getMessage() + ")");
        }
    }
}
