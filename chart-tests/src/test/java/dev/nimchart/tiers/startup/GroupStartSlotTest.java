package dev.nimchart.tiers.startup;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GroupStartSlotTest {

    @Test
    void aSecondStartWaitsUntilTheFirstGivesTheSlotBackAndSaysWhy(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("locks/group-start.lock");
        List<String> said = new CopyOnWriteArrayList<>();
        CountDownLatch secondHasIt = new CountDownLatch(1);
        Thread second;
        try (GroupStartSlot first = GroupStartSlot.take(file, said::add)) {
            second = new Thread(() -> {
                try (GroupStartSlot slot = GroupStartSlot.take(file, said::add)) {
                    secondHasIt.countDown();
                }
            });
            second.start();
            assertThat(secondHasIt.await(300, TimeUnit.MILLISECONDS)).as("the second start waits while the first holds the slot").isFalse();
        }
        assertThat(secondHasIt.await(10, TimeUnit.SECONDS)).as("the second start runs once the first is done").isTrue();
        second.join(10_000);
        assertThat(said).isEmpty();
        try (GroupStartSlot again = GroupStartSlot.take(file, said::add)) {
            assertThat(file).exists();
        }
    }
}
