package dev.nimchart.tiers.startup;

import dev.nimchart.tiers.ChartRules;
import dev.nimchart.tiers.CheckOptions;
import dev.nimchart.tiers.Tier;
import dev.nimchart.tiers.TierCheck;
import dev.nimchart.sessions.TierNotStartedException;
import dev.nimchart.sessions.TierSessions;
import dev.nimchart.progress.Progress;
import dev.nimchart.settings.Settings;
import dev.nimchart.settings.ToolUnavailableException;

import dev.nimchart.cluster.KubeApi;
import dev.nimchart.controllers.ControllerEnvironment;
import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.controllers.InstalledRelease;
import dev.nimchart.render.Release;
import dev.nimchart.sessions.ControllerSession;
import dev.nimchart.sessions.TierNamespaces;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.cluster.BinaryAssets;
import dev.nimchart.startup.NetworkPolicyEnforcer;
import dev.nimchart.startup.PodGroupRun;
import dev.nimchart.startup.StartupHost;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The start-up tier: each values file the chart's rules opt in ({@link ChartRules#startsUp(Path)}) installed on the
 * controller tier's environment and reconciled, then every pod's main process started on this machine in a network
 * namespace of its own ({@link PodGroupRun}), as {@link GroupStart} says: native and MPI groups with the stand-in server
 * (an MPI launcher once its workers listen), Ray groups with the real Ray (the heads once the workers wait for them).
 * Every rank must join and every readiness probe pass within the group's start time
 * ({@link ChartRules#startupTimeout(Path)}, default the reconcile timeout), and the chart's rules hold of the running
 * group ({@link ChartRules#started}). Needs root, {@code ip netns}, sshd and mpirun (and the Ray environment for Ray
 * groups): where they are missing the tier does not start, skippable ({@link TierNotStartedException}).
 */
public final class StartupChecks implements TierCheck {

    private final Path chartDir;
    private final TierSessions sessions;
    private final ChartRules rules;
    private final Duration timeout;
    private final Path workDir;
    private final Progress progress;
    private ControllerSession session;
    private ControllerEnvironment env;

    private final Settings settings;
    private boolean enforceAlways;

    /**
     * The checks of the options' chart and rules on the sessions' controller tier, each group given the options' reconcile
     * timeout unless the rules give it its own; the groups' files under {@code startup-tier/} of the settings' work directory.
     */
    public StartupChecks(CheckOptions options, TierSessions sessions) {
        this.settings = options.settings();
        this.progress = options.progress().tagged("startup tier");
        this.chartDir = options.chartDir();
        this.sessions = sessions;
        this.rules = options.rules();
        this.timeout = options.reconcileTimeout();
        this.workDir = settings.workDir().resolve("startup-tier");
    }

    /**
     * This machine's tools (root, ip netns, sshd, mpirun; skippable when missing), then the controller tier's
     * environment from its owner, started by the harness (the pods' processes run on this machine).
     */
    @Override
    public synchronized void start() {
        if (session == null) {
            Optional<String> unavailable = StartupHost.unavailableReason(settings);
            if (unavailable.isPresent()) {
                throw new TierNotStartedException("startup tier", new IllegalStateException("the start-up tier cannot run here: "
                        + unavailable.get()), true, settings.ci(), progress);
            }
            ControllerSession started = sessions.controllers().sessionOrThrow();
            if (!started.environment().startedByHarness()) {
                // The pods' processes run on this machine, beside the tier's own fake nodes: a cluster the harness did
                // not start has neither, so the tier is unavailable there (skipped with the reason; failed with CI=true).
                throw new TierNotStartedException("startup tier", new IllegalStateException("the start-up tier runs the pods'"
                        + " processes on this machine, on the controller tier's own environment; this run is on a cluster the"
                        + " harness did not start"), true, settings.ci(), progress);
            }
            env = started.environment();
            session = started;
        } else {
            env.requireAllRunning();
        }
    }

    /** The files the chart's rules opt in ({@link ChartRules#startsUp(Path)}). */
    @Override
    public boolean installs(Path valuesFile) {
        return rules.startsUp(valuesFile);
    }

    /**
     * Runs the NetworkPolicy enforcer on the pods' network of every start from now on, also for a release that renders no
     * NetworkPolicy (by default it runs only where the release renders one): so that a check can show a connection
     * the policies would refuse going through without them, with the same enforcer running.
     */
    public StartupChecks enforcingNetworkPoliciesAlways() {
        enforceAlways = true;
        return this;
    }

    @Override
    public void install(Path valuesFile) {
        install(valuesFile, List.of());
    }

    /** As {@link #install(Path)}, with more values files after it (as {@code helm install -f FILE -f MORE...}). */
    public void install(Path valuesFile, List<Path> moreValues) {
        if (!installs(valuesFile)) {
            // Said at once: a file the rules do not opt in (such as a single-node one for nim-llm) would only time out.
            throw new IllegalArgumentException(valuesFile.getFileName() + ": the chart's rules do not opt it into the start-up tier"
                    + " (ChartRules.startsUp is false for it)");
        }
        start();
        mustStart(valuesFile, moreValues);
    }

    private void mustStart(Path file, List<Path> moreValues) {
        KubeApi api = env.api();
        String release = rules.releaseName(file);
        String namespace = TierNamespaces.create(api, "startup-" + release, rules.podSecurityLevel(file, Tier.STARTUP));
        try {
            List<Path> values = new java.util.ArrayList<>(List.of(file));
            values.addAll(moreValues);
            InstalledRelease installed = session.install(Release.of(chartDir, release, namespace, values));
            RenderedManifest rendered = installed.rendered();
            NamespaceState state = installed.awaitReady(r -> rules.expectedPods(file, r), timeout);
            ChartRules.Reconciled reconciled = new ChartRules.Reconciled(file, release, namespace, api, rendered, state, env::requireAllRunning);
            Path runDir = workDir.resolve(release).toAbsolutePath();
            try (GroupStartSlot slot = GroupStartSlot.take(settings.rayDir().toAbsolutePath().resolveSibling("group-start.lock"), progress::line)) {
                new GroupStart(file.getFileName().toString(), state, runDir, workDir, rules.startupTimeout(file).orElse(timeout), settings.rayDir(),
                        podNetwork(rendered, runDir), progress::line).run(rules, reconciled);
            }
            installed.uninstall();
        } finally {
            TierNamespaces.delete(api, namespace, env::requireAllRunning);
        }
    }

    /**
     * What runs on the pods' network before they start: where the release renders a NetworkPolicy (or
     * {@link #enforcingNetworkPoliciesAlways()}), a real enforcer ({@link NetworkPolicyEnforcer}: kube-network-policies,
     * from the settings' binary source) reading this environment's API server, so that the pods start, join and serve
     * with their policies enforced; otherwise nothing.
     */
    private java.util.function.Function<String, AutoCloseable> podNetwork(RenderedManifest rendered, Path runDir) {
        if (!enforceAlways && rendered.ofKind("NetworkPolicy").isEmpty()) {
            return podNetwork -> () -> { };
        }
        Path enforcer;
        try {
            enforcer = BinaryAssets.of(settings).networkPolicyEnforcer(progress::line);
        } catch (ToolUnavailableException e) {
            if (enforceAlways || settings.ci()) {
                throw e;
            }
            // A binary source without an enforcer (a downstream team's own), outside CI: the pods start as before, and
            // the run says so.
            progress.line("NetworkPolicies NOT enforced for " + runDir.getFileName() + ": " + e.getMessage());
            return podNetwork -> () -> { };
        }
        return podNetwork -> NetworkPolicyEnforcer.start(enforcer, env.kubeConfigYaml(), podNetwork, runDir.getParent().resolve(runDir.getFileName() + "-enforcer"));
    }

    /**
     * The pods of a reconciled namespace this tier starts: every live pod that has not completed and is no hook, Job
     * pods only as an MPIJob's launcher (a chart's own Job, such as a cache pre-fill, has done its work), and no
     * Inference Gateway endpoint picker (it runs no model).
     */
    public static java.util.List<dev.nimchart.objects.KubeObject> podsToStart(dev.nimchart.controllers.NamespaceState state) {
        return GroupStart.podsToStart(state);
    }
}
