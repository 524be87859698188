package dev.nimchart.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The whole-build figures of benchmarks/figures.tsv cannot go stale unnoticed: they carry the size of the suite they
 * were measured on (the tests that run executed, and {@link SuiteSize}'s count of test methods and values files), and
 * the suite of today may not have moved more than 10% from it; the per-class table names exactly today's cluster
 * classes. When this fails, re-record: {@code ci/benchmark.sh --verify} (a whole warm {@code mvn -B verify}).
 */
class BenchmarkRecordTest {

    private static final Path REPO = dev.nimchart.junit.RunSettings.get().chartDir().resolve("../..").normalize();
    private static final String RERECORD = "re-record the whole-build figures with ci/benchmark.sh --verify";

    private static Figures record() throws IOException {
        return Figures.read(REPO.resolve("benchmarks").resolve("figures.tsv"));
    }

    private static double recorded(Figures record, String section, String measure) {
        List<Figures.Figure> rows = record.select(section, measure);
        assertThat(rows).as("benchmarks/figures.tsv's %s/%s: %s", section, measure, RERECORD).hasSize(1);
        return rows.get(0).value();
    }

    @Test
    void theWarmBuildsTimeCarriesTheCountsOfItsOwnRun() throws IOException {
        Figures record = record();
        String measured = record.select("mvn-verify", "warm").stream().map(Figures.Figure::measured).findFirst().orElse("never");
        for (String count : List.of("offline", "cluster", "cluster-oldest-kubernetes", "test-methods", "values-files")) {
            recorded(record, "verify-tests", count);
            assertThat(record.select("verify-tests", count).get(0).measured()).as("verify-tests/%s against mvn-verify/warm's day: %s", count,
                    RERECORD).isEqualTo(measured);
        }
    }

    @Test
    void theSuiteHasNotMovedMoreThanTenPercentFromTheRecordedRun() throws IOException {
        Figures record = record();
        SuiteSize now = SuiteSize.of(REPO);
        double methods = recorded(record, "verify-tests", "test-methods");
        double files = recorded(record, "verify-tests", "values-files");
        assertThat(SuiteSize.moved(methods, now.testMethods())).as("test methods: %d now, %.0f in the recorded run; %s",
                now.testMethods(), methods, RERECORD).isFalse();
        assertThat(SuiteSize.moved(files, now.valuesFiles())).as("values files: %d now, %.0f in the recorded run; %s",
                now.valuesFiles(), files, RERECORD).isFalse();
    }

    @Test
    void thePerClassTableNamesExactlyTodaysClusterClasses() throws IOException {
        Set<String> recorded = new TreeSet<>();
        record().select("verify-class", "*").forEach(f -> recorded.add(f.measure()));
        assertThat(recorded).as("verify-class rows against the *IT classes of chart-tests and chart-tools; %s", RERECORD)
                .isEqualTo(SuiteSize.clusterClasses(REPO));
    }

    @Test
    void aMoveOfMoreThanTenPercentIsStaleAndLessIsNot() {
        assertThat(SuiteSize.moved(1263, 1858)).as("the offline tests of issue 43: 1,263 recorded, 1,858 run").isTrue();
        assertThat(SuiteSize.moved(100, 111)).isTrue();
        assertThat(SuiteSize.moved(100, 89)).isTrue();
        assertThat(SuiteSize.moved(100, 110)).isFalse();
        assertThat(SuiteSize.moved(100, 95)).isFalse();
        assertThat(SuiteSize.moved(0, 5)).as("nothing recorded").isTrue();
    }

    @Test
    void theSuiteIsCountedFromItsSources() {
        SuiteSize now = SuiteSize.of(REPO);
        assertThat(now.testMethods()).as("test methods").isGreaterThan(100);
        assertThat(now.valuesFiles()).as("values files").isGreaterThan(20);
        assertThat(SuiteSize.clusterClasses(REPO)).contains("ControllerLifecycleIT", "FaultIT").doesNotContain("TierSharingCheck");
    }
}
