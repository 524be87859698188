package dev.nimchart.tools.bench;

import dev.nimchart.render.ChartRenderer;
import dev.nimchart.cluster.HelmReleases;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.controllers.ClusterPreconditions;
import dev.nimchart.controllers.ControllerEnvironment;
import dev.nimchart.controllers.DesiredState;
import dev.nimchart.controllers.ExpectedPods;
import dev.nimchart.controllers.Kueue;
import dev.nimchart.controllers.InstalledRelease;
import dev.nimchart.render.Release;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The controller tier's figures: start to all ready (etcd to mpi-operator, fake nodes Ready, webhooks answering), and
 * per example the time from `helm install` to every pod scheduled and Ready with the workloads reporting done.
 */
final class ControllerTierBench {

    private final Report report;
    private final Path out;
    private final BenchChart chart;

    ControllerTierBench(Report report, Path out, BenchChart chart) {
        this.report = report;
        this.out = out;
        this.chart = chart;
    }

    void run(List<Path> examples) {
        report.line("");
        report.line("## Controller tier");
        report.line("");
        List<Long> ready = new ArrayList<>();
        Map<String, Duration> lastSteps = Map.of();
        List<Long> kueue = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            try (ControllerEnvironment env = start()) {
                ready.add(env.startTimes().get("all ready").toNanos());
                lastSteps = env.startTimes();
                long started = System.nanoTime();
                try (Kueue k = Kueue.start(env)) {
                    kueue.add(System.nanoTime() - started);
                }
            }
        }
        report.line("etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kwok with the fake GPU nodes, the LWS"
                + " controller with its webhooks, mpi-operator; binaries already built.");
        report.line("");
        report.line("| | median of 3 | runs |");
        report.line("|---|---|---|");
        report.line("| start to all ready | " + Stats.seconds(Stats.median(ready)) + " | "
                + String.join(", ", ready.stream().map(Stats::seconds).toList()) + " |");
        report.figure("controllers", "start-to-all-ready-median", Stats.median(ready) / 1e9, "s");
        report.line("| Kueue added (CRDs, process, webhooks answering) | " + Stats.seconds(Stats.median(kueue)) + " | "
                + String.join(", ", kueue.stream().map(Stats::seconds).toList()) + " |");
        report.figure("controllers", "kueue-start-median", Stats.median(kueue) / 1e9, "s");
        report.line("");
        report.line("Steps of the last start: " + String.join(", ", lastSteps.entrySet().stream()
                .filter(e -> !e.getKey().equals("all ready")).map(e -> e.getKey() + " " + Stats.ms(e.getValue().toNanos())).toList()) + ".");
        report.line("");
        report.line("`helm install` to every pod scheduled and Ready, workloads done, EndpointSlices caught up:");
        report.line("");
        report.line("| example | pods | install to all Ready |");
        report.line("|---|---|---|");
        try (ControllerEnvironment env = start()) {
            HelmReleases releases = new HelmReleases(env.kubeConfigYaml(), out.resolve("controllers-helm"), env.settings());
            KubeApi api = env.api();
            long total = 0;
            for (Path f : examples) {
                String release = ChartRenderer.releaseName(f);
                String ns = "bench-" + release;
                KubeApi.require(api.post("/api/v1/namespaces", Map.of("apiVersion", "v1", "kind", "Namespace",
                        "metadata", Map.of("name", ns))), "create " + ns);
                int pods = ExpectedPods.of(chart.values(f));
                InstalledRelease installed = InstalledRelease.install(env, releases, c -> chart.renderer(),
                        Release.of(chart.dir(), release, ns, List.of(f)));
                installed.awaitReady(pods, Duration.ofSeconds(120));
                long took = installed.sinceInstall().toNanos();
                total += took;
                report.line("| " + f.getFileName() + " | " + pods + " | " + Stats.ms(took) + " |");
                report.figure("controllers-install-to-ready", f.getFileName().toString(), took / 1e6, "ms");
                installed.uninstall();
                api.delete("/api/v1/namespaces/" + ns);
                DesiredState.awaitNoPods(api, ns, Duration.ofSeconds(120), env::requireAllRunning);
                ClusterPreconditions.cleanUp(api, ns);
            }
            report.line("| **all " + examples.size() + "** | | " + Stats.seconds(total) + " |");
        }
    }

    private ControllerEnvironment start() {
        return ControllerEnvironment.start(chart.settings(), out.resolve("controllers").toAbsolutePath(), line -> System.err.println("  [controllers] " + line));
    }
}
