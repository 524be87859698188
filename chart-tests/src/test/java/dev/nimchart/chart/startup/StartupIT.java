package dev.nimchart.chart.startup;

import dev.nimchart.tiers.Tier;
import dev.nimchart.junit.DynamicChecks;
import dev.nimchart.settings.SettingsFromProperties;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.controllers.ReconciledExampleIT;
import dev.nimchart.chart.repository.ChartReleases;
import dev.nimchart.chart.repository.Example;
import dev.nimchart.chart.repository.Examples;
import dev.nimchart.chart.repository.PodSecurityExceptions;
import dev.nimchart.chart.repository.Reconciled;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.controllers.InstalledRelease;
import dev.nimchart.sessions.ControllerSession;
import dev.nimchart.junit.ControllerTier;
import dev.nimchart.sessions.TierNamespaces;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.startup.PodGroupRun.PodRun;
import dev.nimchart.startup.PodGroupRun;
import dev.nimchart.startup.StartupHost;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import dev.nimchart.chart.repository.NimLlmRules;
import dev.nimchart.chart.repository.RepositoryChart;
import dev.nimchart.junit.ChartTiers;
import dev.nimchart.sessions.TierSessions;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The start-up tier: for every multi-node example, the pods the controllers reconciled are started on this machine,
 * each pod's main process in its own network namespace with its pod IP, the DNS names the headless Services publish,
 * its mounted ConfigMap scripts and Secret files, and the environment the kubelet gives it; with real sshd and
 * mpirun, and a stand-in for NIM's server that records how each rank was started. Needs root and ip netns: with
 * CI=true it runs or fails; otherwise it is skipped with the reason.
 */
@ExtendWith({ControllerTier.class, ChartTiers.class})
public class StartupIT {

    public static final Path REPORT_DIR = Path.of("target", "startup-tier");

    /**
     * Every multi-node example that starts natively or with mpirun, through the library's door
     * ({@code ChartCheck.tierTests(Tier.STARTUP)}, {@code dev.nimchart.tiers.startup}): the tier starts the group with the stand-in
     * holding its readiness (an MPIJob's launcher once every worker's sshd listens and worker 0 is not Ready), requires
     * every rank joined and the serving pods listening within clusterStartTimeout, their readiness probes failing while
     * the server answers 503 and passing once it answers 200; nim-llm's rules ({@code NimLlmStartup}) then hold every
     * rank to the contract's command and its own pod's environment, and to writing only where its pod lets it.
     */
    @TestFactory
    Stream<DynamicNode> everyRankStartsWithItsOwnPodsRankRoleAndNetworkAndTheServingPodIsReadyOnlyOnceItsServerIs(TierSessions tiers) {
        Set<Path> withoutRay = Examples.multiNodeWithoutRay().map(f -> f.toAbsolutePath().normalize()).collect(Collectors.toSet());
        return DynamicChecks.of(RepositoryChart.check().withSessions(tiers).withRules(new NimLlmRules(f -> withoutRay.contains(f.toAbsolutePath().normalize())))
                .withReconcileTimeout(ReconciledExampleIT.RECONCILE_TIMEOUT).tierTests(Tier.STARTUP));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"multi-node-llama-3.1-405b-lws.yaml", "multi-node-llama-3.1-405b-mpijob.yaml"})
    void theStarterGivesUpWithAClearLineWhenAWorkerNeverComes(String name, ControllerSession session) throws Exception {
        requireStartupHost();
        Path file = Examples.named(name);
        Example e = Example.of(file);
        int timeout = 6;
        Installed in = install(session, e, file, Map.of("multiNode.clusterStartTimeout", Integer.toString(timeout)));
        try {
            Reconciled r = in.reconciled;
            // Only the pod that runs mpirun: the LWS leader, or the MPIJob launcher; its workers never start.
            KubeObject starter = e.mode().equals("mpijob") ? r.launchers().get(0) : r.servingPods().get(0);
            try (PodGroupRun run = PodGroupRun.start(r.state(), List.of(starter), REPORT_DIR.resolve(e.name() + "-alone").toAbsolutePath(), Map.of(), SettingsFromProperties.shared().rayDir())) {
                PodRun alone = run.pods().get(0);
                long t0 = System.nanoTime();
                boolean ended = alone.process().waitFor(timeout + 30, TimeUnit.SECONDS);
                long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0);
                assertThat(ended).as("%s: %s ended within clusterStartTimeout + 30 s; log:%n%s", name, starter.name(), alone.logText()).isTrue();
                assertThat(alone.process().exitValue()).as("%s: exit code; log:%n%s", name, alone.logText()).isNotZero();
                assertThat(alone.logText()).as(name).contains("did not accept SSH on port " + e.integer("multiNode.sshPort"))
                        .contains("within CLUSTER_START_TIMEOUT=" + timeout + "s; giving up");
                assertThat(seconds).as("%s: it waited the timeout first", name).isGreaterThanOrEqualTo(timeout - 1);
                assertThat(run.records()).as("%s: no rank started", name).isEmpty();
            }
        } finally {
            in.remove(session);
        }
    }

    record Installed(String release, String namespace, Reconciled reconciled) {
        void remove(ControllerSession session) {
            TierNamespaces.delete(session.environment().api(), namespace, session.environment()::requireAllRunning);
        }
    }

    static Installed install(ControllerSession session, Example e, Path file, Map<String, String> sets) {
        KubeApi api = session.environment().api();
        String release = ChartUnderTest.releaseName(file);
        String namespace = TierNamespaces.create(api, "startup-" + release + (sets.isEmpty() ? "" : "-alone"), PodSecurityExceptions.level(e));
        InstalledRelease installed = session.install(ChartReleases.of(namespace, file, sets));
        return new Installed(release, namespace, new Reconciled(e, release,
                installed.awaitReady(Reconciled.expectedPods(e), ReconciledExampleIT.RECONCILE_TIMEOUT)));
    }

    public static void requireStartupHost() {
        Optional<String> reason = StartupHost.unavailableReason(SettingsFromProperties.shared());
        if (reason.isPresent()) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new AssertionError("CI=true and the start-up tier cannot run here: " + reason.get());
            }
            System.out.println("[startup tier] SKIPPED (CI is not true; with CI=true this fails the build): " + reason.get());
            Assumptions.abort("start-up tier skipped: " + reason.get());
        }
    }
}
