package dev.nimchart.chart;

import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.cluster.ClusterUnavailableException;
import dev.nimchart.cluster.HelmReleases;
import dev.nimchart.controllers.ControllerEnvironment;
import dev.nimchart.controllers.ControllerTierException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The controller tier's one environment per test JVM (real controllers on fake GPU nodes), handed to tests as a
 * {@link ControllerSession}: started on first use (building the binaries if needed), stopped when the JVM's tests end.
 * Without it the tier fails when CI=true and is skipped, with the reason, otherwise. Timings go to
 * target/controller-tier/timings.tsv.
 */
final class ControllerTier extends SharedTier<ControllerTier.ControllerSession> {

    static final Path REPORT_DIR = Path.of("target", "controller-tier");

    /** The environment and Helm releases bound to it. */
    record ControllerSession(ControllerEnvironment environment, HelmReleases releases) {
    }

    ControllerTier() {
        super("controller tier", ControllerSession.class);
    }

    @Override
    ControllerSession start() {
        try {
            Files.deleteIfExists(REPORT_DIR.resolve("timings.tsv"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ControllerEnvironment environment = ControllerEnvironment.start(REPORT_DIR.toAbsolutePath(),
                line -> System.out.println("[controller tier] " + line));
        for (Map.Entry<String, java.time.Duration> t : environment.startTimes().entrySet()) {
            Timings.record(REPORT_DIR, "start: " + t.getKey(), t.getValue());
        }
        return new ControllerSession(environment, new HelmReleases(ChartUnderTest.chartDir(), environment.kubeConfigYaml(), REPORT_DIR.resolve("helm")));
    }

    @Override
    boolean unavailable(RuntimeException failure) {
        return failure instanceof ControllerTierException || failure instanceof ClusterUnavailableException;
    }

    @Override
    void stop(ControllerSession session) {
        session.environment().close();
    }

    @Override
    void check(ControllerSession session) {
        session.environment().requireAllRunning();
    }
}
