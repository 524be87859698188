package dev.nimchart.junit;

import dev.nimchart.sessions.TierStarts;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * After every cluster class of a run (Failsafe's execution {@code tier-sharing}, phase post-integration-test, in
 * chart-tests/pom.xml): no forked test JVM started a tier's environment more than once, so no run starts more
 * environments of a tier than it has forks. Reads what {@link SharedTier} recorded in each fork's work directory
 * ({@code target/it-fork-N/target/tier-starts.tsv}; the pom removes the previous run's before the cluster classes
 * start). Its name ends in neither Test nor IT, so only that execution runs it.
 */
class TierSharingCheck {

    @Test
    void everyForkedJvmStartedEachTierAtMostOnce() throws IOException {
        int forks = Integer.parseInt(System.getProperty("nim.it.forks", "1"));
        List<Path> records;
        try (Stream<Path> forkDirs = Files.list(Path.of("target"))) {
            records = forkDirs.filter(d -> d.getFileName().toString().startsWith("it-fork-"))
                    .map(d -> d.resolve("target").resolve(TierStarts.FILE)).filter(Files::isRegularFile).sorted().toList();
        }
        List<TierStarts.Start> starts = TierStarts.read(records);
        System.out.println("tier starts of this run, JVMs per tier: " + TierStarts.jvmsPerTier(starts) + " (" + starts.size()
                + " starts in " + records + "; " + forks + " forks)");

        assertThat(TierStarts.startedTwice(starts))
                .as("tiers started again in a JVM that had one: JUnit's adapters share one per tier per JVM (SharedTier)").isEmpty();
        assertThat(TierStarts.jvmsPerTier(starts).values()).as("JVMs that started a tier, against the run's %d forks", forks)
                .allMatch(n -> n <= forks);
    }
}
