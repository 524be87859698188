package dev.nimchart.render;

import java.net.URISyntaxException;
import java.nio.file.Path;

/** The tiny chart under src/test/resources the harness tests itself with. */
public final class FixtureChart {

    private FixtureChart() {
    }

    public static Path dir() {
        try {
            return Path.of(FixtureChart.class.getResource("/fixture-chart/Chart.yaml").toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
