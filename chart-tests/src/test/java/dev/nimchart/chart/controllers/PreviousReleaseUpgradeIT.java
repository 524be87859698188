package dev.nimchart.chart.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.Example;
import dev.nimchart.chart.repository.Examples;
import dev.nimchart.chart.repository.PodSecurityExceptions;
import dev.nimchart.chart.repository.PodTemplateChanges;
import dev.nimchart.chart.repository.PreviousRelease;
import dev.nimchart.chart.repository.TemplateChangeReasons;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.controllers.ControllerEnvironment;
import dev.nimchart.controllers.ExpectedPods;
import dev.nimchart.controllers.InstalledRelease;
import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.controllers.Outcome;
import dev.nimchart.render.Release;
import dev.nimchart.junit.ControllerTier;
import dev.nimchart.sessions.ControllerSession;
import dev.nimchart.sessions.TierNamespaces;
import dev.nimchart.sessions.Timings;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.settings.SettingsFromProperties;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The upgrade users make: every example installed with the PREVIOUS released chart version (from the repository's
 * history: {@link PreviousRelease}) and that release's copy of the values file, reconciled by the real controllers,
 * then {@code helm upgrade} to this chart with the same values, then {@code helm rollback} to the first revision. Each
 * step must be accepted by the API server and the chart, reach the desired state again, keep the model cache claims
 * (UID and bound volume) and the SSH key, and replace no pod unless a pod template changed, each change explained by a
 * CHANGELOG entry of this version ({@link TemplateChangeReasons}). An example the previous release did not have has
 * nothing to upgrade from: this version's CHANGELOG section must name it as new. Several examples run at once, each in its own namespace ({@code
 * -Dnim.upgrade.parallel}, default 2: the fake GPU pools are small, and an example whose nodes another holds waits for
 * them within the reconcile timeout), on one controller tier. Every run's result goes to
 * target/controller-tier/previous-release-upgrade.tsv.
 */
@ExtendWith(ControllerTier.class)
class PreviousReleaseUpgradeIT {

    private static final Duration TIMEOUT = SettingsFromProperties.shared().reconcileTimeout();
    /** How long the pods must stay the same after a step that changes no pod template. */
    private static final Duration STEADY = Duration.ofSeconds(3);
    private static final int PARALLEL = Integer.getInteger("nim.upgrade.parallel", 2);

    @TestFactory
    Stream<DynamicTest> everyExampleUpgradesFromThePreviousReleaseAndRollsBack(ControllerSession session) throws IOException {
        PreviousRelease previous = PreviousRelease.required();
        TemplateChangeReasons reasons = TemplateChangeReasons.load();
        List<String> outsideChangelog = reasons.notInTheChangelog();
        String current = ChartUnderTest.chart().version();
        ExecutorService pool = Executors.newFixedThreadPool(PARALLEL);
        List<Path> examples = Examples.all().toList();
        Map<Path, CompletableFuture<List<String>>> runs = new java.util.LinkedHashMap<>();
        for (Path example : examples) {
            previous.example(example.getFileName().toString()).ifPresent(values -> runs.put(example,
                    CompletableFuture.supplyAsync(() -> upgradeAndRollBack(session, example, values, previous, reasons), pool)));
        }
        pool.shutdown();
        StringBuilder report = new StringBuilder("example\tfrom " + previous.version() + " (" + previous.commit().substring(0, 12) + ") to "
                + current + "\n");
        List<DynamicTest> tests = new ArrayList<>();
        tests.add(DynamicTest.dynamicTest("every reason is a CHANGELOG entry of " + current, () -> assertThat(outsideChangelog)
                .as("template-change-reasons.yaml entries whose text is not in CHANGELOG.md [%s]", current).isEmpty()));
        for (Path example : examples) {
            String name = example.getFileName().toString();
            CompletableFuture<List<String>> run = runs.get(example);
            tests.add(DynamicTest.dynamicTest(name, () -> {
                if (run == null) {
                    record(report, name, "new in " + current + ": not an example of chart " + previous.version() + ", nothing to upgrade from");
                    TemplateChangeReasons.assertNewExampleAnnounced(name, previous);
                    return;
                }
                List<String> problems = run.join();
                record(report, name, problems.isEmpty() ? "upgraded and rolled back" : "FAILED: " + String.join("; ", problems));
                assertThat(problems).as("%s: upgrade from chart %s to %s and rollback", name, previous.version(), current).isEmpty();
            }));
        }
        tests.add(DynamicTest.dynamicTest("every reason explains a change an example makes", () -> {
            Path file = Files.createDirectories(dev.nimchart.sessions.ControllerTierLifecycle.reportDir(dev.nimchart.junit.RunSettings.get())).resolve("previous-release-upgrade.tsv");
            Files.writeString(file, report);
            assertThat(reasons.unused()).as("template-change-reasons.yaml entries that explain no pod template change (report: %s)", file)
                    .isEmpty();
        }));
        return tests.stream();
    }

    private static synchronized void record(StringBuilder report, String example, String result) {
        report.append(example).append('\t').append(result).append('\n');
    }

    /** The problems of one example's upgrade from the previous release and rollback; empty when it held. */
    private static List<String> upgradeAndRollBack(ControllerSession session, Path example, Path previousValues, PreviousRelease previous,
            TemplateChangeReasons reasons) {
        ControllerEnvironment env = session.environment();
        KubeApi api = env.api();
        String name = example.getFileName().toString();
        String release = ChartUnderTest.releaseName(example);
        List<String> problems = new ArrayList<>();
        String namespace = TierNamespaces.create(api, "prev-" + release, PodSecurityExceptions.level(Example.of(example)));
        long started = System.nanoTime();
        try {
            InstalledRelease installed = session.install(Release.of(previous.chartDir(), release, namespace, List.of(previousValues)));
            RenderedManifest before = installed.rendered();
            NamespaceState first = installed.awaitReady(pods(previousValues, before), TIMEOUT);
            ReleaseKeepsakes keepsakes = ReleaseKeepsakes.of(first);

            Outcome<InstalledRelease> upgraded = installed.tryUpgrade(Release.of(ChartUnderTest.chartDir(), release, namespace, List.of(previousValues)));
            if (!upgraded.ok()) {
                problems.add("helm upgrade to this chart refused: " + upgraded.message());
                return problems;
            }
            RenderedManifest after = installed.rendered();
            Map<String, List<String>> changes = PodTemplateChanges.between(before, after);
            reasons.unexplained(name, changes).forEach(c -> problems.add("pod template change no CHANGELOG entry explains"
                    + " (template-change-reasons.yaml): " + c));
            NamespaceState second = settle(installed, pods(previousValues, after), first, changes, "the upgrade", problems);
            if (!ReleaseKeepsakes.of(second).keeps(keepsakes)) {
                problems.add("the upgrade changed the cache claims or the SSH key: " + keepsakes + " -> " + ReleaseKeepsakes.of(second));
            }

            Outcome<String> rolledBack = installed.tryRollback(1);
            if (!rolledBack.ok()) {
                problems.add("helm rollback to revision 1 failed: " + rolledBack.message());
                return problems;
            }
            NamespaceState third = settle(installed, pods(previousValues, before), second, PodTemplateChanges.between(after, before),
                    "the rollback", problems);
            if (!ReleaseKeepsakes.of(third).equals(keepsakes)) {
                problems.add("the rollback changed the cache claims or the SSH key: " + keepsakes + " -> " + ReleaseKeepsakes.of(third));
            }
        } catch (RuntimeException | AssertionError e) {
            problems.add(e.getClass().getSimpleName() + ": " + e.getMessage());
        } finally {
            Timings.record(dev.nimchart.sessions.ControllerTierLifecycle.reportDir(dev.nimchart.junit.RunSettings.get()), "previous release, upgrade and rollback: " + name, Duration.ofNanos(System.nanoTime() - started));
            TierNamespaces.delete(api, namespace, env::requireAllRunning, env.settleTimeout());
        }
        return problems;
    }

    /**
     * Waits for the desired state after a step; with no pod template changed, the serving pods must stay the same ones;
     * with changes, the controllers replace the changed workloads' pods. A step that changed no workload's spec (every
     * {@code metadata.generation} as before) gives no controller a reason to replace a pod, and the desired state
     * already has every controller caught up with its spec; one that changed a spec otherwise than in its pod template
     * is read again after {@link #STEADY}, in case a controller acts on it late.
     */
    private static NamespaceState settle(InstalledRelease installed, int pods, NamespaceState before, Map<String, List<String>> changes,
            String step, List<String> problems) {
        NamespaceState state = installed.awaitReady(pods, TIMEOUT);
        if (changes.isEmpty()) {
            if (!generations(state).equals(generations(before))) {
                dev.nimchart.cluster.LocalProcess.sleep(STEADY.toMillis());
                state = installed.awaitReady(pods, TIMEOUT);
            }
            Set<String> replaced = new TreeSet<>(uids(before));
            replaced.removeAll(uids(state));
            if (!replaced.isEmpty()) {
                problems.add(step + " changed no pod template but replaced pods " + before.servingPods().stream()
                        .filter(p -> replaced.contains(String.valueOf(p.at("metadata.uid")))).map(KubeObject::name).toList());
            }
        }
        return state;
    }

    /** Each workload's kind, name and metadata.generation. */
    private static Map<String, String> generations(NamespaceState state) {
        return state.workloads().stream().collect(Collectors.toMap(w -> w.kind() + "/" + w.name(),
                w -> String.valueOf(w.at("metadata.generation")), (a, b) -> a, java.util.TreeMap::new));
    }

    private static Set<String> uids(NamespaceState state) {
        return state.servingPods().stream().map(p -> String.valueOf(p.at("metadata.uid"))).collect(Collectors.toCollection(TreeSet::new));
    }

    /** The pods the values ask for (nim-llm's own count, as the controller tier's checks use), else the workloads'. */
    private static int pods(Path values, RenderedManifest rendered) {
        try {
            return ExpectedPods.of(Example.of(values).values.raw());
        } catch (RuntimeException notRenderableHere) {
            return ExpectedPods.fromWorkloads(rendered);
        }
    }
}
