package dev.nimchart.chart.startup;

import dev.nimchart.ChartCheck;
import dev.nimchart.chart.controllers.ReconciledExampleIT;
import dev.nimchart.chart.repository.Examples;
import dev.nimchart.chart.repository.NimLlmRules;
import dev.nimchart.render.ChartUnderTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/**
 * The start-up tier through the library's door, as a downstream team reaches it: the MPIJob example (its launcher
 * started once the workers are Ready) checked with {@code ChartCheck.startupTests()} and nim-llm's rules, on the
 * controller tier's one environment of the run. {@link StartupIT} holds the chart's own start-up checks.
 */
class StartupThroughTheDoorIT {

    @TestFactory
    Stream<DynamicNode> theMpiJobExampleStartsThroughTheDoor() throws IOException {
        Path dir = Files.createDirectories(Path.of("target", "startup-door", "values"));
        Files.copy(Examples.named("multi-node-llama-3.1-405b-mpijob.yaml"), dir.resolve("multi-node-llama-3.1-405b-mpijob.yaml"),
                StandardCopyOption.REPLACE_EXISTING);
        return ChartCheck.of(ChartUnderTest.chartDir()).values(dir).rules(new NimLlmRules())
                .reconcileTimeout(ReconciledExampleIT.RECONCILE_TIMEOUT).workDir(Path.of("target", "startup-door")).startupTests();
    }
}
