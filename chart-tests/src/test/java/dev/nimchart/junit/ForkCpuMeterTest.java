package dev.nimchart.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The CPU meter of a test JVM counts the time of the processes it started, after they ended too. */
class ForkCpuMeterTest {

    /** A shell that keeps one core busy for about half a second of CPU time, then ends. */
    private static void burnInAChild() throws Exception {
        Process p = new ProcessBuilder("bash", "-c", "end=$((SECONDS + 1)); i=0; while (( i < 400000 && SECONDS <= end )); do i=$((i + 1)); done")
                .redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void theProcessTreeCountsAChildThatEnded() throws Exception {
        long self = ProcessHandle.current().pid();
        double before = ForkCpuMeter.processTreeSeconds(self);
        burnInAChild();
        double after = ForkCpuMeter.processTreeSeconds(self);
        assertThat(after - before).as("CPU seconds the ended child added to this JVM's tree").isGreaterThan(0.2);
    }

    @Test
    void theMeterCountsAChildThatEndedWhateverItsSource() throws Exception {
        ForkCpuMeter meter = ForkCpuMeter.join("test");
        try {
            assertThat(meter.source()).isIn("cgroup", "process-tree");
            double before = meter.cpuSeconds();
            burnInAChild();
            assertThat(meter.cpuSeconds() - before).as("CPU seconds (%s) the ended child added", meter.source()).isGreaterThan(0.2);
        } finally {
            meter.close();
        }
    }
}
