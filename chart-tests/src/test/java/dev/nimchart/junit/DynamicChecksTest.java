package dev.nimchart.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nimchart.result.Check;
import dev.nimchart.result.CheckSkipped;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

/** The door's checks as JUnit sees them: same names, same sources, a failure a failure and a skipped check aborted. */
class DynamicChecksTest {

    private static final URI FILE = URI.create("file:///values/invalid/bad.yaml");

    @Test
    void aGroupsChecksBecomeTheFactorysTestsWithTheirNamesAndSources() throws Throwable {
        Check tree = Check.group("offline tier: acme", List.of(
                Check.test("invalid/bad.yaml", FILE, () -> { }),
                Check.test("fuzz", () -> {
                    throw new AssertionError("2 of 50 documents failed");
                }),
                Check.skipped("no schema", "the chart has no values.schema.json"),
                Check.group("nested", List.of(Check.test("inner", () -> { })))));

        List<DynamicNode> nodes = DynamicChecks.of(tree).toList();

        assertThat(nodes).extracting(DynamicNode::getDisplayName).containsExactly("invalid/bad.yaml", "fuzz", "no schema", "nested");
        assertThat(nodes.get(0).getTestSourceUri()).contains(FILE);
        assertThat(nodes.get(1).getTestSourceUri()).isEmpty();
        ((DynamicTest) nodes.get(0)).getExecutable().execute();
        assertThatThrownBy(((DynamicTest) nodes.get(1)).getExecutable()::execute).isInstanceOf(AssertionError.class)
                .hasMessage("2 of 50 documents failed");
        assertThatThrownBy(((DynamicTest) nodes.get(2)).getExecutable()::execute).isInstanceOf(TestAbortedException.class)
                .hasMessage("the chart has no values.schema.json").hasCauseInstanceOf(CheckSkipped.class);
        assertThat(nodes.get(3)).isInstanceOf(DynamicContainer.class);
        assertThat(((DynamicContainer) nodes.get(3)).getChildren()).extracting(DynamicNode::getDisplayName).containsExactly("inner");
    }

    @Test
    void aSingleCheckIsOneTest() {
        assertThat(DynamicChecks.of(Check.test("one", () -> { }))).singleElement()
                .satisfies(n -> assertThat(n.getDisplayName()).isEqualTo("one"));
    }
}
