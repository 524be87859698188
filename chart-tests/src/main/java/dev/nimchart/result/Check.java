package dev.nimchart.result;

import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the library's door hands back to be run: a tree of named checks, each a {@link Test} (a body that returns when
 * the check passes, throws an {@link AssertionError} or any other exception when it fails, and {@link CheckSkipped}
 * when it does not apply on this machine) or a {@link Group} of checks. A check's source is the file it checks, when
 * there is one. The tree knows no test framework: {@code dev.nimchart.junit.DynamicChecks} turns it into JUnit 5's
 * dynamic tests (same names, same sources), and any other runner can walk it. Immutable; a body runs only when the
 * runner calls it.
 */
public sealed interface Check permits Check.Test, Check.Group {

    /** What a test runs: returns when the check passes, throws when it fails (or {@link CheckSkipped} when it does not apply). */
    @FunctionalInterface
    interface Body {
        void run() throws Throwable;
    }

    /** The check's name, as a runner shows it (e.g. {@code invalid/bad-port.yaml}). */
    String name();

    /** The file or resource it checks, if any (a runner may link to it). */
    Optional<URI> source();

    /** One check. */
    record Test(String name, Optional<URI> source, Body body) implements Check {
        public Test {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(body, "body");
        }
    }

    /** Checks under one name; the runner runs them in order. */
    record Group(String name, Optional<URI> source, List<Check> checks) implements Check {
        public Group {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(source, "source");
            checks = List.copyOf(checks);
        }
    }

    static Test test(String name, Body body) {
        return new Test(name, Optional.empty(), body);
    }

    static Test test(String name, URI source, Body body) {
        return new Test(name, Optional.of(source), body);
    }

    /** A check that does not apply here, for this reason (its body throws {@link CheckSkipped}). */
    static Test skipped(String name, String reason) {
        return test(name, () -> {
            throw new CheckSkipped(reason);
        });
    }

    static Group group(String name, List<? extends Check> checks) {
        return new Group(name, Optional.empty(), List.copyOf(checks));
    }
}
