package dev.nimchart.chart.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.ChartCheck;
import dev.nimchart.tiers.ChartRules;
import dev.nimchart.tiers.Tier;
import dev.nimchart.Verdict;
import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.objects.KubeObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import dev.nimchart.junit.ChartTiers;
import dev.nimchart.sessions.TierSessions;
import dev.nimchart.chart.repository.ExampleCharts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster tiers through the library's door on charts that are not nim-llm, with no nim-llm rules:
 * examples/charts/plain-web (no values schema, no GPU, a Deployment and a Service), examples/charts/web-cache (a
 * subchart) and examples/charts/node-batch (a
 * DaemonSet, a Job, a CronJob, a ClusterRole, a CRD from its crds/ with a resource of it, a pre-install hook Job, a
 * post-install hook ConfigMap and a test pod). Each ci/ values file installs into the API server (the hooks judged by a
 * strict dry run), and the real controllers bring every workload to its desired state on the fake nodes, the hooks run
 * in Helm's order and {@code helm test} passes.
 */
@ExtendWith(ChartTiers.class)
class AnyChartIT {

    /**
     * Every file of the chart's ci/ passes the API-server and controller tiers with no chart rules, and every file of
     * ci/invalid/ is refused on the API-server tier (the controller tier leaves refusals to it).
     */
    private void everyFilePassesBothClusterTiers(TierSessions tiers, String name, int valid, int invalid) {
        Path chart = ExampleCharts.named(name);
        ChartCheck check = ExampleCharts.check(chart, tiers).withValues(chart.resolve("ci")).withFuzz(0, ChartCheck.DEFAULT_FUZZ_SEED)
                .withWorkDir(Path.of("target", "any-chart"));
        for (Tier tier : List.of(Tier.API, Tier.CONTROLLERS)) {
            List<Verdict> verdicts = check.verdicts(tier);
            assertThat(verdicts).as("%s verdicts of %s", tier.label(), name).hasSize(tier.checksRefusals() ? valid + invalid : valid)
                    .allSatisfy(v -> assertThat(v.reason()).as("%s on the %s tier", v.subject(), tier.label()).isNull());
        }
    }

    @Test
    void aPlainChartPassesTheApiServerAndControllerTiers(TierSessions tiers) {
        everyFilePassesBothClusterTiers(tiers, "plain-web", 3, 0);
    }

    /**
     * examples/charts/web-cache: a web Deployment, Service and Ingress, and the kv-cache StatefulSet vendored as a
     * subchart under alias {@code cache}, condition {@code cache.enabled}, draft-07 schemas in both. The controllers
     * bring the web pods and, where the condition leaves it on, the subchart's StatefulSet to the replicas they ask for;
     * each invalid/ file, refused by the subchart's schema or the parent's, is refused by {@code helm install} with its
     * expect-error text on the API-server tier.
     */
    @Test
    void anUmbrellaChartPassesTheApiServerAndControllerTiers(TierSessions tiers) {
        everyFilePassesBothClusterTiers(tiers, "web-cache", 3, 3);
    }

    @Test
    void batchKindsHooksAndTestsReachTheirDesiredStateOnRealControllers(TierSessions tiers) {
        Path chart = ExampleCharts.named("node-batch");
        Map<String, NamespaceState> reconciled = new ConcurrentHashMap<>();
        ChartRules seen = new ChartRules() {
            @Override
            public void reconciled(Reconciled release) {
                reconciled.put(release.valuesFile().getFileName().toString(), release.state());
            }
        };
        ChartCheck check = ExampleCharts.check(chart, tiers).withValues(chart.resolve("ci")).withFuzz(0, ChartCheck.DEFAULT_FUZZ_SEED).withRules(seen)
                .withWorkDir(Path.of("target", "any-chart"));
        for (Tier tier : List.of(Tier.API, Tier.CONTROLLERS)) {
            assertThat(check.verdicts(tier)).as("%s verdicts of node-batch", tier.label()).hasSize(3)
                    .allSatisfy(v -> assertThat(v.reason()).as("%s on the %s tier", v.subject(), tier.label()).isNull());
        }
        assertThat(reconciled).as("every file reconciled").hasSize(3);
        reconciled.forEach((file, state) -> {
            KubeObject daemons = state.all("DaemonSet").get(0);
            assertThat(daemons.at("status.desiredNumberScheduled").toString()).as("%s: DaemonSet pods scheduled", file).isNotEqualTo("0");
            assertThat(state.servingPods()).as("%s: the DaemonSet's pods, Ready on as many nodes", file)
                    .hasSize(Integer.parseInt(daemons.at("status.desiredNumberScheduled").toString()))
                    .allSatisfy(p -> assertThat(NamespaceState.ready(p)).isTrue())
                    .extracting(p -> p.at("spec.nodeName")).doesNotHaveDuplicates();
            assertThat(state.all("Job")).as("%s: the chart's Job ran to completion", file)
                    .filteredOn(j -> j.name().endsWith("-once")).singleElement()
                    .satisfies(j -> assertThat(j.at("status.succeeded").toString()).isEqualTo("1"));
            assertThat(state.all("Job")).as("%s: the pre-install hook Job, deleted by its hook-succeeded policy", file)
                    .noneMatch(j -> j.name().endsWith("-migrate"));
            assertThat(state.all("ConfigMap")).as("%s: the post-install hook ran after the release's objects", file)
                    .anyMatch(c -> c.name().endsWith("-installed"));
        });
    }

    @Test
    void aHookTheApiServerWouldRefuseFailsTheApiServerTierThoughOfflineNeverSeesIt(TierSessions tiers, @TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("negative-backoff-values.yaml"), "migrate:\n  backoffLimit: -1\n");
        List<Verdict> verdicts = ExampleCharts.check(ExampleCharts.named("node-batch"), tiers).withValues(dir).withFuzz(0, ChartCheck.DEFAULT_FUZZ_SEED)
                .withWorkDir(Path.of("target", "any-chart")).verdicts(Tier.API);
        assertThat(verdicts).singleElement().satisfies(v -> assertThat(v.reason()).as(v.subject())
                .contains("refuses hook Job").contains("backoffLimit"));
    }

    @Test
    void thePodSecurityLevelIsTheChartsOptInOnEveryClusterTier(TierSessions tiers, @TempDir Path dir) throws IOException {
        // a release and namespace per level: the API-server tier keeps its namespaces until the cluster goes
        Path restricted = Files.createDirectories(dir.resolve("restricted"));
        Path baseline = Files.createDirectories(dir.resolve("baseline"));
        Files.writeString(restricted.resolve("root-at-restricted-values.yaml"), "runAsNonRoot: false\n");
        Files.writeString(baseline.resolve("root-at-baseline-values.yaml"), "runAsNonRoot: false\n");
        assertThat(ExampleCharts.check(ExampleCharts.named("plain-web"), tiers).withValues(restricted).withFuzz(0, ChartCheck.DEFAULT_FUZZ_SEED)
                .withRules(ChartRules.podSecurity("restricted")).withWorkDir(Path.of("target", "any-chart")).verdicts(Tier.API))
                .as("at restricted, the chart's opt-in").singleElement()
                .satisfies(v -> assertThat(v.reason()).as(v.subject()).contains("restricted").contains("runAsNonRoot"));
        // Without an opt-in the namespaces admit what an unlabelled namespace admits (privileged): the same pod passes.
        Path unlabelled = Files.createDirectories(dir.resolve("default"));
        Files.writeString(unlabelled.resolve("root-at-default-values.yaml"), "runAsNonRoot: false\n");
        assertThat(ExampleCharts.check(ExampleCharts.named("plain-web"), tiers).withValues(unlabelled).withFuzz(0, ChartCheck.DEFAULT_FUZZ_SEED)
                .withWorkDir(Path.of("target", "any-chart")).verdicts(Tier.API)).as("at the default level, privileged").singleElement()
                .satisfies(v -> assertThat(v.reason()).as(v.subject()).isNull());
        ChartCheck atBaseline = ExampleCharts.check(ExampleCharts.named("plain-web"), tiers).withValues(baseline).withFuzz(0, ChartCheck.DEFAULT_FUZZ_SEED)
                .withRules(ChartRules.podSecurity("baseline")).withWorkDir(Path.of("target", "any-chart"));
        for (Tier tier : List.of(Tier.API, Tier.CONTROLLERS)) {
            assertThat(atBaseline.verdicts(tier)).as("at baseline, on the %s tier", tier.label()).singleElement()
                    .satisfies(v -> assertThat(v.reason()).as(v.subject()).isNull());
        }
    }
}
