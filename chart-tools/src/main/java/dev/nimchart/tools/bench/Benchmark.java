package dev.nimchart.tools.bench;

import dev.nimchart.judge.ValuesJudge;
import dev.nimchart.values.ExampleValuesFiles;
import dev.nimchart.objects.PodTemplate;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.cluster.ClusterSession;
import dev.nimchart.render.Release;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How fast the suite proves the chart, printed as figures and written to target/benchmark/ (report.md and
 * figures.tsv): the offline tier side by side with the usual helm template | kubeconform pipeline, the cluster tier's
 * start and per-example install times, a scale sweep of workers x replicas, and the controller tier's start and
 * install-to-all-Ready times, and the start-up tier's time from a group's processes to its serving pod's readiness
 * (min/median/max per multi-node example). Runs: -Dnim.bench.runs (default 5).
 */
public final class Benchmark {

    static final Path OUT = Path.of("target", "benchmark");
    private static final int[] WORKERS = {2, 8, 32, 64};
    private static final int[] REPLICAS = {1, 8};

    private final Report report = new Report();
    private final int runs;
    private final BenchChart chart;
    private final List<Path> examples;

    private Benchmark(dev.nimchart.settings.Settings settings, int runs) {
        this.runs = runs;
        this.chart = BenchChart.of(settings);
        this.examples = ExampleValuesFiles.of(settings).valid();
    }

    public static void main(String[] args) throws IOException {
        // the command's settings and options, read once here
        Benchmark b = new Benchmark(dev.nimchart.settings.SettingsFromProperties.shared(), Integer.getInteger("nim.bench.runs", 5));
        // -Dnim.bench.only=startup,controllers measures only those sections (the record keeps the others as recorded).
        List<String> only = List.of(System.getProperty("nim.bench.only", "offline,cluster,controllers,startup,faults,epp,gpu,verify").split(","));
        b.machine();
        if (only.contains("offline")) {
            b.offline();
        }
        if (only.contains("cluster")) {
            b.cluster();
        }
        if (only.contains("controllers")) {
            new ControllerTierBench(b.report, OUT, b.chart).run(b.examples);
        }
        if (only.contains("startup")) {
            new StartupTierBench(b.report, OUT, b.runs, b.chart).run(b.examples, dev.nimchart.settings.BuildScripts.dirOf(b.chart.settings()).orElseThrow().getParent());
        }
        if (only.contains("faults")) {
            new FaultSuiteFigures(b.report).run(OUT.resolve("faults.tsv"), OUT.resolve("faults-suite.tsv"));
        }
        if (only.contains("epp")) {
            new EndpointPickerFigures(b.report).run(OUT.resolve("epp.tsv"));
        }
        if (only.contains("gpu")) {
            new GpuCheckFigures(b.report).run(OUT.resolve("gpu"));
        }
        if (only.contains("show-example")) {
            b.showExampleTimes();
        }
        if (only.contains("verify")) {
            b.verifyTimes();
        }
        b.report.write(OUT);
        String record = System.getProperty("nim.bench.record", "");
        if (!record.isBlank()) {
            b.report.record(Path.of(record).toAbsolutePath().normalize());
            System.out.println("recorded in " + Path.of(record).toAbsolutePath().normalize().resolve("benchmarks/figures.tsv")
                    + "; docs/benchmarks.md's measured table regenerated");
        }
        System.out.println("\nreport: " + OUT.toAbsolutePath().resolve("report.md"));
        System.exit(0);
    }

    private void machine() throws IOException {
        String cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                .findFirst().map(l -> l.replaceFirst("^[^:]*:\\s*", "")).orElse("unknown CPU");
        long memKb = Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(l -> l.startsWith("MemTotal"))
                .findFirst().map(l -> Long.parseLong(l.replaceAll("\\D", ""))).orElse(0L);
        report.line("# nim-llm chart: benchmark");
        report.line("");
        report.line(String.format("Machine: %d cores (%s), %.0f GiB, %s %s, Java %s. Runs per figure: %d.",
                Runtime.getRuntime().availableProcessors(), cpu, memKb / 1048576.0, System.getProperty("os.name"),
                System.getProperty("os.arch"), System.getProperty("java.version"), runs));
        report.figure("machine", "cores", Runtime.getRuntime().availableProcessors(), "count");
        report.figure("machine", "memory", Math.round(memKb / 1048576.0), "GiB");
    }

    // ------------------------------------------------------------------ offline tier
    private void offline() {
        report.line("");
        report.line("## Offline: every example, this harness in-process");
        report.line("");
        long t0 = System.nanoTime();
        ValuesJudge harness = new ValuesJudge(chart.dir(), chart.settings());
        long setup = System.nanoTime() - t0;
        List<Long> totals = new ArrayList<>();
        int objects = 0;
        for (Path f : examples) {
            objects += check(harness, List.of(f)).objects().size();
        }
        for (int r = 0; r <= runs; r++) {
            long start = System.nanoTime();
            List<java.util.Optional<String>> problems = harness.mustInstallEach(examples);
            totals.add(System.nanoTime() - start);
            problems.stream().filter(java.util.Optional::isPresent).findFirst()
                    .ifPresent(p -> { throw new IllegalStateException("the offline tier fails an example: " + p.get()); });
        }
        long first = totals.remove(0);
        long median = Stats.median(totals);
        report.line(String.format("%d values files, %d objects, the offline tier's judge (ValuesJudge.mustInstallEach, the files in parallel on every core): values schema (networknt; Helm's own schema check only for values it refuses) + helm-java render + strict parse + strict model / CRD schema check of every object + standard labels.", examples.size(), objects));
        report.line("");
        report.line("| | time |");
        report.line("|---|---|");
        report.line("| setup (load the values schema and the CRD schemas) | " + Stats.ms(setup) + " |");
        report.line("| first pass in a fresh JVM (loads Helm's native library, JIT warm-up) | " + Stats.ms(first) + " |");
        report.line("| median of " + runs + " warm passes | " + Stats.ms(median) + " |");
        report.line("| per values file (warm median / files) | " + Stats.ms(median / examples.size()) + " |");
        report.figure("offline-harness", "setup", setup / 1e6, "ms");
        report.figure("offline-harness", "first-pass", first / 1e6, "ms");
        report.figure("offline-harness", "warm-median", median / 1e6, "ms");
        harnessMedian = median;
        harnessFirst = first;
        UsualPipeline pipeline = usualPipeline();
        try {
            new CommandBench(report, OUT, runs, dev.nimchart.settings.BuildScripts.dirOf(chart.settings()).orElseThrow().getParent())
                    .run(chart.dir(), examples, pipeline);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private long harnessMedian;
    private long harnessFirst;

    /** The usual pipeline on the same examples: helm template | kubeconform, two processes per values file. */
    private UsualPipeline usualPipeline() {
        report.line("");
        report.line("## Offline: the usual pipeline, `helm template | kubeconform -strict` per values file");
        report.line("");
        UsualPipeline pipeline;
        try {
            pipeline = UsualPipeline.prepare(chart.settings(), OUT.resolve("usual-pipeline"), OUT.resolve("kubeconform-schemas"),
                    line -> System.err.println("  [pipeline] " + line));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        List<Long> totals = new ArrayList<>();
        int validated = 0;
        for (int r = 0; r <= runs; r++) {
            List<UsualPipeline.Result> results = pipeline.runAll(examples);
            results.stream().filter(x -> !x.passed()).findFirst().ifPresent(x -> {
                throw new IllegalStateException("the usual pipeline fails " + x.source() + ": " + x.errorText());
            });
            validated = results.stream().mapToInt(UsualPipeline.Result::validated).sum();
            totals.add(results.stream().mapToLong(UsualPipeline.Result::wallNanos).sum());
        }
        long first = totals.remove(0);
        long median = Stats.median(totals);
        report.line(String.format("Helm 3.21.0 CLI and kubeconform 0.8.0, both built from their Go modules; kubeconform's strict "
                + "schemas generated offline from the local API server's OpenAPI (built-in kinds and the three CRDs). "
                + "%d objects validated per pass, none skipped.", validated));
        report.line("");
        report.line("| | time |");
        report.line("|---|---|");
        report.line("| first pass | " + Stats.ms(first) + " |");
        report.line("| median of " + runs + " passes | " + Stats.ms(median) + " |");
        report.line("| per values file | " + Stats.ms(median / examples.size()) + " |");
        report.figure("offline-usual-pipeline", "warm-median", median / 1e6, "ms");
        report.line("");
        report.line(String.format("**Side by side, warm medians: this harness %s, the usual pipeline %s: %.1fx faster**, "
                + "and it checks more: the values schema with an independent validator, strict parsing (duplicate keys), "
                + "scalar types the API would coerce, and the CRD schemas. In a fresh JVM, the harness's first pass "
                + "(%s) includes loading Helm's native library.",
                Stats.ms(harnessMedian), Stats.ms(median), (double) median / harnessMedian, Stats.ms(harnessFirst)));
        report.figure("offline", "ratio-usual-over-harness", (double) median / harnessMedian, "x");
        return pipeline;
    }

    // ------------------------------------------------------------------ cluster tier
    private void cluster() {
        report.line("");
        report.line("## Cluster tier");
        report.line("");
        List<Long> starts = new ArrayList<>();
        List<Long> ready = new ArrayList<>();
        String description = "";
        for (int r = 0; r < 3; r++) {
            try (ClusterSession s = start()) {
                starts.add(s.cluster().startTime().toNanos());
                ready.add(s.readyTime().toNanos());
                description = s.cluster().description();
            }
        }
        report.line("Cluster: " + description + ".");
        report.line("");
        report.line("| | median of 3 | runs |");
        report.line("|---|---|---|");
        report.line("| start (API server ready) | " + Stats.seconds(Stats.median(starts)) + " | " + list(starts) + " |");
        report.line("| start + CRDs established | " + Stats.seconds(Stats.median(ready)) + " | " + list(ready) + " |");
        report.figure("cluster", "start-median", Stats.median(starts) / 1e9, "s");
        report.figure("cluster", "ready-with-crds-median", Stats.median(ready) / 1e9, "s");
        try (ClusterSession s = start()) {
            installs(s);
            scale(s);
        }
    }

    private ClusterSession start() {
        return ClusterSession.start(chart.settings(), OUT.resolve("cluster"), line -> System.err.println("  [cluster] " + line));
    }

    private void installs(ClusterSession s) {
        report.line("");
        report.line("Install with Helm (helm-java, real release storage) + read every object back, per example:");
        report.line("");
        report.line("| example | objects | install | read back |");
        report.line("|---|---|---|---|");
        long total = 0;
        for (Path f : examples) {
            String release = dev.nimchart.render.ChartRenderer.releaseName(f);
            String ns = s.restrictedNamespace("bench-" + release);
            long t0 = System.nanoTime();
            s.releases().install(Release.of(chart.dir(), release, ns, List.of(f)));
            long t1 = System.nanoTime();
            int objects = s.api().objectsIn(ns).size();
            long t2 = System.nanoTime();
            total += t2 - t0;
            report.line("| " + f.getFileName() + " | " + objects + " | " + Stats.ms(t1 - t0) + " | " + Stats.ms(t2 - t1) + " |");
            report.figure("cluster-install", f.getFileName().toString(), (t2 - t0) / 1e6, "ms");
        }
        report.line("| **all " + examples.size() + "** | | " + Stats.seconds(total) + " | |");
    }

    /** The offline tier's judgement of values files that must render: the manifest, or an exception saying why not. */
    private static RenderedManifest check(ValuesJudge judge, List<Path> files) {
        ValuesJudge.Judgement j = judge.judge(files);
        if (j.refused() || j.problem() != null) {
            throw new IllegalStateException(files + ": " + (j.problem() != null ? j.problem() : j.message()));
        }
        return j.manifest();
    }

    // ------------------------------------------------------------------ scale
    private void scale(ClusterSession s) {
        report.line("");
        report.line("## Scale: multiNode.workers x replicaCount (8 GPUs per node)");
        report.line("");
        report.line("Render = the harness's whole offline check (median of " + runs + "); install = helm install + read back.");
        report.line("");
        report.line("| backend | workers | replicas | pods | GPUs | objects | manifest bytes | render | install |");
        report.line("|---|---|---|---|---|---|---|---|---|");
        ValuesJudge harness = new ValuesJudge(chart.dir(), chart.settings());
        dev.nimchart.settings.Settings paths = chart.settings();
        Map<String, Integer> sizes = new java.util.LinkedHashMap<>();
        for (String backend : List.of("lws", "mpijob")) {
            Path seed = paths.examplesDir().resolve("multi-node-llama-3.1-405b-" + backend + ".yaml");
            for (int replicas : REPLICAS) {
                for (int workers : WORKERS) {
                    ScalePoint p = new ScalePoint(backend, seed, workers, replicas);
                    List<Path> files = p.valuesFiles(OUT.resolve("scale"));
                    List<Long> times = new ArrayList<>();
                    RenderedManifest manifest = null;
                    for (int r = 0; r < runs; r++) {
                        long t0 = System.nanoTime();
                        manifest = check(harness, files);
                        times.add(System.nanoTime() - t0);
                    }
                    List<PodTemplate> templates = PodTemplate.of(manifest);
                    int pods = templates.stream().mapToInt(PodTemplate::pods).sum();
                    int gpus = templates.stream().mapToInt(t -> t.pods() * t.gpus()).sum();
                    int bytes = manifest.text().getBytes(StandardCharsets.UTF_8).length;
                    String ns = s.restrictedNamespace(p.release());
                    long t0 = System.nanoTime();
                    s.releases().install(Release.of(chart.dir(), p.release(), ns, files));
                    s.api().objectsIn(ns);
                    long install = System.nanoTime() - t0;
                    long render = Stats.median(times);
                    report.line(String.format("| %s | %d | %d | %d | %d | %d | %d | %s | %s |", backend, workers, replicas, pods, gpus,
                            manifest.objects().size(), bytes, Stats.ms(render), Stats.ms(install)));
                    String key = p.release();
                    sizes.put(key, bytes);
                    report.figure("scale-render", key, render / 1e6, "ms");
                    report.figure("scale-install", key, install / 1e6, "ms");
                    report.figure("scale-bytes", key, bytes, "bytes");
                }
            }
        }
        report.line("");
        for (String backend : List.of("lws", "mpijob")) {
            int w2r1 = sizes.get("scale-" + backend + "-w2-r1");
            int w64r1 = sizes.get("scale-" + backend + "-w64-r1");
            int w2r8 = sizes.get("scale-" + backend + "-w2-r8");
            report.line(String.format("Growth, %s: 2 -> 64 workers adds %d bytes (%+.2f%%); each replica beyond the first adds %d bytes.",
                    backend, w64r1 - w2r1, 100.0 * (w64r1 - w2r1) / w2r1, (w2r8 - w2r1) / 7));
        }
    }

    /** The README's first command, warm: ci/benchmark.sh --show-example timed its runs before starting this JVM. */
    private void showExampleTimes() throws IOException {
        Path file = OUT.resolve("show-example.tsv");
        if (!Files.isRegularFile(file)) {
            return;
        }
        List<Long> nanos = Files.readAllLines(file).stream().filter(l -> !l.isBlank()).map(l -> Long.parseLong(l.trim()) * 1_000_000).toList();
        report.line("");
        report.line("## `ci/show-example.sh`, warm (the default example on the controller tier, end to end as a user starts it)");
        report.line("");
        report.line("Runs: " + list(nanos) + ".");
        report.figure("show-example", "warm-median", Stats.median(nanos) / 1e9, "s");
        report.figure("show-example", "warm-min", java.util.Collections.min(nanos) / 1e9, "s");
        report.figure("show-example", "warm-max", java.util.Collections.max(nanos) / 1e9, "s");
    }

    /**
     * Whole `mvn -B verify` wall times that ci/benchmark.sh --verify measured before starting this JVM, and the cold
     * run's (ci/cold-run.sh: the README's two commands on a fresh clone with every cache empty).
     */
    private void verifyTimes() throws IOException {
        report.line("");
        report.line("## Whole `mvn -B verify` (offline, cluster and controller tiers)");
        report.line("");
        Path file = OUT.resolve("verify.tsv");
        if (!Files.isRegularFile(file)) {
            report.line("Not measured in this run: `ci/benchmark.sh --verify` (warm caches) and `--cold` (fresh clone, empty caches) measure it.");
            return;
        }
        report.line("| run | time |");
        report.line("|---|---|");
        boolean warm = false;
        boolean cold = false;
        for (String line : Files.readAllLines(file)) {
            String[] parts = line.split("\t");
            long ms = Long.parseLong(parts[1].trim());
            String label = switch (parts[0]) {
                case "cold-show-example" -> "cold, first command: `ci/show-example.sh` on a fresh clone, every cache empty";
                case "cold" -> "cold, second command: `mvn -B verify` after it (CI=true)";
                case "warm-machine-cpu" -> "... the machine's busy CPU time meanwhile (both cores, every process)";
                default -> "`mvn -B verify`, warm caches";
            };
            report.line("| " + label + " | " + Stats.seconds(ms * 1_000_000) + " |");
            switch (parts[0]) {
                case "cold-show-example" -> report.figure("cold-run", "show-example", ms / 1000.0, "s");
                case "cold" -> report.figure("cold-run", "mvn-verify", ms / 1000.0, "s");
                default -> report.figure("mvn-verify", parts[0], ms / 1000.0, "s");
            }
            warm |= parts[0].equals("warm");
            cold |= parts[0].startsWith("cold");
        }
        if (warm) {
            new VerifyRunReports(report).record(Path.of("..", "chart-tests", "target"));
        }
        if (cold) {
            // only from this run's cold logs: a warm run must not record again what an earlier cold run left in OUT
            coldBuilds(List.of(OUT.resolve("show-example-cold.log"), OUT.resolve("verify-cold.log")));
        }
    }

    /**
     * The build scripts' own totals, as they printed them during the cold run (the first command builds most, the
     * second what the first did not need).
     */
    private void coldBuilds(List<Path> logs) throws IOException {
        List<String> lines = new ArrayList<>();
        for (Path log : logs) {
            if (Files.isRegularFile(log)) {
                lines.addAll(Files.readAllLines(log));
            }
        }
        if (lines.isEmpty()) {
            return;
        }
        Map<String, java.util.regex.Pattern> builds = new java.util.LinkedHashMap<>();
        builds.put("control plane (etcd, kube-apiserver, kubectl)", java.util.regex.Pattern.compile("built in \\d+s \\(compile only\\), (\\d+)s in total"));
        builds.put("controllers (kube-controller-manager, kube-scheduler, kwok, LWS, mpi-operator)",
                java.util.regex.Pattern.compile("controllers ready in \\S+ after (\\d+)s"));
        builds.put("Helm CLI", java.util.regex.Pattern.compile("built helm \\S+ in (\\d+)s"));
        builds.put("kubeconform", java.util.regex.Pattern.compile("built kubeconform \\S+ in (\\d+)s"));
        builds.put("the endpoint picker (compile)", java.util.regex.Pattern.compile("done: building \\S+/cmd/epp@\\S+ in (\\d+)s"));
        builds.put("KEDA's admission webhooks (compile)", java.util.regex.Pattern.compile("done: building \\S+/cmd/webhooks@\\S+ in (\\d+)s"));
        builds.put("the NetworkPolicy enforcer (compile)", java.util.regex.Pattern.compile("done: building kube-network-policies \\S+ in (\\d+)s"));
        report.line("");
        report.line("Cold builds in that run (each script's own total, as it printed it; they run one after another):");
        report.line("");
        report.line("| build | time |");
        report.line("|---|---|");
        for (Map.Entry<String, java.util.regex.Pattern> b : builds.entrySet()) {
            lines.stream().map(b.getValue()::matcher).filter(java.util.regex.Matcher::find).findFirst().ifPresent(m -> {
                report.line("| " + b.getKey() + " | " + m.group(1) + " s |");
                report.figure("cold-build", b.getKey(), Double.parseDouble(m.group(1)), "s");
            });
        }
    }

    private static String list(List<Long> nanos) {
        return String.join(", ", nanos.stream().map(Stats::seconds).toList());
    }
}
