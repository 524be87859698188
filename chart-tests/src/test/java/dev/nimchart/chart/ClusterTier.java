package dev.nimchart.chart;

import dev.nimchart.NimChart;
import dev.nimchart.cluster.ClusterSession;
import dev.nimchart.cluster.ClusterUnavailableException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The cluster tier's one cluster per test JVM, handed to tests as a {@link ClusterSession} parameter: started on
 * first use (building the local control plane if needed), torn down when the JVM's tests end. Without a cluster the
 * tier fails when CI=true and is skipped, with the reason, otherwise. Timings go to target/cluster-tier/timings.tsv.
 */
final class ClusterTier implements BeforeAllCallback, ParameterResolver {

    static final Path REPORT_DIR = Path.of("target", "cluster-tier");

    /** Fails (CI=true) or skips the whole test class, with the reason, when there is no cluster. */
    @Override
    public void beforeAll(ExtensionContext context) {
        started(context).sessionOrAbort();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == ClusterSession.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return started(context).sessionOrAbort();
    }

    private static Started started(ExtensionContext context) {
        return context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                .getOrComputeIfAbsent(Started.class, k -> Started.start(), Started.class);
    }

    /** Appends one timing line (what, milliseconds) to the tier's report. */
    static void record(String what, Duration time) {
        Timings.record(REPORT_DIR, what, time);
    }

    /** The started session, or why there is none; closing it tears the cluster down. */
    private record Started(ClusterSession session, ClusterUnavailableException failure) implements AutoCloseable {

        static Started start() {
            try {
                Files.deleteIfExists(REPORT_DIR.resolve("timings.tsv"));
                ClusterSession session = ClusterSession.start(NimChart.chartDir(), REPORT_DIR,
                        line -> System.out.println("[cluster tier] " + line));
                record("cluster start (" + session.cluster().description() + ")", session.cluster().startTime());
                record("cluster ready with CRDs", session.readyTime());
                return new Started(session, null);
            } catch (ClusterUnavailableException e) {
                return new Started(null, e);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        ClusterSession sessionOrAbort() {
            if (session != null) {
                return session;
            }
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new AssertionError("CI=true and the cluster tier has no cluster: " + failure.getMessage(), failure);
            }
            System.out.println("[cluster tier] SKIPPED (CI is not true; with CI=true this fails the build): " + failure.getMessage());
            Assumptions.abort("cluster tier skipped (CI is not true): " + failure.getMessage());
            return null;
        }

        @Override
        public void close() {
            if (session != null) {
                session.close();
            }
        }
    }
}
