package dev.nimchart.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PollTest {

    @Test
    void aConditionThatHoldsAtOnceIsReadOnceAndNeverPauses() {
        AtomicInteger reads = new AtomicInteger();
        AtomicInteger rounds = new AtomicInteger();
        Poll.Result<Integer> r = Poll.upTo(Duration.ofSeconds(5)).checking(rounds::incrementAndGet).until(reads::incrementAndGet, n -> n >= 1);
        assertThat(r.held()).isTrue();
        assertThat(r.last()).isEqualTo(1);
        assertThat(reads).hasValue(1);
        assertThat(rounds).hasValue(0);
    }

    @Test
    void itReadsAgainAfterEachPauseAndRunsTheCheckOfEachRoundUntilTheValueHolds() {
        AtomicInteger reads = new AtomicInteger();
        AtomicInteger rounds = new AtomicInteger();
        int value = Poll.upTo(Duration.ofSeconds(5)).every(1).checking(rounds::incrementAndGet)
                .until(reads::incrementAndGet, n -> n == 4).orElseThrow(n -> new AssertionError("not " + n));
        assertThat(value).isEqualTo(4);
        assertThat(rounds).hasValue(3);
    }

    @Test
    void pastTheLimitItFailsWithTheLastValueRead() {
        AtomicInteger reads = new AtomicInteger();
        long started = System.nanoTime();
        Poll.Result<Integer> r = Poll.upTo(Duration.ofMillis(150)).every(20).until(reads::incrementAndGet, n -> false);
        assertThat(r.held()).isFalse();
        assertThat(r.last()).isEqualTo(reads.get()).isGreaterThan(2);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(150));
        assertThatThrownBy(() -> r.orElseThrow(n -> new IllegalStateException("still not after " + n + " reads")))
                .isInstanceOf(IllegalStateException.class).hasMessage("still not after " + reads.get() + " reads");
    }

    @Test
    void aFailingCheckOfARoundEndsTheWaitAtOnce() {
        AtomicInteger reads = new AtomicInteger();
        assertThatThrownBy(() -> Poll.upTo(Duration.ofSeconds(30)).checking(() -> {
            throw new IllegalStateException("the process ended");
        }).until(reads::incrementAndGet, n -> false)).hasMessage("the process ended");
        assertThat(reads).hasValue(1);
    }

    @Test
    void growingPausesStartAtTheIntervalAndStopAtTheLongest() {
        AtomicInteger reads = new AtomicInteger();
        Poll.upTo(Duration.ofMillis(400)).every(20).growingTo(Duration.ofMillis(40)).until(reads::incrementAndGet, n -> false);
        // Pauses 20, 30, 40, 40, ...: at most about 11 reads in 400 ms (a loaded machine only makes them fewer); pauses
        // that stayed at 20 ms would make about 20.
        assertThat(reads.get()).isBetween(2, 14);
    }

    @Test
    void aBooleanConditionSaysWhetherItCameToHold() {
        AtomicInteger reads = new AtomicInteger();
        assertThat(Poll.upTo(Duration.ofSeconds(5)).every(1).until(() -> reads.incrementAndGet() == 3)).isTrue();
        assertThat(Poll.upTo(Duration.ofMillis(30)).every(5).until(() -> false)).isFalse();
    }

    @Test
    void throughoutRunsTheCheckEachRoundUntilTheLimitAndStopsAtItsFirstFailure() {
        AtomicInteger checks = new AtomicInteger();
        long started = System.nanoTime();
        Poll.upTo(Duration.ofMillis(300)).every(50).throughout(checks::incrementAndGet);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
        assertThat(checks.get()).as("checks in 300 ms, one every 50 ms (fewer on a loaded machine)").isBetween(2, 8);

        AtomicInteger failing = new AtomicInteger();
        assertThatThrownBy(() -> Poll.upTo(Duration.ofSeconds(30)).every(10).throughout(() -> {
            if (failing.incrementAndGet() == 3) {
                throw new IllegalStateException("no longer holds");
            }
        })).hasMessage("no longer holds");
        assertThat(failing.get()).isEqualTo(3);
    }
}
