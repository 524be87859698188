package dev.nimchart.chart.repository;

import dev.nimchart.cluster.KubeApi;
import dev.nimchart.controllers.ControllerEnvironment;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.sessions.ControllerSession;
import dev.nimchart.sessions.TierNamespaces;
import java.nio.file.Path;

/**
 * A namespace of its own on the controller tier for one example's release, at the Pod Security level the example
 * declares ({@link PodSecurityExceptions#level}); closing it deletes the namespace and checks that every controller
 * still runs.
 */
public final class ReleaseNamespace implements AutoCloseable {

    public final Example example;
    public final ControllerEnvironment env;
    public final KubeApi api;
    /** The example's release name ({@link ChartUnderTest#releaseName}). */
    public final String release;
    /** The namespace's name. */
    public final String namespace;

    private ReleaseNamespace(ControllerSession session, Path file, String namespace) {
        this.example = Example.of(file);
        this.env = session.environment();
        this.api = env.api();
        this.release = ChartUnderTest.releaseName(file);
        this.namespace = TierNamespaces.create(api, namespace, PodSecurityExceptions.level(example));
    }

    /** The namespace {@code prefix} + the example's release name. */
    public static ReleaseNamespace prefixed(ControllerSession session, Path file, String prefix) {
        return new ReleaseNamespace(session, file, prefix + ChartUnderTest.releaseName(file));
    }

    /** The namespace {@code name}. */
    public static ReleaseNamespace named(ControllerSession session, Path file, String name) {
        return new ReleaseNamespace(session, file, name);
    }

    @Override
    public void close() {
        TierNamespaces.delete(api, namespace, env::requireAllRunning);
    }
}
