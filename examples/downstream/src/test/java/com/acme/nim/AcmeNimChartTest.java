package com.acme.nim;

import dev.nimchart.ChartCheck;
import dev.nimchart.junit.DynamicChecks;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;

/** Our vendored chart with our values: one test per values file, one for the fuzz run. */
class AcmeNimChartTest {

    @TestFactory
    Stream<DynamicNode> offlineTier() {
        return DynamicChecks.of(ChartCheck.of(Path.of(System.getProperty("acme.chart.dir", "target/acme-nim")))
                .values(Path.of("values"))
                .offlineTests());
    }
}
