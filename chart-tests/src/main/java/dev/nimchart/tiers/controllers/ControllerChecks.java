package dev.nimchart.tiers.controllers;

import dev.nimchart.tiers.ChartRules;
import dev.nimchart.tiers.CheckOptions;
import dev.nimchart.tiers.Tier;
import dev.nimchart.tiers.TierCheck;
import dev.nimchart.sessions.TierSessions;

import dev.nimchart.cluster.KubeApi;
import dev.nimchart.cluster.ReleaseRecord;
import dev.nimchart.controllers.ClusterPreconditions;
import dev.nimchart.controllers.ControllerEnvironment;
import dev.nimchart.controllers.DesiredState;
import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.controllers.InstalledRelease;
import dev.nimchart.render.Release;
import dev.nimchart.judge.ValuesJudge;
import dev.nimchart.sessions.ControllerSession;
import dev.nimchart.sessions.ControllerTierLifecycle;
import dev.nimchart.sessions.TierNamespaces;
import dev.nimchart.sessions.Timings;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The controller tier's checks of one values file: a file that must install is installed with Helm onto real
 * controllers and fake GPU nodes with its hooks, reaches its desired state (every pod its workloads ask for scheduled and
 * Ready, every workload done by its own status, claims bound, EndpointSlices caught up), passes the chart's own rules
 * and {@code helm test} when it has test hooks, and uninstalls to nothing but the claims it keeps and the hooks Helm
 * leaves. Files that must be refused are the offline and API-server tiers' ({@link Tier#checksRefusals()}).
 */
public final class ControllerChecks implements TierCheck {

    private final Path chartDir;
    private final TierSessions sessions;
    private final ChartRules rules;
    private final Duration reconcileTimeout;
    private ControllerSession session;
    private ControllerEnvironment env;

    /** The checks of the options' chart and rules on the sessions' controller tier, each file given the options' reconcile timeout. */
    public ControllerChecks(CheckOptions options, TierSessions sessions) {
        this.chartDir = options.chartDir();
        this.sessions = sessions;
        this.rules = options.rules();
        this.reconcileTimeout = options.reconcileTimeout();
    }

    /** The tier's environment, from its owner (started on first use). */
    @Override
    public synchronized void start() {
        if (session == null) {
            ControllerSession started = sessions.controllers().sessionOrThrow();
            env = started.environment();
            session = started;
        } else {
            env.requireAllRunning();
        }
    }

    @Override
    public void install(Path valuesFile) {
        start();
        mustInstall(valuesFile);
    }

    private void mustInstall(Path file) {
        KubeApi api = env.api();
        String release = rules.releaseName(file);
        String namespace = TierNamespaces.create(api, "reconcile-" + release, rules.podSecurityLevel(file, Tier.CONTROLLERS));
        try {
            InstalledRelease installed = session.install(Release.of(chartDir, release, namespace, List.of(file)));
            RenderedManifest rendered = installed.rendered();
            NamespaceState state = installed.awaitReady(r -> rules.expectedPods(file, r), reconcileTimeout);
            Timings.record(ControllerTierLifecycle.reportDir(env.settings()), "install to all pods Ready: " + file.getFileName(), installed.sinceInstall());
            long checking = System.nanoTime();
            rules.reconciled(new ChartRules.Reconciled(file, release, namespace, api, rendered, state, env::requireAllRunning));
            Timings.record(ControllerTierLifecycle.reportDir(env.settings()), "checks: " + file.getFileName(), Duration.ofNanos(System.nanoTime() - checking));
            helmTest(file, installed);

            Set<String> kept = new TreeSet<>();
            for (KubeObject claim : rendered.ofKind("PersistentVolumeClaim")) {
                if ("keep".equals(claim.annotations().get("helm.sh/resource-policy"))) {
                    kept.add(claim.name());
                }
            }
            if (retainedOnDelete(rendered)) {
                state.all("PersistentVolumeClaim").stream().filter(c -> isStatefulSetClaim(rendered, c.name())).forEach(c -> kept.add(c.name()));
            }
            long uninstalling = System.nanoTime();
            installed.uninstall();
            DesiredState.awaitUninstalled(env.api(), namespace, env.settleTimeout(), env::requireAllRunning, kept);
            Timings.record(ControllerTierLifecycle.reportDir(env.settings()), "uninstall to nothing left: " + file.getFileName(), Duration.ofNanos(System.nanoTime() - uninstalling));
        } finally {
            if (env.startedByHarness()) {
                TierNamespaces.delete(api, namespace, env::requireAllRunning, env.settleTimeout());
            } else {
                TierNamespaces.deleteLeavingNoClaims(api, namespace, env::requireAllRunning, env.settleTimeout());
            }
        }
    }

    /**
     * {@code helm test} when the release has test hooks: Helm creates each test pod, waits for it to succeed and fails
     * otherwise. On this tier a pod's program does not run (kwok ends a test pod Succeeded once it is Ready), so this
     * proves the test pods are admitted in the namespace, scheduled and awaited, not what they check.
     */
    private void helmTest(Path file, InstalledRelease installed) {
        String namespace = installed.namespace();
        List<ReleaseRecord.Hook> tests = ReleaseRecord.latest(env.api(), namespace, installed.name()).hooks().stream()
                .filter(h -> h.events().contains("test")).toList();
        if (tests.isEmpty()) {
            return;
        }
        long testing = System.nanoTime();
        try {
            installed.test(reconcileTimeout);
        } catch (RuntimeException e) {
            throw new AssertionError("helm test failed for its test hooks " + tests.stream().map(h -> h.kind() + "/" + h.name()).toList()
                    + ": " + ValuesJudge.helmMessage(String.valueOf(e.getMessage())) + "\n" + DesiredState.describe(NamespaceState.read(env.api(), namespace)));
        }
        Timings.record(ControllerTierLifecycle.reportDir(env.settings()), "helm test: " + file.getFileName(), Duration.ofNanos(System.nanoTime() - testing));
    }

    private static boolean isStatefulSetClaim(RenderedManifest rendered, String claim) {
        return rendered.ofKind("StatefulSet").stream().flatMap(s -> s.list("spec.volumeClaimTemplates").stream())
                .anyMatch(t -> claim.startsWith(t.name() + "-"));
    }

    private static boolean retainedOnDelete(RenderedManifest rendered) {
        return rendered.ofKind("StatefulSet").stream()
                .anyMatch(s -> "Retain".equals(s.at("spec.persistentVolumeClaimRetentionPolicy.whenDeleted")));
    }
}
