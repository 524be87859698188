package dev.nimchart.chart;

import java.util.List;

/**
 * Warning events that come from what the controller tier lacks, not from the chart (README, "What the controller tier
 * does not prove"): no metrics server and no custom metrics adapter, so an autoscaler reads no metric (it still
 * reads its target's scale and keeps the minimum replicas, which the tier checks).
 */
final class EnvironmentLimits {

    private static final List<String> EXPLAINED = List.of(
            "HorizontalPodAutoscaler/\\S+ Failed(GetResourceMetric|GetPodsMetric|GetObjectMetric|GetExternalMetric|ComputeMetricsReplicas): "
                    + ".*(unable to get metrics for resource|no custom metrics API|no external metrics API|unable to fetch metrics from).*");

    private EnvironmentLimits() {
    }

    static boolean explains(String warning) {
        return EXPLAINED.stream().anyMatch(warning::matches);
    }
}
