package dev.nimchart.chart;

import dev.nimchart.TierResults;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * Writes every finished test to the file of {@code -Dnim.results.file} (nothing when it is unset), in the format
 * {@link TierResults} reads: ci/check-chart.sh turns the cluster tiers' results into its table this way. A skipped
 * test is written as such, so it shows as a failure there, never as a pass.
 */
public final class TierResultsListener implements TestExecutionListener {

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        if (!id.isTest() && result.getStatus() == TestExecutionResult.Status.SUCCESSFUL) {
            return;
        }
        String message = result.getThrowable().map(t -> t.getClass().getSimpleName().equals("AssertionError")
                || t.getClass().getName().startsWith("org.opentest4j") ? String.valueOf(t.getMessage()) : t.toString()).orElse("");
        write(id, result.getStatus().name(), message);
    }

    @Override
    public void executionSkipped(TestIdentifier id, String reason) {
        write(id, "SKIPPED", reason);
    }

    private static void write(TestIdentifier id, String status, String message) {
        String file = System.getProperty(TierResults.RESULTS_FILE, "");
        if (file.isBlank()) {
            return;
        }
        String className = id.getSource().map(s -> s instanceof MethodSource m ? m.getClassName()
                : s instanceof ClassSource c ? c.getClassName() : "").orElse("");
        if (className.isEmpty()) {
            return;
        }
        String name = id.isTest() ? id.getDisplayName() : TierResults.WHOLE_CLASS;
        try {
            Files.writeString(Path.of(file), TierResults.line(className, name, status, message),
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
