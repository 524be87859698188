package com.acme.nim;

import dev.nimchart.ChartCheck;
import dev.nimchart.junit.DynamicChecks;
import dev.nimchart.junit.RunSettings;
import dev.nimchart.settings.Settings;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

/** Our vendored chart with our values: one test per values file, one for the fuzz run. */
@ExtendWith(RunSettings.class)
class AcmeNimChartTest {

    @TestFactory
    Stream<DynamicNode> offlineTier(Settings settings) {
        return DynamicChecks.of(ChartCheck.of(Path.of(System.getProperty("acme.chart.dir", "target/acme-nim")), settings)
                .withValues(Path.of("values"))
                .offlineTests());
    }
}
