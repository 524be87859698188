package dev.nimchart.controllers;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * What a step of a release came to, for the result-returning flavour of {@link InstalledRelease} (as terratest's
 * {@code InstallE} beside {@code Install}): its value, or the failure it threw (an exception or an assertion the step
 * made, e.g. a desired state not reached in time). {@link #get()} returns the value or rethrows the failure.
 */
public record Outcome<T>(T value, Throwable failure) {

    /** Runs the step; a RuntimeException or AssertionError it throws becomes the failure. */
    public static <T> Outcome<T> of(Supplier<T> step) {
        try {
            return new Outcome<>(step.get(), null);
        } catch (RuntimeException | AssertionError e) {
            return new Outcome<>(null, e);
        }
    }

    /** Runs a step that returns nothing (its value is {@code true} when it succeeded). */
    public static Outcome<Boolean> ofRun(Runnable step) {
        return of(() -> {
            step.run();
            return Boolean.TRUE;
        });
    }

    public boolean ok() {
        return failure == null;
    }

    /** The failure's message ("" when it succeeded). */
    public String message() {
        return failure == null ? "" : Objects.toString(failure.getMessage(), failure.toString());
    }

    /** The value, or the failure thrown again. */
    public T get() {
        if (failure instanceof RuntimeException r) {
            throw r;
        }
        if (failure instanceof AssertionError a) {
            throw a;
        }
        return value;
    }
}
