package dev.nimchart.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The last words of a controller that exits for a leader lease it could not renew, as each of the tier's controllers logs them. */
class LeaseLostTest {

    @Test
    void eachControllersLastWordsOnALostLeaseAreRecognisedAndARetryIsNot() {
        // mpi-operator v0.8.0 (klog.Fatal in its server), as logged in a cold run at a load of 11
        assertThat(LocalControllerEnvironment.LEASE_LOST.matcher(
                "F1130 05:49:17.197051   14280 server.go:242] Leader election stopped").find()).isTrue();
        // kube-controller-manager and kube-scheduler (OnStoppedLeading)
        assertThat(LocalControllerEnvironment.LEASE_LOST.matcher(
                "E1130 05:49:17.1 1 controllermanager.go:343] \"leaderelection lost\"").find()).isTrue();
        // the LWS controller and Kueue (controller-runtime's manager)
        assertThat(LocalControllerEnvironment.LEASE_LOST.matcher(
                "{\"level\":\"error\",\"msg\":\"problem running manager\",\"error\":\"leader election lost\"}").find()).isTrue();
        // a slow renewal that client-go retries is no exit
        assertThat(LocalControllerEnvironment.LEASE_LOST.matcher(
                "E1130 leaderelection.go:445] \"Failed to update lease optimistically, falling back to slow path\"").find()).isFalse();
    }
}
