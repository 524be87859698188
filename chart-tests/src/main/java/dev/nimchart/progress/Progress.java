package dev.nimchart.progress;

import java.io.PrintStream;
import java.util.function.Consumer;

/**
 * Where the library says what it is doing (a tier starting, a tier skipped, a process restarted): one line at a time.
 * The library prints nothing itself; its caller chooses: the JUnit adapters and the command behind
 * {@code ci/check-chart.sh} give it {@link #console(String)} (a line per event on standard output, prefixed with the
 * tier's name in brackets, as {@code [cluster tier] ...}), a caller that wants silence {@link #NONE}. A
 * {@code Consumer<String>} too, so it goes wherever the library's pieces take one.
 */
@FunctionalInterface
public interface Progress extends Consumer<String> {

    /** Says nothing. */
    Progress NONE = line -> { };

    /** One line of progress. */
    void line(String line);

    @Override
    default void accept(String line) {
        line(line);
    }

    /** Lines on standard output, each as {@code [prefix] line}. */
    static Progress console(String prefix) {
        return to(System.out, prefix);
    }

    /** Lines on this stream, each as {@code [prefix] line}. */
    static Progress to(PrintStream out, String prefix) {
        return line -> out.println("[" + prefix + "] " + line);
    }
}
