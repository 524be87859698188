package dev.nimchart;

import dev.nimchart.lint.Finding;
import dev.nimchart.lint.PolicyCheck;
import dev.nimchart.lint.PolicyExceptions;
import java.util.Map;

import dev.nimchart.fuzz.FuzzRun;
import dev.nimchart.render.ChartYaml;
import dev.nimchart.values.ExampleValuesFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;

/**
 * The front door of the library: a chart directory (any chart name, e.g. a vendored copy renamed {@code acme-nim})
 * and the directories of values files to check it with, on the offline tier. In a JUnit 5 test class:
 *
 * <pre>{@code
 * class AcmeNimChartTest {
 *     @TestFactory
 *     Stream<DynamicNode> offlineTier() {
 *         return ChartCheck.of(Path.of("charts/acme-nim")).values(Path.of("values")).offlineTests();
 *     }
 * }
 * }</pre>
 *
 * One dynamic test per values file (named after it), plus one for the fuzz run: a bad file is one failing test whose
 * message is the first reason it failed. The test JVM needs the environment variable {@code KUBECONFIG} set to a
 * writable path ending in {@code lookup-stub.kubeconfig} (Helm's {@code lookup} goes to a loopback stub there, never
 * to a real cluster); in Maven: surefire's {@code <environmentVariables>}.
 *
 * <h2>Values directories</h2>
 * Each directory's {@code *.yaml} and {@code *.yml} files (not its subdirectories) must install: their merged values
 * (the chart's values.yaml, then the file) pass values.schema.json (checked by Helm and by an independent validator),
 * Helm renders them, the manifest prints no {@code <no value>} and no number in exponent form, every object passes the
 * strict model check (Kubernetes' own API models for built-in kinds, the CRD schemas for LeaderWorkerSet, MPIJob and
 * ServiceMonitor: unknown fields, wrong types, invalid names are errors), and every object carries the standard labels
 * ({@code app.kubernetes.io/name} is the chart's name from Chart.yaml, or {@code nameOverride}).
 *
 * <h2>The {@code expect-error} rules</h2>
 * Files in a values directory's {@code invalid/} subdirectory must be refused. Each starts with the line
 * <pre>{@code # expect-error: <text>}</pre>
 * and passes when:
 * <ol>
 *   <li>that is the file's very first line ({@code #}, optional spaces, {@code expect-error:}, the text; the text is
 *       trimmed, and compared case-sensitively);</li>
 *   <li>the text names a values key: a JSON pointer as Helm's schema errors print it ({@code at '/image/tag'}),
 *       {@code additional properties 'x'}, or a dotted key path ({@code multiNode.gpusPerNode},
 *       {@code env[2]});</li>
 *   <li>Helm refuses the file, and its error message contains the text exactly (a substring: copy it from Helm's
 *       output, without the {@code execution error at (...)} location, which names the chart);</li>
 *   <li>no template crash text ({@code nil pointer}, {@code <no value>}, {@code runtime error}, ...) is in the message;</li>
 *   <li>a text starting with {@code at '} is a schema error: the refusal comes from values.schema.json, and an
 *       independent JSON-schema validator refuses the merged values at the same key. Any other text is a preflight
 *       rule: the refusal comes from the chart's {@code templates/validate/preflight.yaml} and the values pass the
 *       schema (a file that breaks the schema too is reported by the schema first: expect that error instead).</li>
 * </ol>
 *
 * <h2>Fuzz</h2>
 * {@link #fuzz(int, long)} documents generated from values.schema.json (default 200, seed 20260601) each render
 * valid objects or are refused clearly; failing documents are kept under {@code <work dir>/fuzz-failures/}.
 *
 * <h2>Policy engines</h2>
 * {@link #lint(Path)} also judges what every valid values file renders with kube-score and checkov (the project's
 * pinned builds, made by its ci/ scripts), pods inside custom resources (LeaderWorkerSet, MPIJob, any resource that
 * wraps a pod template) unwrapped into Pods first; a finding the exceptions file ({@link PolicyExceptions}) does not
 * document fails that values file.
 *
 * <p>The cluster tiers (API server, controllers) run from {@code ci/check-chart.sh --tier api|controllers|all}.
 */
public final class ChartCheck {

    /** Fuzz documents by default: enough to meet every workload and refusal kind, a few seconds. */
    public static final int DEFAULT_FUZZ_COUNT = 200;
    public static final long DEFAULT_FUZZ_SEED = 20260601L;

    private final Path chartDir;
    private final List<Path> valuesDirs;
    private final int fuzzCount;
    private final long fuzzSeed;
    private final Path workDir;
    /** null: no policy engines; else the exceptions they allow (none: PolicyExceptions.none()). */
    private final PolicyExceptions lint;

    private ChartCheck(Path chartDir, List<Path> valuesDirs, int fuzzCount, long fuzzSeed, Path workDir, PolicyExceptions lint) {
        this.chartDir = chartDir;
        this.valuesDirs = List.copyOf(valuesDirs);
        this.fuzzCount = fuzzCount;
        this.fuzzSeed = fuzzSeed;
        this.workDir = workDir;
        this.lint = lint;
    }

    /** The chart in this directory (it holds Chart.yaml, values.yaml and values.schema.json). */
    public static ChartCheck of(Path chartDir) {
        Path dir = chartDir.toAbsolutePath().normalize();
        ChartYaml.read(dir);
        return new ChartCheck(dir, List.of(), DEFAULT_FUZZ_COUNT, DEFAULT_FUZZ_SEED, Path.of("target").toAbsolutePath(), null);
    }

    /** Checks the values files of these directories (and of their {@code invalid/} subdirectories). */
    public ChartCheck values(Path... dirs) {
        return values(List.of(dirs));
    }

    public ChartCheck values(List<Path> dirs) {
        List<Path> all = new ArrayList<>(valuesDirs);
        dirs.forEach(d -> all.add(d.toAbsolutePath().normalize()));
        return new ChartCheck(chartDir, all, fuzzCount, fuzzSeed, workDir, lint);
    }

    /** Generated documents for the fuzz run (0: no fuzz run) and their seed. */
    public ChartCheck fuzz(int count, long seed) {
        return new ChartCheck(chartDir, valuesDirs, count, seed, workDir, lint);
    }

    /** Where fuzz documents are written (default {@code target/} of the working directory). */
    public ChartCheck workDir(Path dir) {
        return new ChartCheck(chartDir, valuesDirs, fuzzCount, fuzzSeed, dir.toAbsolutePath(), lint);
    }

    /**
     * Also runs the policy engines on every valid values file, allowing the findings this exceptions file documents
     * (null: none allowed).
     */
    public ChartCheck lint(Path exceptionsFile) {
        return new ChartCheck(chartDir, valuesDirs, fuzzCount, fuzzSeed, workDir,
                exceptionsFile == null ? PolicyExceptions.none() : PolicyExceptions.read(exceptionsFile));
    }

    public Path chartDir() {
        return chartDir;
    }

    /** The values files that must install, sorted by file name. */
    public List<Path> validFiles() {
        return files().valid();
    }

    /** The values files that must be refused ({@code invalid/}), sorted by file name. */
    public List<Path> invalidFiles() {
        return files().invalid();
    }

    /** The name of the fuzz row in tables and of its dynamic test. */
    public String fuzzSubject() {
        return "fuzz (" + fuzzCount + " documents, seed " + fuzzSeed + ")";
    }

    /** Every values file and the fuzz run, checked now; one verdict each. */
    public List<Verdict> offline() {
        List<Path> valid = validFiles();
        List<Path> invalid = invalidFiles();
        OfflineTier tier = new OfflineTier(chartDir);
        List<Verdict> verdicts = new ArrayList<>();
        valid.forEach(f -> verdicts.add(verdict(f, tier.checkValid(f))));
        if (lint != null) {
            List<Path> passed = valid.stream().filter(f -> verdicts.stream().anyMatch(v -> v.ok() && v.subject().equals(f.toString()))).toList();
            Map<String, String> findings = policyFindings(passed);
            verdicts.replaceAll(v -> v.ok() && findings.containsKey(Path.of(v.subject()).getFileName().toString())
                    ? new Verdict(v.subject(), Tier.OFFLINE, findings.get(Path.of(v.subject()).getFileName().toString())) : v);
        }
        invalid.forEach(f -> verdicts.add(verdict(f, tier.checkInvalid(f))));
        if (fuzzCount > 0) {
            verdicts.add(fuzzVerdict(tier));
        }
        return verdicts;
    }

    /**
     * For a {@code @TestFactory}: one dynamic test per values file and one for the fuzz run, each failing with the
     * first reason its subject failed.
     */
    public Stream<DynamicNode> offlineTests() {
        ChartCheck check = this;
        List<Path> valid = validFiles();
        List<Path> invalid = invalidFiles();
        OfflineTier[] tier = new OfflineTier[1];
        java.util.function.Supplier<OfflineTier> lazyTier = () -> {
            synchronized (tier) {
                if (tier[0] == null) {
                    tier[0] = new OfflineTier(check.chartDir);
                }
                return tier[0];
            }
        };
        Stream<DynamicNode> validTests = valid.stream().map(f -> DynamicTest.dynamicTest(label(f), f.toUri(),
                () -> fail(verdict(f, lazyTier.get().checkValid(f)))));
        Stream<DynamicNode> invalidTests = invalid.stream().map(f -> DynamicTest.dynamicTest(label(f), f.toUri(),
                () -> fail(verdict(f, lazyTier.get().checkInvalid(f)))));
        Stream<DynamicNode> lintTest = lint != null
                ? Stream.of(DynamicTest.dynamicTest("policy engines (kube-score, checkov)", () -> {
                    Map<String, String> findings = policyFindings(valid);
                    if (!findings.isEmpty()) {
                        throw new AssertionError(String.join("\n", findings.values()));
                    }
                }))
                : Stream.empty();
        Stream<DynamicNode> fuzzTest = fuzzCount > 0
                ? Stream.of(DynamicTest.dynamicTest(fuzzSubject(), () -> fail(fuzzVerdict(lazyTier.get()))))
                : Stream.empty();
        return Stream.of(validTests, invalidTests, lintTest, fuzzTest).flatMap(s -> s);
    }

    /** Values file name to why the policy engines fail it (its undocumented findings), for files with any. */
    private Map<String, String> policyFindings(List<Path> files) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        if (files.isEmpty()) {
            return out;
        }
        PolicyCheck.Result result = PolicyCheck.withProjectTools(line -> { })
                .run(chartDir, files, OfflineTier.NAMESPACE, lint, workDir);
        Map<String, List<Finding>> bySubject = new java.util.LinkedHashMap<>();
        result.undocumented().forEach(f -> bySubject.computeIfAbsent(f.subject(), k -> new ArrayList<>()).add(f));
        bySubject.forEach((subject, list) -> out.put(subject, "policy engines: " + list.size() + " undocumented finding"
                + (list.size() == 1 ? "" : "s") + "; the first: " + list.get(0)));
        return out;
    }

    private Verdict fuzzVerdict(OfflineTier tier) {
        FuzzRun.Result result = new FuzzRun(chartDir, tier.strictModelCheck(), workDir).run(fuzzSeed, fuzzCount);
        if (result.failures().isEmpty()) {
            return Verdict.passed(fuzzSubject(), Tier.OFFLINE);
        }
        return new Verdict(fuzzSubject(), Tier.OFFLINE, result.failures().size() + " of " + fuzzCount
                + " documents failed (kept under " + workDir.resolve("fuzz-failures") + "); the first: " + result.failures().get(0));
    }

    private static Verdict verdict(Path file, Optional<String> problem) {
        return new Verdict(file.toString(), Tier.OFFLINE, problem.orElse(null));
    }

    private static void fail(Verdict verdict) {
        if (!verdict.ok()) {
            throw new AssertionError(Path.of(verdict.subject()).getFileName() + ": " + verdict.reason());
        }
    }

    /** {@code file.yaml}, or {@code invalid/file.yaml}. */
    static String label(Path file) {
        Path parent = file.getParent();
        return parent != null && parent.getFileName() != null && parent.getFileName().toString().equals("invalid")
                ? "invalid/" + file.getFileName() : file.getFileName().toString();
    }

    private ExampleValuesFiles files() {
        for (Path dir : valuesDirs) {
            if (!Files.isDirectory(dir)) {
                throw new IllegalArgumentException("values directory does not exist: " + dir);
            }
        }
        return new ExampleValuesFiles(valuesDirs);
    }
}
