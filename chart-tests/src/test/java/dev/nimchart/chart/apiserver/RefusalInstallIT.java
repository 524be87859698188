package dev.nimchart.chart.apiserver;

import dev.nimchart.chart.repository.RepositoryChart;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * Every refusal file ({@code values-examples/invalid/}) refused by {@code helm install} against a real kube-apiserver
 * with its expected message, leaving its namespace empty: the library's {@code ChartCheck.apiServerRefusalTests()}, the
 * files checked in parallel. A class apart from {@link ExampleInstallIT}, so that the two run in two of Failsafe's forks
 * at once.
 */
class RefusalInstallIT {

    @TestFactory
    Stream<DynamicNode> everyRefusalFileIsRefusedAndLeavesItsNamespaceEmpty() {
        return RepositoryChart.check().apiServerRefusalTests();
    }
}
