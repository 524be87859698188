package dev.nimchart.toytier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nimchart.ChartCheck;
import dev.nimchart.Verdict;
import dev.nimchart.render.FixtureChart;
import dev.nimchart.result.Check;
import dev.nimchart.result.CheckSkipped;
import dev.nimchart.settings.Settings;
import dev.nimchart.tiers.CheckOptions;
import dev.nimchart.tiers.Tier;
import dev.nimchart.tiers.TierCheck;
import dev.nimchart.tiers.TierFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A new tier is three places (as {@link TierCheck} says), shown with a toy tier written here, outside the library and
 * its packages, with the library's public API only, as a downstream user would write one: (1) its {@link TierCheck},
 * {@link FileNamesChecks}; (2) its {@link Tier}, {@link #FILE_NAMES}; (3) its registration with its
 * {@link TierFactory}, {@code ChartCheck.withTier}. The door then runs it as it runs the library's tiers: its checks
 * appear in the door's result tree under the tier's name, a failure in it is a failing check and a failing verdict.
 */
class ToyTierTest {

    /** Place 2: the tier, a name and whether it checks the refusal files. */
    static final Tier FILE_NAMES = Tier.named("file-names", true);

    /**
     * Place 1: the tier's checks. A file that must install has a kebab-case name; a refusal file declares the error it
     * expects on its first line. Its own check: the chart's values.yaml is there.
     */
    static final class FileNamesChecks implements TierCheck {
        private static final Pattern KEBAB = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*\\.ya?ml");

        private final CheckOptions options;
        private final AtomicInteger starts;

        FileNamesChecks(CheckOptions options, AtomicInteger starts) {
            this.options = options;
            this.starts = starts;
        }

        @Override
        public void start() {
            starts.incrementAndGet();
        }

        @Override
        public void install(Path valuesFile) {
            String name = valuesFile.getFileName().toString();
            if (!KEBAB.matcher(name).matches()) {
                throw new AssertionError("the name is not in kebab case: " + name);
            }
        }

        @Override
        public void refuse(Path valuesFile) {
            try {
                if (!Files.readAllLines(valuesFile).get(0).startsWith("# expect-error:")) {
                    throw new AssertionError("its first line declares no expect-error");
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public List<Check.Test> ownChecks() {
            return List.of(Check.test("values.yaml is there", () -> {
                if (!Files.isRegularFile(options.chartDir().resolve("values.yaml"))) {
                    throw new AssertionError("the chart has no values.yaml");
                }
            }));
        }
    }

    @TempDir
    Path dir;

    private final AtomicInteger starts = new AtomicInteger();
    private ChartCheck check;

    @BeforeEach
    void aChartWithTheToyTier() throws IOException {
        Files.writeString(dir.resolve("good-name.yaml"), "replicaCount: 1\n");
        Files.writeString(dir.resolve("Bad_Name.yaml"), "replicaCount: 1\n");
        Path invalid = Files.createDirectories(dir.resolve("invalid"));
        Files.writeString(invalid.resolve("declared.yaml"), "# expect-error: at '/replicaCount'\nreplicaCount: -1\n");
        Files.writeString(invalid.resolve("undeclared.yaml"), "replicaCount: -1\n");
        // place 3: registered, with the factory that makes its checks from the door's options
        TierFactory factory = (options, sessions) -> new FileNamesChecks(options, starts);
        check = ChartCheck.of(FixtureChart.dir(), Settings.defaults().withWorkDir(dir.resolve("work")))
                .withValues(dir).withTier(FILE_NAMES, factory);
    }

    @Test
    void theToyTierRunsAfterTheLibrarysAndOnlyOnTheCheckThatRegisteredIt() {
        assertThat(check.allTiers()).containsExactly(Tier.OFFLINE, Tier.API, Tier.CONTROLLERS, Tier.STARTUP, FILE_NAMES);
        assertThat(ChartCheck.tiers()).as("the library's tiers, which the command line offers").doesNotContain(FILE_NAMES);
        assertThatThrownBy(() -> ChartCheck.of(FixtureChart.dir()).withValues(dir).tierTests(FILE_NAMES))
                .hasMessageContaining("the tier 'file-names' is not registered on this check");
        assertThatThrownBy(() -> ChartCheck.tier("file-names")).hasMessage("unknown tier 'file-names': offline, api, controllers, startup or all");
    }

    @Test
    void itsChecksAreInTheDoorsResultTreeAndAFailureInItFails() {
        Check tree = check.tierTests(FILE_NAMES);

        assertThat(tree.name()).isEqualTo("file-names tier: " + FixtureChart.dir().getFileName());
        Map<String, String> outcomes = run(tree);
        assertThat(outcomes).as("one check per file, refusal files too, then the tier's own").containsExactly(
                Map.entry("Bad_Name.yaml", "failed: Bad_Name.yaml: the name is not in kebab case: Bad_Name.yaml"),
                Map.entry("good-name.yaml", "passed"),
                Map.entry("invalid/declared.yaml", "passed"),
                Map.entry("invalid/undeclared.yaml", "failed: invalid/undeclared.yaml: its first line declares no expect-error"),
                Map.entry("values.yaml is there", "passed"));
        assertThat(starts).as("started once, by the first check that needed it").hasValue(1);
        assertThat(tree.source()).isEmpty();
        assertThat(((Check.Group) tree).checks().get(0).source()).contains(dir.resolve("Bad_Name.yaml").toUri());
    }

    @Test
    void itsVerdictsNameItsFilesAndItsOwnCheck() {
        Map<String, Verdict> verdicts = new LinkedHashMap<>();
        check.verdicts(FILE_NAMES).forEach(v -> verdicts.put(Path.of(v.subject()).getFileName().toString(), v));

        assertThat(verdicts.values()).allSatisfy(v -> assertThat(v.tier()).isSameAs(FILE_NAMES));
        assertThat(verdicts.keySet()).containsExactly("Bad_Name.yaml", "good-name.yaml", "declared.yaml", "undeclared.yaml",
                "values.yaml is there");
        assertThat(verdicts.get("Bad_Name.yaml").reason()).isEqualTo("the name is not in kebab case: Bad_Name.yaml");
        assertThat(verdicts.get("undeclared.yaml").reason()).isEqualTo("its first line declares no expect-error");
        assertThat(verdicts.get("good-name.yaml").ok()).isTrue();
        assertThat(verdicts.get("declared.yaml").ok()).isTrue();
        assertThat(verdicts.get("values.yaml is there").ok()).isTrue();
    }

    @Test
    void aTierThatChecksNoRefusalsIsNotGivenThem() {
        Tier installsOnly = Tier.named("installs-only", false);
        Check tree = check.withTier(installsOnly, (options, sessions) -> new FileNamesChecks(options, starts)).tierTests(installsOnly);

        assertThat(run(tree).keySet()).containsExactly("Bad_Name.yaml", "good-name.yaml", "values.yaml is there");
    }

    @Test
    void aNameTakenOrNotATierNameIsRefused() {
        assertThatThrownBy(() -> check.withTier(Tier.named("offline", true), (options, sessions) -> new FileNamesChecks(options, starts)))
                .hasMessage("a tier named 'offline' is registered already: offline, api, controllers, startup, file-names");
        assertThatThrownBy(() -> Tier.named("all", false)).hasMessageContaining("not 'all'");
        assertThatThrownBy(() -> Tier.named("File Names", false)).hasMessageContaining("lower case letters, digits and dashes");
    }

    @Test
    void aCheckIsAnImmutableValue() {
        ChartCheck other = check.withFuzz(3, 4).withWorkDir(dir.resolve("elsewhere"));

        assertThat(check.options().fuzzCount()).isEqualTo(ChartCheck.DEFAULT_FUZZ_COUNT);
        assertThat(check.settings().workDir()).isEqualTo(dir.resolve("work"));
        assertThat(other.options().fuzzCount()).isEqualTo(3);
        assertThat(other.settings().workDir()).isEqualTo(dir.resolve("elsewhere"));
        assertThat(other.allTiers()).as("the copy keeps the registered tier").contains(FILE_NAMES);
    }

    /** Each test of a tree by name: "passed", "skipped: reason" or "failed: message", in the tree's order. */
    private static Map<String, String> run(Check tree) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Check c : ((Check.Group) tree).checks()) {
            Check.Test test = (Check.Test) c;
            try {
                test.body().run();
                out.put(test.name(), "passed");
            } catch (CheckSkipped e) {
                out.put(test.name(), "skipped: " + e.getMessage());
            } catch (Throwable e) {
                out.put(test.name(), "failed: " + e.getMessage());
            }
        }
        return out;
    }
}
