package dev.nimchart;

import dev.nimchart.settings.Settings;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.cluster.LocalProcess;
import dev.nimchart.controllers.ControllerEnvironment;
import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.controllers.InstalledRelease;
import dev.nimchart.controllers.Release;
import dev.nimchart.junit.ControllerTier;
import dev.nimchart.junit.TierNamespaces;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartRenderer;
import dev.nimchart.startup.PodGroupRun;
import dev.nimchart.startup.StartupHost;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The start-up tier's check of one values file the chart's rules opt in: installed on the controller tier and
 * reconciled, then every pod's main process started on this machine in a network namespace of its own
 * ({@link PodGroupRun}): the pods of Jobs (an MPI launcher) once the others run and those that can be Ready without
 * the Job are, as a Job waits for what it dials. Every readiness probe must pass within the reconcile timeout, every process keep running, and the chart's
 * rules hold of the running group.
 */
final class StartupChecks {

    private final Path chartDir;
    private final ControllerTier.ControllerSession session;
    private final ControllerEnvironment env;
    private final ChartRules rules;
    private final Duration timeout;
    private final Path workDir;
    private final Path rayDir;

    StartupChecks(Path chartDir, ControllerTier.ControllerSession session, ChartRules rules, Duration timeout, Path workDir, Settings settings) {
        Optional<String> unavailable = StartupHost.unavailableReason(settings);
        if (unavailable.isPresent()) {
            throw new IllegalStateException("the start-up tier cannot run here: " + unavailable.get());
        }
        this.chartDir = chartDir;
        this.session = session;
        this.env = session.environment().requireStartedByHarness("the start-up tier (it runs the pods' processes on this machine)");
        this.rules = rules;
        this.timeout = timeout;
        this.workDir = workDir;
        this.rayDir = settings.rayDir();
    }

    void mustStart(Path file) {
        KubeApi api = env.api();
        String release = rules.releaseName(file);
        String namespace = TierNamespaces.create(api, "startup-" + release, rules.podSecurityLevel(file, Tier.STARTUP));
        try {
            InstalledRelease installed = session.install(Release.of(chartDir, release, namespace, List.of(file)));
            RenderedManifest rendered = installed.rendered();
            NamespaceState state = installed.awaitReady(r -> rules.expectedPods(file, r), timeout);
            ChartRules.Reconciled reconciled = new ChartRules.Reconciled(file, release, namespace, api, rendered, state, env::requireAllRunning);
            List<KubeObject> jobPods = state.livePods().stream().filter(StartupChecks::ownedByJob).toList();
            List<KubeObject> others = state.livePods().stream().filter(p -> !ownedByJob(p)).toList();
            try (PodGroupRun run = PodGroupRun.start(state, others, workDir.resolve(release).toAbsolutePath(), Map.of(), rayDir)) {
                if (!jobPods.isEmpty()) {
                    awaitSettled(run, run.pods());
                    jobPods.forEach(run::add);
                }
                awaitReady(run, run.pods());
                rules.started(new ChartRules.Started(reconciled, run));
            }
            installed.uninstall();
        } finally {
            TierNamespaces.delete(api, namespace, env::requireAllRunning);
        }
    }

    /**
     * Before a Job's pods start: the other pods run, and those that can be Ready without the Job are (a pod whose
     * server the Job starts, an MPI worker 0, cannot): all are Ready, or the Ready ones stayed the same for 3 s.
     */
    private void awaitSettled(PodGroupRun run, List<PodGroupRun.PodRun> pods) {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> last = List.of();
        long stableSince = System.nanoTime();
        while (true) {
            requireRunning(pods);
            List<String> ready = pods.stream().filter(run::readinessProbePasses).map(p -> p.pod().name()).toList();
            if (ready.size() == pods.size()) {
                return;
            }
            if (!ready.equals(last)) {
                last = ready;
                stableSince = System.nanoTime();
            } else if (!ready.isEmpty() && System.nanoTime() - stableSince > Duration.ofSeconds(3).toNanos()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no pod became Ready within " + timeout.toSeconds() + " s before the Job's pods start; logs: "
                        + pods.stream().map(p -> p.pod().name() + ": " + tail(p.logText())).toList());
            }
            LocalProcess.sleep(500);
        }
    }

    private static void requireRunning(List<PodGroupRun.PodRun> pods) {
        List<String> exited = pods.stream().filter(p -> !p.process().isAlive()).map(p -> p.pod().name() + " (exit "
                + p.process().exitValue() + "): " + tail(p.logText())).toList();
        if (!exited.isEmpty()) {
            throw new AssertionError("processes ended: " + exited);
        }
    }

    private void awaitReady(PodGroupRun run, List<PodGroupRun.PodRun> pods) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            requireRunning(pods);
            List<String> notReady = pods.stream().filter(p -> !run.readinessProbePasses(p)).map(p -> p.pod().name()).toList();
            if (notReady.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not ready within " + timeout.toSeconds() + " s: " + notReady + "; logs: "
                        + pods.stream().map(p -> p.pod().name() + ": " + tail(p.logText())).toList());
            }
            LocalProcess.sleep(500);
        }
    }

    private static boolean ownedByJob(KubeObject pod) {
        return pod.list("metadata.ownerReferences").stream().anyMatch(o -> "Job".equals(o.at("kind")));
    }

    private static String tail(String log) {
        List<String> lines = log.lines().toList();
        return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
    }
}
