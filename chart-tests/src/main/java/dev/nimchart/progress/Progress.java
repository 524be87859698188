package dev.nimchart.progress;

import java.io.PrintStream;
import java.util.function.Consumer;

/**
 * Where the library says what it is doing (a tier starting, a tier skipped, a process restarted): one line at a time.
 * The library prints nothing itself; its caller chooses: the JUnit adapters and the command behind
 * {@code ci/check-chart.sh} give it {@link #console()}, and each tier tags its lines with its name ({@link #tagged},
 * as {@code [cluster tier] ...}); a caller that wants silence gives {@link #NONE}. A
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

    /** The same lines, each as {@code [who] line}: what a tier says goes through its own tag ({@code cluster tier}). */
    default Progress tagged(String who) {
        Progress self = this;
        return self == NONE ? NONE : line -> self.line("[" + who + "] " + line);
    }

    /** Lines on standard output. */
    static Progress console() {
        return to(System.out);
    }

    /** Lines on standard output, each as {@code [prefix] line}. */
    static Progress console(String prefix) {
        return console().tagged(prefix);
    }

    /** Lines on this stream. */
    static Progress to(PrintStream out) {
        return out::println;
    }
}
