package dev.nimchart.tiers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** Each file's refusal check runs once, what it threw is that file's alone, and a test rethrows it unchanged. */
class RefusalChecksInParallelTest {

    @Test
    void everyFileIsCheckedOnceAndKeepsItsOwnFailure() {
        List<Path> files = java.util.stream.IntStream.range(0, 40).mapToObj(i -> Path.of("invalid", i + ".yaml")).toList();
        Set<Path> seen = ConcurrentHashMap.newKeySet();
        Map<Path, Optional<Throwable>> results = RefusalChecksInParallel.run(files, f -> {
            assertThat(seen.add(f)).as("%s checked once", f).isTrue();
            if (f.getFileName().toString().startsWith("1")) {
                throw new AssertionError("not refused: " + f);
            }
        });
        assertThat(seen).containsExactlyInAnyOrderElementsOf(files);
        assertThat(results).hasSize(files.size());
        results.forEach((f, failure) -> assertThat(failure.map(Throwable::getMessage))
                .as("%s", f).isEqualTo(f.getFileName().toString().startsWith("1") ? Optional.of("not refused: " + f) : Optional.empty()));
    }

    @Test
    void aTestRethrowsItsFilesFailureUnchanged() {
        AssertionError failure = new AssertionError("helm install: not refused");
        assertThatThrownBy(() -> RefusalChecksInParallel.rethrow(Optional.of(failure))).isSameAs(failure);
        RefusalChecksInParallel.rethrow(Optional.empty());
    }
}
