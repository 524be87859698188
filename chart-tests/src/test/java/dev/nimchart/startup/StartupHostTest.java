package dev.nimchart.startup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class StartupHostTest {

    @Test
    void aCommandThatOutlivesItsTimeoutIsStoppedAtTheTimeoutNotWhenItEnds() {
        long start = System.nanoTime();
        StartupHost.Result r = StartupHost.run(List.of("sleep", "30"), 1);
        assertThat((System.nanoTime() - start) / 1_000_000_000L).as("seconds until run returned").isLessThan(10);
        assertThat(r.exit()).isEqualTo(-1);
        assertThat(r.output()).startsWith("timed out after 1 s");
    }

    @Test
    void aCommandsExitAndOutputComeBack() {
        StartupHost.Result r = StartupHost.run(List.of("sh", "-c", "echo out; echo err >&2; exit 3"), 10);
        assertThat(r.exit()).isEqualTo(3);
        assertThat(r.output()).isEqualTo("out\nerr");
    }
}
