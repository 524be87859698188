package dev.nimchart.junit;

import dev.nimchart.result.Check;
import dev.nimchart.result.CheckSkipped;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.opentest4j.TestAbortedException;

/**
 * The library's {@link Check} trees as JUnit 5 dynamic tests, for a {@code @TestFactory}:
 *
 * <pre>{@code
 * @TestFactory
 * Stream<DynamicNode> offlineTier() {
 *     return DynamicChecks.of(ChartCheck.of(Path.of("charts/acme-nim"), RunSettings.get()).withValues(Path.of("values")).offlineTests());
 * }
 * }</pre>
 *
 * The group the door returns stands for the factory itself: its checks become the factory's dynamic nodes (a test per
 * values file, named after it, its source the file's URI), a nested group a {@link DynamicContainer}. A check that
 * throws {@link CheckSkipped} is an aborted test with its reason.
 */
public final class DynamicChecks {

    private DynamicChecks() {
    }

    /** The check's tests as the dynamic nodes of a test factory (a group's checks; a single test as one node). */
    public static Stream<DynamicNode> of(Check check) {
        return check instanceof Check.Group group ? group.checks().stream().map(DynamicChecks::node) : Stream.of(node(check));
    }

    /** One check as one dynamic node: a test, or a container of its group's checks. */
    public static DynamicNode node(Check check) {
        if (check instanceof Check.Test test) {
            return DynamicTest.dynamicTest(test.name(), test.source().orElse(null), () -> run(test));
        }
        Check.Group group = (Check.Group) check;
        return DynamicContainer.dynamicContainer(group.name(), group.source().orElse(null), group.checks().stream().map(DynamicChecks::node));
    }

    private static void run(Check.Test test) throws Throwable {
        try {
            test.body().run();
        } catch (CheckSkipped skipped) {
            throw new TestAbortedException(skipped.getMessage(), skipped);
        }
    }
}
