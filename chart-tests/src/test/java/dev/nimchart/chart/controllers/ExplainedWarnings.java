package dev.nimchart.chart.controllers;

import java.util.List;

/**
 * The only Warning events the controller tier accepts, each with why it says nothing about the chart (docs/tiers.md, "What
 * the controller tier does not prove"). All are transient: a state they would leave behind (a pod never scheduled, a
 * claim never bound) still fails the example's desired state. Any other Warning event of a release fails its example.
 */
final class ExplainedWarnings {

    /** A warning pattern ("Kind/name Reason: message (source)") and the reason it is not the chart's doing. */
    record Explained(String pattern, String why) {
    }

    static final List<Explained> EXPLAINED = List.of(
            new Explained("HorizontalPodAutoscaler/\\S+ Failed(GetResourceMetric|GetPodsMetric|GetObjectMetric|GetExternalMetric|ComputeMetricsReplicas): "
                    + ".*(unable to get metrics for resource|no custom metrics API|no external metrics API|unable to fetch metrics from).*",
                    "the tier runs no metrics server and no custom metrics adapter; the autoscaler still reads its target's"
                            + " scale and keeps the minimum replicas, which the tier checks"),
            new Explained("Service/\\S+ ClusterIPNotAllocated: Cluster IP \\[IPv4\\]: \\S+ is not allocated; repairing \\(ipallocator-repair-controller\\)",
                    "kube-apiserver's ClusterIP repair loop (every 3 minutes) can read a new Service before its IP"
                            + " allocation is visible and reports it; an upstream race, kubernetes/kubernetes#37488"),
            new Explained("Pod/\\S+ FailedScheduling: running Bind plugin \"DefaultBinder\": (pods \"\\S+\" not found"
                    + "|Operation cannot be fulfilled on pods/binding \"\\S+\": pod \\S+ is being deleted, cannot be assigned to a host)"
                    + " \\(default-scheduler\\)",
                    "during a rollout or a replacement the workload's controller deleted the pod while kube-scheduler was"
                            + " binding it (the replacement pod is scheduled normally); seen on LeaderWorkerSet group recreation"),
            new Explained("Endpoints/\\S+ FailedToUpdateEndpoint: Failed to update endpoint \\S+: Operation cannot be fulfilled on"
                    + " endpoints \"\\S+\": StorageError: invalid object, .*Precondition failed: UID in precondition: .* \\(endpoint-controller\\)",
                    "the legacy Endpoints controller updated the Endpoints of a Service that was being deleted (an MPIJob"
                            + " replaced by an upgrade takes its headless Service with it); the Service and its Endpoints are gone"),
            new Explained("Pod/\\S+ FailedScheduling: 0/\\d+ nodes are available: pod has unbound immediate PersistentVolumeClaims\\."
                    + "( not found)? \\(default-scheduler\\)",
                    "kube-scheduler saw the pod before the claim that the same helm install created was bound (or in its"
                            + " cache); it retries once the claim binds. A claim that never binds leaves the pod Pending, which"
                            + " fails the example's desired state"),
            new Explained("Pod/\\S+ FailedScheduling: 0/\\d+ nodes are available: persistentvolumeclaim \"\\S+\" not found\\."
                    + "( not found)? \\(default-scheduler\\)",
                    "a StatefulSet's controller creates a pod's claim from its volumeClaimTemplates just before the pod,"
                            + " and kube-scheduler's watch of pods can deliver the pod before its watch of claims delivers the"
                            + " claim; it retries when the claim arrives. A claim that never appears leaves the pod Pending,"
                            + " which fails the example's desired state"),
            new Explained("StatefulSet/\\S+ FailedDelete: delete Pod (\\S+) in StatefulSet \\S+ failed error: pods \"\\1\" not found"
                    + " \\(statefulset-controller\\)",
                    "the StatefulSet controller deleted a pod of a rolling update that was already gone (its own earlier"
                            + " delete, completed by the fake kubelet before the controller's cache saw it); the pod's"
                            + " replacement is made as usual, and one that never comes fails the example's desired state"),
            new Explained("Pod/\\S+ FailedResourceClaimCreation: PodResourceClaim \\S+: resource claim template \"\\S+\": "
                    + "resourceclaimtemplate\\.resource\\.k8s\\.io \"\\S+\" not found \\(resource_claim\\)",
                    "a ComputeDomain's channel template is made by the ComputeDomain controller after the domain exists,"
                            + " and Helm creates a LeaderWorkerSet before a ResourceClaimTemplate (unknown kinds go in"
                            + " alphabetical order), so the workload's pods can reach the resource-claim controller first;"
                            + " it retries. A template that never appears leaves the pod without its claim and Pending,"
                            + " which fails the example's desired state"));

    private ExplainedWarnings() {
    }

    static boolean explains(String warning) {
        return EXPLAINED.stream().anyMatch(e -> warning.matches(e.pattern()));
    }
}
