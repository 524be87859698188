package dev.nimchart.chart.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The controller tier's explained warnings match the messages they were written for, and nothing a chart bug causes. */
class ExplainedWarningsTest {

    /** Warnings seen on the tier (the texts the controllers wrote), one per explained pattern at least. */
    private static final List<String> SEEN = List.of(
            "HorizontalPodAutoscaler/nim FailedGetPodsMetric: unable to get metric num_requests_waiting: unable to fetch metrics from"
                    + " custom metrics API: no custom metrics API (custom.metrics.k8s.io) registered (horizontal-pod-autoscaler)",
            "HorizontalPodAutoscaler/nim FailedComputeMetricsReplicas: invalid metrics (1 invalid out of 1), first error is: failed to"
                    + " get pods metric value: unable to get metric num_requests_waiting: unable to fetch metrics from custom metrics API:"
                    + " no custom metrics API (custom.metrics.k8s.io) registered (horizontal-pod-autoscaler)",
            "Service/nim ClusterIPNotAllocated: Cluster IP [IPv4]: 198.19.242.149 is not allocated; repairing (ipallocator-repair-controller)",
            "Pod/nim-lws-0-1 FailedScheduling: running Bind plugin \"DefaultBinder\": pods \"nim-lws-0-1\" not found (default-scheduler)",
            "Pod/nim-lws-0 FailedScheduling: running Bind plugin \"DefaultBinder\": Operation cannot be fulfilled on pods/binding"
                    + " \"nim-lws-0\": pod nim-lws-0 is being deleted, cannot be assigned to a host (default-scheduler)",
            "Endpoints/nim-0-c314e FailedToUpdateEndpoint: Failed to update endpoint life/nim-0-c314e: Operation cannot be fulfilled on"
                    + " endpoints \"nim-0-c314e\": StorageError: invalid object, Code: 4, Key: /registry/services/endpoints/life/nim-0-c314e,"
                    + " ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: 9cb893ae, UID in object meta:"
                    + "  (endpoint-controller)",
            "Pod/nim-77f6cdc6d9-t828g FailedScheduling: 0/16 nodes are available: pod has unbound immediate PersistentVolumeClaims."
                    + " not found (default-scheduler)",
            "Pod/single-node-llama-70b-8gpu-pvc-nim-llm-0 FailedScheduling: 0/24 nodes are available: persistentvolumeclaim"
                    + " \"model-store-single-node-llama-70b-8gpu-pvc-nim-llm-0\" not found. not found (default-scheduler)",
            "StatefulSet/single-node-llama-70b-8gpu-pvc-nim-llm FailedDelete: delete Pod single-node-llama-70b-8gpu-pvc-nim-llm-0 in"
                    + " StatefulSet single-node-llama-70b-8gpu-pvc-nim-llm failed error: pods \"single-node-llama-70b-8gpu-pvc-nim-llm-0\""
                    + " not found (statefulset-controller)",
            "Pod/g-nim-llm-lws-0 FailedResourceClaimCreation: PodResourceClaim compute-domain-channel: resource claim template"
                    + " \"g-nim-llm-channel\": resourceclaimtemplate.resource.k8s.io \"g-nim-llm-channel\" not found (resource_claim)");

    /** Warnings a chart bug causes (seen while the tier found the chart's bugs), which must never be explained away. */
    private static final List<String> CHART_BUGS = List.of(
            "MPIJob/nim-0 ValidationError: Found validation errors: spec.mpiReplicaSpecs[Worker].restartPolicy: Unsupported value:"
                    + " \"Always\": supported values: \"OnFailure\", \"Never\" (mpi-job-controller)",
            "ReplicaSet/nim-fbc856c48 FailedCreate: Error creating: pods \"nim-fbc856c48-\" is forbidden: no PriorityClass with name"
                    + " inference-high was found (replicaset-controller)",
            "Pod/nim-lws-0-1 FailedScheduling: 0/16 nodes are available: 16 Insufficient nvidia.com/gpu. (default-scheduler)",
            "PersistentVolumeClaim/cache ProvisioningFailed: storageclass.storage.k8s.io \"nfs\" not found (persistentvolume-controller)",
            "Pod/nim-0 FailedScheduling: running PreBind plugin \"VolumeBinding\": binding volumes: timed out (default-scheduler)",
            "StatefulSet/nim FailedDelete: delete Pod nim-0 in StatefulSet nim failed error: pods \"nim-0\" is forbidden: unable"
                    + " to delete (statefulset-controller)",
            "Pod/nim-lws-0 FailedResourceClaimCreation: PodResourceClaim gpus: resource claim template \"nim-gpus\": create"
                    + " ResourceClaim nim-lws-0-gpus-x: ResourceClaim.resource.k8s.io \"nim-lws-0-gpus-x\" is invalid (resource_claim)");

    @Test
    void everyExplanationMatchesTheWarningItWasWrittenFor() {
        assertThat(SEEN).allMatch(ExplainedWarnings::explains);
        for (ExplainedWarnings.Explained e : ExplainedWarnings.EXPLAINED) {
            assertThat(SEEN).as("a seen warning for %s", e.pattern()).anyMatch(w -> w.matches(e.pattern()));
            assertThat(e.why()).as("the reason of %s", e.pattern()).isNotBlank();
        }
    }

    @Test
    void warningsFromChartBugsAreNeverExplained() {
        assertThat(CHART_BUGS).noneMatch(ExplainedWarnings::explains);
    }
}
