package dev.nimchart.chart;

import dev.nimchart.NimChart;
import dev.nimchart.cluster.ClusterUnavailableException;
import dev.nimchart.cluster.HelmReleases;
import dev.nimchart.controllers.ControllerEnvironment;
import dev.nimchart.controllers.ControllerTierException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The controller tier's one environment per test JVM (real controllers on fake GPU nodes), handed to tests as a
 * {@link ControllerSession}: started on first use (building the binaries if needed), stopped when the JVM's tests end.
 * Without it the tier fails when CI=true and is skipped, with the reason, otherwise. Start timings go to
 * target/controller-tier/timings.tsv.
 */
final class ControllerTier implements BeforeAllCallback, ParameterResolver {

    static final Path REPORT_DIR = Path.of("target", "controller-tier");

    /** The environment and Helm releases bound to it. */
    record ControllerSession(ControllerEnvironment environment, HelmReleases releases) {
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        started(context).sessionOrAbort();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == ControllerSession.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return started(context).sessionOrAbort();
    }

    private static Started started(ExtensionContext context) {
        return context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                .getOrComputeIfAbsent(Started.class, k -> Started.start(), Started.class);
    }

    private record Started(ControllerSession session, RuntimeException failure) implements AutoCloseable {

        static Started start() {
            try {
                java.nio.file.Files.deleteIfExists(REPORT_DIR.resolve("timings.tsv"));
                ControllerEnvironment environment = ControllerEnvironment.start(REPORT_DIR.toAbsolutePath(),
                        line -> System.out.println("[controller tier] " + line));
                for (Map.Entry<String, java.time.Duration> t : environment.startTimes().entrySet()) {
                    Timings.record(REPORT_DIR, "start: " + t.getKey(), t.getValue());
                }
                return new Started(new ControllerSession(environment,
                        new HelmReleases(NimChart.chartDir(), environment.kubeConfigYaml(), REPORT_DIR.resolve("helm"))), null);
            } catch (ControllerTierException | ClusterUnavailableException e) {
                return new Started(null, e);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        ControllerSession sessionOrAbort() {
            if (session != null) {
                session.environment().requireAllRunning();
                return session;
            }
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new AssertionError("CI=true and the controller tier could not start: " + failure.getMessage(), failure);
            }
            System.out.println("[controller tier] SKIPPED (CI is not true; with CI=true this fails the build): " + failure.getMessage());
            Assumptions.abort("controller tier skipped (CI is not true): " + failure.getMessage());
            return null;
        }

        @Override
        public void close() {
            if (session != null) {
                session.environment().close();
            }
        }
    }
}
