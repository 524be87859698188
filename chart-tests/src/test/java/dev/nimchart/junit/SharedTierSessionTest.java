package dev.nimchart.junit;

import dev.nimchart.sessions.TierStarts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request;

import dev.nimchart.progress.Progress;
import dev.nimchart.settings.Settings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;

/**
 * One environment per tier per test JVM, as Maven's Surefire and Failsafe run a forked JVM's classes with
 * {@code forkCount > 1}: one launcher session, one execution request per class. A tier that counts its starts is
 * shared by two classes run so, started once, recorded once and stopped when the session closes. (Kept in the root
 * context's store, as from 2026-11-27 to issue 43, it started once per class.)
 */
class SharedTierSessionTest {

    private static final AtomicInteger STARTS = new AtomicInteger();
    private static final AtomicInteger STOPS = new AtomicInteger();
    private static final Set<String> SEEN = ConcurrentHashMap.newKeySet();
    private static volatile Path workDir;

    /** A tier whose environment is a string naming its start. */
    public static final class CountingTier extends SharedTier<String> {
        public CountingTier() {
            super("counting tier", String.class, Settings.defaults().withWorkDir(workDir), Progress.NONE);
        }

        @Override
        protected String start() {
            return "environment " + STARTS.incrementAndGet();
        }

        @Override
        protected void stop(String session) {
            STOPS.incrementAndGet();
        }
    }

    @ExtendWith(CountingTier.class)
    static class FirstClass {
        @Test
        void usesTheTier(String environment) {
            SEEN.add(environment);
        }
    }

    @ExtendWith(CountingTier.class)
    static class SecondClass {
        @Test
        void usesTheTier(String environment) {
            SEEN.add(environment);
        }
    }

    @Test
    void twoClassesRunAsTwoExecutionsOfOneLauncherSessionShareOneEnvironment(@TempDir Path dir) throws Exception {
        workDir = dir;
        long succeeded = 0;
        try (LauncherSession session = LauncherFactory.openSession()) {
            for (Class<?> testClass : List.of(FirstClass.class, SecondClass.class)) {
                SummaryGeneratingListener summary = new SummaryGeneratingListener();
                session.getLauncher().execute(request().selectors(selectClass(testClass)).build(), summary);
                assertThat(summary.getSummary().getTotalFailureCount()).as("failures of %s", testClass.getSimpleName()).isZero();
                succeeded += summary.getSummary().getTestsSucceededCount();
            }
            assertThat(STARTS).as("environments started for the two classes").hasValue(1);
            assertThat(STOPS).as("stopped before the session ends").hasValue(0);
        }
        assertThat(succeeded).as("the two classes' tests").isEqualTo(2);
        assertThat(SEEN).containsExactly("environment 1");
        assertThat(STOPS).as("stopped when the session closed").hasValue(1);
        assertThat(TierStarts.read(List.of(dir.resolve(TierStarts.FILE)))).as("recorded starts").singleElement()
                .satisfies(s -> assertThat(s.tier()).isEqualTo("counting tier"));
        assertThat(Files.readString(dir.resolve(TierStarts.FILE))).contains(FirstClass.class.getName());
    }
}
