package dev.nimchart.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The record {@link TierSharingCheck} judges a run by: a second start of a tier in one JVM is named, one per JVM is not. */
class TierStartsTest {

    @Test
    void aSecondStartOfATierInOneJvmIsNamedWithTheClassesThatAsked(@TempDir Path fork1, @TempDir Path fork2) throws Exception {
        TierStarts.record(fork1, "controller tier", "a.FirstIT");
        TierStarts.record(fork1, "cluster tier", "a.FirstIT");
        TierStarts.record(fork1, "controller tier", "a.SecondIT");
        Files.writeString(fork2.resolve(TierStarts.FILE), "controller tier\t42@2026-11-29T05:00:00Z\tb.OtherIT\n");

        List<TierStarts.Start> starts = TierStarts.read(List.of(fork1.resolve(TierStarts.FILE), fork2.resolve(TierStarts.FILE),
                fork2.resolve("missing.tsv")));

        assertThat(starts).hasSize(4);
        assertThat(TierStarts.startedTwice(starts)).singleElement().asString()
                .startsWith("controller tier in JVM " + TierStarts.thisJvm() + ": 2 starts")
                .contains("a.FirstIT, a.SecondIT");
        assertThat(TierStarts.jvmsPerTier(starts)).isEqualTo(Map.of("controller tier", 2L, "cluster tier", 1L));
    }

    @Test
    void oneStartPerTierPerJvmIsSharing(@TempDir Path fork) {
        TierStarts.record(fork, "controller tier", "a.FirstIT");
        TierStarts.record(fork, "cluster tier", "a.SecondIT");

        assertThat(TierStarts.startedTwice(TierStarts.read(List.of(fork.resolve(TierStarts.FILE))))).isEmpty();
    }
}
