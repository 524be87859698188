package dev.nimchart.chart.repository;

import dev.nimchart.controllers.ControllerEnvironment;
import dev.nimchart.sessions.ControllerSession;
import org.junit.jupiter.api.Assumptions;

/**
 * The one way a test says it needs the controller tier's own environment (its processes, fake nodes, stand-ins, pod
 * addresses): on a cluster the harness did not start ({@code -Dnim.cluster=kubeconfig}) the test is aborted with the
 * reason and checks nothing; the other tests of its class still run there.
 */
public final class OwnEnvironment {

    private OwnEnvironment() {
    }

    /** The session's environment, the tier's own; {@code needs}: what the test needs of it, said when it is not. */
    public static ControllerEnvironment required(ControllerSession session, String needs) {
        ControllerEnvironment env = session.environment();
        Assumptions.assumeTrue(env.startedByHarness(), () -> needs + ": needs the controller tier's own environment; this run is on"
                + " a cluster the harness did not start");
        return env;
    }
}
