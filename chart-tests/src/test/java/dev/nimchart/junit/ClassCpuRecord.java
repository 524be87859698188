package dev.nimchart.junit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Where a run's CPU time goes, for ci/benchmark.sh --verify: each test class's wall and CPU time (the JVM's and every
 * process it started meanwhile, tier starts included: a tier starts in the class that asks first, {@link ForkCpuMeter})
 * and the whole JVM's, one file per test JVM. Only when the JVM is given {@code -Dnim.cpu.record=PREFIX}
 * (chart-tests/pom.xml gives each Surefire and Failsafe execution its own); it writes {@code PREFIX-PID.tsv}:
 * {@code class <tab> wall seconds <tab> CPU seconds <tab> source}, and last {@code (jvm)} with the whole JVM's from its
 * first test plan to its exit (its tiers' stop included). The
 * classes' lines mean something only where a JVM runs one class at a time (Failsafe's forks; Surefire runs two at a
 * time, so only its {@code (jvm)} line is used). Registered in META-INF/services for this repository's own runs.
 */
public class ClassCpuRecord implements TestExecutionListener {

    private record Mark(long nanos, double cpu) {
    }

    private final Map<String, Mark> started = new ConcurrentHashMap<>();

    /** The JVM's meter: joined at its first test plan, read for the last time as the JVM exits. */
    private static ForkCpuMeter meter;
    private static Path file;

    /**
     * Surefire and Failsafe run each class as a test plan of its own in a JVM they reuse: the JVM joins the meter once,
     * at its first plan, and its own line is written as it exits, after JUnit has closed the launcher session (and
     * with it the tiers the classes shared), so their stop counts too.
     */
    @Override
    public void testPlanExecutionStarted(TestPlan plan) {
        synchronized (ClassCpuRecord.class) {
            String prefix = System.getProperty("nim.cpu.record", "");
            if (meter != null || prefix.isBlank()) {
                return;
            }
            file = Path.of(prefix + "-" + ProcessHandle.current().pid() + ".tsv").toAbsolutePath();
            meter = ForkCpuMeter.join();
            Mark jvm = new Mark(System.nanoTime(), meter.cpuSeconds());
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                write("(jvm)", jvm);
                meter.close();
            }, "class-cpu-record"));
        }
    }

    @Override
    public void executionStarted(TestIdentifier id) {
        if (meter != null && isClass(id)) {
            started.put(id.getUniqueId(), now());
        }
    }

    @Override
    public void executionFinished(TestIdentifier id, org.junit.platform.engine.TestExecutionResult result) {
        Mark start = started.remove(id.getUniqueId());
        if (meter != null && start != null) {
            write(((ClassSource) id.getSource().orElseThrow()).getClassName(), start);
        }
    }

    private static boolean isClass(TestIdentifier id) {
        return id.isContainer() && id.getSource().filter(ClassSource.class::isInstance).isPresent();
    }

    private static Mark now() {
        return new Mark(System.nanoTime(), meter.cpuSeconds());
    }

    private static synchronized void write(String name, Mark start) {
        Mark end = now();
        String line = String.format("%s\t%.3f\t%.3f\t%s%n", name, (end.nanos() - start.nanos()) / 1e9, end.cpu() - start.cpu(), meter.source());
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, line, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
