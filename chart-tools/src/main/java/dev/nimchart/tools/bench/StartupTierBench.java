package dev.nimchart.tools.bench;

import dev.nimchart.objects.KubeObject;
import dev.nimchart.render.ChartRenderer;
import dev.nimchart.cluster.HelmReleases;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.controllers.ClusterPreconditions;
import dev.nimchart.controllers.ControllerEnvironment;
import dev.nimchart.controllers.DesiredState;
import dev.nimchart.controllers.ExpectedPods;
import dev.nimchart.controllers.InstalledRelease;
import dev.nimchart.controllers.Release;
import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.startup.GroupLabels;
import dev.nimchart.startup.PodGroupRun;
import dev.nimchart.tiers.startup.StartupChecks;
import dev.nimchart.startup.StartupHost;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The start-up tier's figures: for every multi-node example, the pods the controllers reconciled are started as the
 * start-up tier starts them (each in its network namespace, real sshd and mpirun or a real Ray cluster, the NIM stand-in),
 * and the time from starting their processes to every serving pod's own readiness probe passing is taken, with the
 * resident memory of the group's processes at that moment, {@code runs} times.
 */
final class StartupTierBench {


    private final Report report;
    private final Path out;
    private final int runs;
    private final BenchChart chart;

    StartupTierBench(Report report, Path out, int runs, BenchChart chart) {
        this.report = report;
        this.out = out;
        this.runs = runs;
        this.chart = chart;
    }

    void run(List<Path> examples, Path repoRoot) {
        report.line("");
        report.line("## Start-up tier");
        report.line("");
        Optional<String> unavailable = StartupHost.unavailableReason(chart.settings());
        if (unavailable.isPresent()) {
            report.line("Not measured: " + unavailable.get() + ".");
            return;
        }
        List<Path> multiNode = examples.stream().filter(f -> isMultiNode(chart.values(f))).toList();
        report.line("From starting a group's processes (every pod of the release in its network namespace: sshd, mpirun,"
                + " the NIM stand-in) to the serving pod's own readiness probe passing, " + runs + " runs per example:");
        report.line("");
        report.line("| example | pods | min | median | max | resident memory once Ready (median) |");
        report.line("|---|---|---|---|---|---|");
        try (ControllerEnvironment env = ControllerEnvironment.start(chart.settings(), out.resolve("controllers").toAbsolutePath(),
                line -> System.err.println("  [controllers] " + line))) {
            HelmReleases releases = new HelmReleases(chart.dir(), env.kubeConfigYaml(), out.resolve("startup-helm"), env.settings());
            KubeApi api = env.api();
            for (Path f : multiNode) {
                String release = ChartRenderer.releaseName(f);
                String ns = "bench-startup-" + release;
                KubeApi.require(api.post("/api/v1/namespaces", Map.of("apiVersion", "v1", "kind", "Namespace",
                        "metadata", Map.of("name", ns))), "create " + ns);
                NamespaceState state = InstalledRelease.install(env, c -> releases, c -> chart.renderer(),
                        Release.of(chart.dir(), release, ns, List.of(f))).awaitReady(ExpectedPods.of(chart.values(f)),
                        Duration.ofSeconds(120));
                // the pods the start-up tier starts: no pre-fill Job's pod (its work is done), no endpoint picker (no model)
                List<KubeObject> pods = StartupChecks.podsToStart(state);
                int timeout = ((Number) ((Map<?, ?>) chart.values(f).get("multiNode")).get("clusterStartTimeout")).intValue();
                List<Long> times = new ArrayList<>();
                List<Long> memory = new ArrayList<>();
                for (int r = 0; r < runs; r++) {
                    long[] measured = timeToServingReady(state, pods, f, r, Duration.ofSeconds(timeout));
                    times.add(measured[0]);
                    memory.add(measured[1]);
                }
                long min = times.stream().mapToLong(Long::longValue).min().orElseThrow();
                long max = times.stream().mapToLong(Long::longValue).max().orElseThrow();
                report.line("| " + f.getFileName() + " | " + pods.size() + " | " + Stats.seconds(min) + " | "
                        + Stats.seconds(Stats.median(times)) + " | " + Stats.seconds(max) + " | " + Stats.median(memory) / (1024 * 1024) + " MiB |");
                report.figure("startup-ready", f.getFileName().toString(), Stats.median(times) / 1e9, "s");
                report.figure("startup-rss", f.getFileName().toString(), Stats.median(memory) / (1024.0 * 1024), "MiB");
                releases.uninstall(release, ns);
                api.delete("/api/v1/namespaces/" + ns);
                DesiredState.awaitNoPods(api, ns, Duration.ofSeconds(120), env::requireAllRunning);
                ClusterPreconditions.cleanUp(api, ns);
            }
        }
    }

    /**
     * Nanoseconds from starting every pod's process to every serving pod's readiness probe passing, and the resident
     * memory of all the group's processes then (bytes).
     */
    private long[] timeToServingReady(NamespaceState state, List<KubeObject> pods, Path file, int run, Duration limit) {
        Path dir = out.resolve("startup").resolve(file.getFileName().toString().replace(".yaml", "") + "-" + run).toAbsolutePath();
        long t0 = System.nanoTime();
        try (PodGroupRun group = PodGroupRun.start(state, pods, dir, Map.of(), chart.settings().rayDir())) {
            List<PodGroupRun.PodRun> serving = group.pods().stream().filter(p -> GroupLabels.serves(p.pod())).toList();
            // Each round: true once every serving pod is Ready, false once a process ended, else null.
            dev.nimchart.cluster.Poll.Result<Boolean> seen = dev.nimchart.cluster.Poll.upTo(limit).every(200)
                    .until(() -> serving.stream().allMatch(group::readinessProbePasses) ? Boolean.TRUE
                            : group.pods().stream().anyMatch(p -> !p.process().isAlive()) ? Boolean.FALSE : null, java.util.Objects::nonNull);
            if (seen.held() && seen.last()) {
                return new long[] {System.nanoTime() - t0, group.residentBytes()};
            }
            throw new IllegalStateException(file.getFileName() + ": the serving pods were not Ready within " + limit + "; see " + dir);
        }
    }

    private static boolean isMultiNode(Map<String, Object> values) {
        return values.get("multiNode") instanceof Map<?, ?> m && Boolean.TRUE.equals(m.get("enabled"));
    }
}
