package dev.nimchart.cluster;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Waiting until something holds, the one way the harness waits: a time limit, an interval between two reads, a check
 * run each round (such as "the process still runs", which fails at once rather than at the deadline), and on a
 * time-out the last thing read, so the failure says what was seen. A value: {@code Poll.upTo(limit).every(interval)
 * .checking(alive).until(read, done)}.
 *
 * @param limit how long to wait in all
 * @param interval the first pause between two reads
 * @param longest each pause half as long again as the one before, up to this (equal to {@code interval}: a fixed pause)
 * @param eachRound run before each pause (after a read that did not satisfy)
 */
public record Poll(Duration limit, Duration interval, Duration longest, Runnable eachRound) {

    /** What a wait ended with: whether the condition held, and the last value read (the one that held, if it did). */
    public record Result<T>(boolean held, T last) {

        /** The value that held, or the exception {@code failure} makes of the last value read. */
        public <X extends Throwable> T orElseThrow(Function<? super T, X> failure) throws X {
            if (held) {
                return last;
            }
            throw failure.apply(last);
        }
    }

    /** Waits for up to {@code limit}, reading every 200 ms. */
    public static Poll upTo(Duration limit) {
        return new Poll(limit, Duration.ofMillis(200), Duration.ofMillis(200), () -> { });
    }

    public Poll every(Duration pause) {
        return new Poll(limit, pause, pause, eachRound);
    }

    /**
     * Each pause half as long again as the one before, up to {@code longest}: for a read that costs the machine (a
     * namespace listed kind by kind) over a long wait.
     */
    public Poll growingTo(Duration slowest) {
        return new Poll(limit, interval, slowest, eachRound);
    }

    public Poll every(long millis) {
        return every(Duration.ofMillis(millis));
    }

    public Poll checking(Runnable check) {
        return new Poll(limit, interval, longest, check);
    }

    /**
     * Reads until {@code done} holds for what was read, or the limit is spent: always at least one read, and one more
     * after each pause, so a value that holds at the deadline's edge still counts.
     */
    public <T> Result<T> until(Supplier<? extends T> read, Predicate<? super T> done) {
        long deadline = System.nanoTime() + limit.toNanos();
        long pause = interval.toMillis();
        T last = read.get();
        while (!done.test(last)) {
            eachRound.run();
            if (System.nanoTime() - deadline >= 0) {
                return new Result<>(false, last);
            }
            LocalProcess.sleep(pause);
            pause = Math.min(longest.toMillis(), Math.max(pause, pause * 3 / 2));
            last = read.get();
        }
        return new Result<>(true, last);
    }

    /** Whether {@code condition} came to hold within the limit. */
    public boolean until(BooleanSupplier condition) {
        return until(condition::getAsBoolean, Boolean::booleanValue).held();
    }

    /**
     * Runs {@code check} every round until the limit is spent: a state that must hold for a while, not one to wait for
     * ({@code check} throws at once when it does not hold).
     */
    public void throughout(Runnable check) {
        until(() -> {
            check.run();
            return Boolean.FALSE;
        }, Boolean::booleanValue);
    }
}
