package dev.nimchart.chart.apiserver;

import dev.nimchart.tiers.Tier;
import dev.nimchart.junit.DynamicChecks;
import dev.nimchart.chart.repository.RepositoryChart;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import dev.nimchart.junit.ChartTiers;
import dev.nimchart.sessions.TierSessions;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every refusal file ({@code values-examples/invalid/}) refused by {@code helm install} against a real kube-apiserver
 * with its expected message, leaving its namespace empty: the library's {@code ChartCheck.refusalTests(Tier.API)}, the
 * files checked in parallel. A class apart from {@link ExampleInstallIT}, so that the two run in two of Failsafe's forks
 * at once.
 */
@ExtendWith(ChartTiers.class)
class RefusalInstallIT {

    @TestFactory
    Stream<DynamicNode> everyRefusalFileIsRefusedAndLeavesItsNamespaceEmpty(TierSessions tiers) {
        return DynamicChecks.of(RepositoryChart.check().withSessions(tiers).refusalTests(Tier.API));
    }
}
