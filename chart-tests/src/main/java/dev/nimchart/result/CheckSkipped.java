package dev.nimchart.result;

/**
 * Thrown by a check's body when the check does not apply on this machine (a tier that cannot run here without CI=true,
 * a fuzz run of a chart without a values schema): the runner reports it skipped, with this reason, rather than passed
 * or failed. JUnit's adapter ({@code dev.nimchart.junit.DynamicChecks}) turns it into an aborted test.
 */
public final class CheckSkipped extends RuntimeException {

    public CheckSkipped(String reason) {
        super(reason);
    }
}
