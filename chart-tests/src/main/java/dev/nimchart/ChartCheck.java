package dev.nimchart;

import dev.nimchart.tiers.ChartRules;
import dev.nimchart.tiers.TierCheck;
import dev.nimchart.tiers.RefusalChecksInParallel;
import dev.nimchart.tiers.Tier;

import dev.nimchart.lint.Finding;
import dev.nimchart.lint.PolicyCheck;
import dev.nimchart.lint.PolicyExceptions;
import java.util.Map;

import dev.nimchart.fuzz.FuzzRun;
import dev.nimchart.judge.ValuesJudge;
import dev.nimchart.settings.Settings;
import dev.nimchart.cluster.ExistingCluster;
import dev.nimchart.progress.Progress;
import dev.nimchart.result.Check;
import dev.nimchart.result.CheckSkipped;
import dev.nimchart.sessions.OwnedTierSessions;
import dev.nimchart.sessions.TierNotStartedException;
import dev.nimchart.sessions.TierSessions;
import dev.nimchart.tiers.apiserver.ApiServerChecks;
import dev.nimchart.tiers.controllers.ControllerChecks;
import dev.nimchart.tiers.offline.OfflineChecks;
import dev.nimchart.tiers.startup.StartupChecks;
import dev.nimchart.render.ChartYaml;
import dev.nimchart.values.ExampleValuesFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The front door of the library: a chart directory (any chart name, e.g. a vendored copy renamed {@code acme-nim})
 * and the directories of values files to check it with, on the offline tier. Its {@code *Tests()} methods return the
 * library's own {@link Check} tree, which no test framework owns; in a JUnit 5 test class, JUnit's adapter
 * ({@code dev.nimchart.junit.DynamicChecks}) turns it into dynamic tests:
 *
 * <pre>{@code
 * class AcmeNimChartTest {
 *     @TestFactory
 *     Stream<DynamicNode> offlineTier() {
 *         return DynamicChecks.of(ChartCheck.of(Path.of("charts/acme-nim"), RunSettings.get()).values(Path.of("values")).offlineTests());
 *     }
 * }
 * }</pre>
 *
 * One check per values file (named after it, its source the file), plus one for the fuzz run: a bad file is one failing
 * test whose message is the first reason it failed. The test JVM needs the environment variable {@code KUBECONFIG} set to a
 * writable path ending in {@code lookup-stub.kubeconfig} (Helm's {@code lookup} goes to a loopback stub there, never
 * to a real cluster); in Maven: surefire's {@code <environmentVariables>}; and the check needs the settings that say so
 * ({@code Settings.lookupKubeconfig()}): the JUnit run's ({@code dev.nimchart.junit.RunSettings}, which reads it), or
 * the caller's own.
 *
 * <h2>Values directories</h2>
 * Each directory's {@code *.yaml} and {@code *.yml} files (not its subdirectories) must install: their merged values
 * (the chart's values.yaml, then the file; with its vendored subcharts, merged as Helm merges them: each subchart's
 * values.yaml under its key or alias, globals copied down, a subchart its condition or tags switch off left out) pass
 * values.schema.json and each enabled subchart's on the part it governs, in the dialect its {@code $schema} names
 * (checked by an independent validator; Helm's own
 * check runs on the values that validator refuses, so both must refuse at the same key, and on every install of the
 * cluster tiers),
 * Helm renders them, the manifest prints no {@code <no value>} and no number in exponent form, every object passes the
 * strict model check (Kubernetes' own API models for built-in kinds, the CRD schemas for LeaderWorkerSet, MPIJob and
 * ServiceMonitor: unknown fields, wrong types, invalid names are errors), and, when the chart's rules ask for it
 * ({@link ChartRules#standardLabels()}), every object carries the standard labels ({@code app.kubernetes.io/name} is the
 * chart's name from Chart.yaml, or {@code nameOverride}). A chart without values.schema.json is rendered as Helm renders
 * it, with no schema check.
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
 *   <li>a text starting with {@code at '} is a schema error: the refusal comes from values.schema.json (the chart's or
 *       a subchart's), and an independent JSON-schema validator refuses the merged values at the same key. Helm prints
 *       each chart's errors under its name, a subchart's (its alias or name) with pointers from its own values: the
 *       key of {@code at '/replicas'} under {@code cache:} is {@code cache.replicas}. Any other text is a rule of the
 *       chart: the refusal comes from a {@code fail} or {@code required} in any of its templates (or a helper of a
 *       {@code _*.tpl} they include), or, when the chart's rules name a preflight template
 *       ({@link ChartRules#preflightTemplate()}, e.g. {@code validate/preflight.yaml}), from that template only; and the
 *       values pass the schema (a file that breaks the schema too is reported by the schema first: expect that error
 *       instead).</li>
 * </ol>
 * The cluster tiers hold {@code helm install}'s refusal to the same rule ({@code dev.nimchart.judge.RefusalRule}), but
 * the independent validator's verdict, which only the offline tier has.
 *
 * <h2>Fuzz</h2>
 * {@link #fuzz(int, long)} documents generated from values.schema.json and the subcharts' (default 200, seed 20260601;
 * none for a chart without a values.schema.json of its own, its fuzz test aborted with that reason) each render valid
 * objects or are refused clearly; failing documents are kept under {@code <work dir>/fuzz-failures/}.
 * A document holds keys of the chart's and its subcharts' schemas only (a subchart's under its key or alias; and the
 * one mistake of a near-valid document, in the values of the chart or of a subchart the document switches on): it
 * starts empty, unless the chart's rules start it from a scenario of their own
 * ({@link ChartRules#fuzzScenario(java.util.Random)}).
 *
 * <h2>The cluster tiers</h2>
 * {@link #apiServerTests()}, {@link #controllerTests()} and {@link #startupTests()} (or {@link #verdicts(Tier)}) check the
 * same files on a real kube-apiserver, on real controllers with fake GPU nodes, and with the pods' processes started on
 * this machine; every tier is one {@link TierCheck} ({@link #tierCheck(Tier)}, {@link #tiers()}). Each environment has
 * one owner: in JUnit the run's launcher-session store ({@link #on(TierSessions)} with a {@code TierSessions}
 * parameter and {@code @ExtendWith(ChartTiers.class)}, package {@code dev.nimchart.junit}: one environment per tier per
 * test JVM, shared with every class of the run, closed by JUnit); otherwise this check, which starts what it needs on
 * first use and stops it in {@link #close()}. With CI=true a tier that cannot start fails; without, its tests are skipped
 * with the reason. A chart's own rules switch on with {@link #rules(ChartRules)}.
 *
 * <h2>Policy engines</h2>
 * {@link #lint(Path)} also judges what every valid values file renders with kube-score and checkov (the project's
 * pinned builds, made by its ci/ scripts), pods inside custom resources (LeaderWorkerSet, MPIJob, any resource that
 * wraps a pod template) unwrapped into Pods first; a finding the exceptions file ({@link PolicyExceptions}) does not
 * document fails that values file.

 */
public final class ChartCheck implements AutoCloseable {

    /** Fuzz documents by default: enough to meet every workload and refusal kind, a few seconds. */
    public static final int DEFAULT_FUZZ_COUNT = 200;
    public static final long DEFAULT_FUZZ_SEED = 20260601L;

    private final Path chartDir;
    private final List<Path> valuesDirs;
    private final int fuzzCount;
    private final long fuzzSeed;
    private final ChartRules rules;
    /** The reconcile timeout {@link #reconcileTimeout(Duration)} gave; empty: the settings' ({@link Settings#reconcileTimeout()}). */
    private final Optional<Duration> reconcileTimeout;
    /** null: no policy engines; else the exceptions they allow (none: PolicyExceptions.none()). */
    private final PolicyExceptions lint;
    /** Where the cluster tiers' environments come from; shared by this ChartCheck and the copies made from it. */
    private final Sessions sessions;
    /** Where the tiers say what they do (each tags its lines with its name). */
    private final Progress progress;
    private final Settings settings;

    private ChartCheck(Path chartDir, List<Path> valuesDirs, int fuzzCount, long fuzzSeed, ChartRules rules,
            Optional<Duration> reconcileTimeout, PolicyExceptions lint, Sessions sessions, Progress progress, Settings settings) {
        this.chartDir = chartDir;
        this.valuesDirs = List.copyOf(valuesDirs);
        this.fuzzCount = fuzzCount;
        this.fuzzSeed = fuzzSeed;
        this.rules = rules;
        this.reconcileTimeout = reconcileTimeout;
        this.lint = lint;
        this.sessions = sessions;
        this.progress = progress;
        this.settings = settings;
    }

    /** The seconds the controllers get to reconcile one values file unless the settings say ({@code -Dnim.reconcile.timeout}): 90. */
    public static final Duration DEFAULT_RECONCILE_TIMEOUT = Settings.DEFAULT_RECONCILE_TIMEOUT;

    /** On a cluster the harness did not start: 15 minutes unless the settings say (image pulls, model loads). */
    public static final Duration EXISTING_CLUSTER_RECONCILE_TIMEOUT = Settings.DEFAULT_EXISTING_CLUSTER_RECONCILE_TIMEOUT;

    /**
     * The cluster tiers' environments of a ChartCheck and its copies: given by the caller ({@link #on(TierSessions)},
     * e.g. JUnit's launcher-session store), which keeps them; or owned, made on first use (the tiers' own, or an existing cluster's)
     * and stopped by {@link #close()}.
     */
    private static final class Sessions {
        private final TierSessions given;
        private final java.util.function.BiFunction<Progress, Settings, OwnedTierSessions> make;
        private OwnedTierSessions owned;

        Sessions(TierSessions given, java.util.function.BiFunction<Progress, Settings, OwnedTierSessions> make) {
            this.given = given;
            this.make = make;
        }

        /** The sessions; owned ones made on first use, with these settings, saying what they do to {@code progress}. */
        synchronized TierSessions get(Progress progress, Settings settings) {
            if (given != null) {
                return given;
            }
            if (owned == null) {
                owned = make.apply(progress, settings);
            }
            return owned;
        }

        synchronized void close() {
            if (owned != null) {
                owned.close();
            }
        }
    }

    /**
     * The chart in this directory (it holds Chart.yaml, values.yaml and values.schema.json), checked with
     * {@link Settings#defaults()} until {@link #settings(Settings)} gives others: the library reads no system property;
     * in JUnit, {@code dev.nimchart.junit.RunSettings} hands a test the settings of the run's properties.
     */
    public static ChartCheck of(Path chartDir) {
        return of(chartDir, Settings.defaults());
    }

    /** The chart in this directory, checked with these settings. */
    public static ChartCheck of(Path chartDir, Settings settings) {
        Path dir = chartDir.toAbsolutePath().normalize();
        ChartYaml.read(dir);
        return new ChartCheck(dir, List.of(), DEFAULT_FUZZ_COUNT, DEFAULT_FUZZ_SEED, ChartRules.NONE,
                Optional.empty(), null, new Sessions(null, OwnedTierSessions::local), Progress.console(), settings);
    }

    /**
     * The settings everything this check does runs with: where the tiers' programs come from, which cluster, CRDs, the
     * work directory, the reconcile timeout (unless {@link #reconcileTimeout(Duration)} set one), where Helm's lookups
     * go and where Helm's library is unpacked. Environments in JUnit's launcher-session store are shared by the run: the
     * first to start one decides its settings; those this check owns start with its settings.
     */
    public ChartCheck settings(Settings newSettings) {
        return new ChartCheck(chartDir, valuesDirs, fuzzCount, fuzzSeed, rules, reconcileTimeout, lint, sessions, progress, newSettings);
    }

    public Settings settings() {
        return settings;
    }

    /**
     * Where the tiers say what they do: a tier starting, skipped, a process restarted (default {@link Progress#console()};
     * each tier tags its lines, {@code [cluster tier] ...}); the environments this ChartCheck (or a copy) starts itself
     * report to the progress of the check that first needs them.
     */
    public ChartCheck progress(Progress to) {
        return new ChartCheck(chartDir, valuesDirs, fuzzCount, fuzzSeed, rules, reconcileTimeout, lint, sessions, to, settings);
    }

    /** Checks the values files of these directories (and of their {@code invalid/} subdirectories). */
    public ChartCheck values(Path... dirs) {
        return values(List.of(dirs));
    }

    public ChartCheck values(List<Path> dirs) {
        List<Path> all = new ArrayList<>(valuesDirs);
        dirs.forEach(d -> all.add(d.toAbsolutePath().normalize()));
        return new ChartCheck(chartDir, all, fuzzCount, fuzzSeed, rules, reconcileTimeout, lint, sessions, progress, settings);
    }

    /** Generated documents for the fuzz run (0: no fuzz run) and their seed. */
    public ChartCheck fuzz(int count, long seed) {
        return new ChartCheck(chartDir, valuesDirs, count, seed, rules, reconcileTimeout, lint, sessions, progress, settings);
    }

    /** The work directory: where fuzz documents and the tiers' reports are written ({@link Settings#workDir()}, default {@code target/}). */
    public ChartCheck workDir(Path dir) {
        return new ChartCheck(chartDir, valuesDirs, fuzzCount, fuzzSeed, rules, reconcileTimeout, lint, sessions, progress, settings.withWorkDir(dir));
    }

    /** The chart's own rules on top of the generic checks (default: none). */
    public ChartCheck rules(ChartRules chartRules) {
        return new ChartCheck(chartDir, valuesDirs, fuzzCount, fuzzSeed, chartRules, reconcileTimeout, lint, sessions, progress, settings);
    }

    /** How long the controllers get to reconcile one values file. */
    public ChartCheck reconcileTimeout(Duration timeout) {
        return new ChartCheck(chartDir, valuesDirs, fuzzCount, fuzzSeed, rules, Optional.of(timeout), lint, sessions, progress, settings);
    }

    /**
     * Also runs the policy engines on every valid values file, allowing the findings this exceptions file documents
     * (null: none allowed).
     */
    public ChartCheck lint(Path exceptionsFile) {
        return new ChartCheck(chartDir, valuesDirs, fuzzCount, fuzzSeed, rules, reconcileTimeout,
                exceptionsFile == null ? PolicyExceptions.none() : PolicyExceptions.read(exceptionsFile), sessions, progress, settings);
    }

    /**
     * Runs the API-server and reconciled-state checks on a cluster the harness did not start, reached with this
     * kubeconfig ({@code -Dnim.cluster=kubeconfig -Dnim.kubeconfig=FILE} does the same for every check of the JVM):
     * it creates its own namespaces and what goes in them, and with {@link ExistingCluster.Writes#CLUSTER} also what
     * an administrator would provide (CRDs, StorageClasses, volumes, priority and runtime classes); it cleans up what
     * it made, waits {@link #EXISTING_CLUSTER_RECONCILE_TIMEOUT} for a release unless told otherwise, and stops nothing
     * of the cluster. The start-up tier does not run there.
     */
    public ChartCheck existingCluster(Path kubeconfig, ExistingCluster.Writes writes) {
        Path config = kubeconfig.toAbsolutePath();
        Settings existing = settings.withExistingCluster(config, writes.name().toLowerCase(java.util.Locale.ROOT));
        return new ChartCheck(chartDir, valuesDirs, fuzzCount, fuzzSeed, rules, reconcileTimeout, lint,
                new Sessions(null, (p, st) -> OwnedTierSessions.existing(config, writes, st.workDir(), st, p)), progress, existing);
    }

    /** How long the controllers get to reconcile one values file: the one given, else the settings' ({@link Settings#reconcileTimeout()}). */
    public Duration reconcileTimeout() {
        return reconcileTimeout.orElseGet(settings::reconcileTimeout);
    }

    /**
     * The cluster tiers on environments the caller owns, e.g. JUnit's launcher-session store ({@code ChartTiers.sessions(context)}, or a
     * {@code TierSessions} parameter with {@code @ExtendWith(ChartTiers.class)}): one environment per tier per test JVM,
     * shared with every class of the run, closed by their owner and not by {@link #close()}.
     */
    public ChartCheck on(TierSessions tierSessions) {
        return new ChartCheck(chartDir, valuesDirs, fuzzCount, fuzzSeed, rules, reconcileTimeout, lint,
                new Sessions(tierSessions, null), progress, settings);
    }

    /**
     * Stops the tier environments this ChartCheck (or a copy made from it) started itself: its own cluster and
     * controllers, or its sessions on an existing cluster (which stop nothing of that cluster). Environments given with
     * {@link #on(TierSessions)} are their owner's.
     */
    @Override
    public void close() {
        sessions.close();
    }

    /** The tiers, cheapest first: what {@code ci/check-chart.sh} and {@link #verdicts(Tier)} loop over. */
    public static List<Tier> tiers() {
        return List.of(Tier.values());
    }

    /** One tier's checks with this ChartCheck's chart, rules and environments: the one place a tier is made. */
    public TierCheck tierCheck(Tier tier) {
        return switch (tier) {
            case OFFLINE -> new OfflineChecks(chartDir, rules, settings);
            case API -> new ApiServerChecks(chartDir, sessions.get(progress, settings), rules, settings);
            case CONTROLLERS -> new ControllerChecks(chartDir, sessions.get(progress, settings), rules, reconcileTimeout());
            case STARTUP -> new StartupChecks(chartDir, sessions.get(progress, settings), rules, reconcileTimeout(), settings.workDir().resolve("startup-tier"), settings, progress);
        };
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

    /** Whether the chart has a values.schema.json, which the fuzz documents are drawn from (without one there are none). */
    private boolean hasValuesSchema() {
        return java.nio.file.Files.isRegularFile(chartDir.resolve("values.schema.json"));
    }

    /** The name of the fuzz row in tables and of its dynamic test. */
    public String fuzzSubject() {
        return "fuzz (" + fuzzCount + " documents, seed " + fuzzSeed + ")";
    }

    /** Every values file and the fuzz run, checked now (the files in parallel on every core); one verdict each. */
    public List<Verdict> offline() {
        List<Path> valid = validFiles();
        List<Path> invalid = invalidFiles();
        List<Verdict> verdicts = new ArrayList<>();
        OfflineChecks offline = (OfflineChecks) tierCheck(Tier.OFFLINE);
        try {
            offline.start();
        } catch (RuntimeException e) {
            // A chart the harness cannot judge offline (e.g. a values schema in a dialect the independent validator
            // cannot load) still gets a verdict per file, naming why, and the other tiers still run.
            String reason = "the offline tier cannot judge this chart: " + e.getMessage();
            Stream.concat(valid.stream(), invalid.stream()).forEach(f -> verdicts.add(new Verdict(f.toString(), Tier.OFFLINE, reason)));
            if (fuzzCount > 0 && hasValuesSchema()) {
                verdicts.add(new Verdict(fuzzSubject(), Tier.OFFLINE, reason));
            }
            return verdicts;
        }
        Map<Path, Optional<Throwable>> installs = offline.installEach(valid);
        Map<Path, Optional<Throwable>> refusals = offline.refuseEach(invalid);
        for (Path f : valid) {
            verdicts.add(verdict(f, Tier.OFFLINE, installs.get(f)));
        }
        if (lint != null) {
            List<Path> passed = valid.stream().filter(f -> verdicts.stream().anyMatch(v -> v.ok() && v.subject().equals(f.toString()))).toList();
            Map<String, String> findings = policyFindings(passed);
            verdicts.replaceAll(v -> v.ok() && findings.containsKey(Path.of(v.subject()).getFileName().toString())
                    ? new Verdict(v.subject(), Tier.OFFLINE, findings.get(Path.of(v.subject()).getFileName().toString())) : v);
        }
        for (Path f : invalid) {
            verdicts.add(verdict(f, Tier.OFFLINE, refusals.get(f)));
        }
        if (fuzzCount > 0 && hasValuesSchema()) {
            verdicts.add(fuzzVerdict(offline.judge()));
        }
        return verdicts;
    }

    /**
     * The offline tier's checks, to run (e.g. as a JUnit {@code @TestFactory} through {@code DynamicChecks.of}): one per
     * values file and one for the fuzz run, each failing with the first reason its subject failed. The first check to
     * run judges every file, in parallel on every core; each check then reports its own file's verdict.
     */
    public Check offlineTests() {
        OfflineChecks offline = (OfflineChecks) tierCheck(Tier.OFFLINE);
        List<Check> checks = new ArrayList<>(tierTests(offline, () -> offline));
        if (lint != null) {
            checks.add(Check.test("policy engines (kube-score, checkov)", () -> {
                Map<String, String> findings = policyFindings(validFiles());
                if (!findings.isEmpty()) {
                    throw new AssertionError(String.join("\n", findings.values()));
                }
            }));
        }
        if (fuzzCount != 0) {
            checks.add(hasValuesSchema() ? Check.test(fuzzSubject(), () -> fail(fuzzVerdict(offline.judge())))
                    : Check.skipped(fuzzSubject(), "no fuzz documents: the chart has no values.schema.json to draw them from"));
        }
        return group(Tier.OFFLINE, checks);
    }

    /** The checks of a tier under one name, the tier's and the chart directory's. */
    private Check group(Tier tier, List<Check> checks) {
        return Check.group(tier.label() + " tier: " + chartDir.getFileName(), checks);
    }

    /** Values file name to why the policy engines fail it (its undocumented findings), for files with any. */
    private Map<String, String> policyFindings(List<Path> files) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        if (files.isEmpty()) {
            return out;
        }
        PolicyCheck.Result result = PolicyCheck.withProjectTools(settings, line -> { })
                .run(chartDir, settings, files, ValuesJudge.NAMESPACE, lint);
        Map<String, List<Finding>> bySubject = new java.util.LinkedHashMap<>();
        result.undocumented().forEach(f -> bySubject.computeIfAbsent(f.subject(), k -> new ArrayList<>()).add(f));
        bySubject.forEach((subject, list) -> out.put(subject, "policy engines: " + list.size() + " undocumented finding"
                + (list.size() == 1 ? "" : "s") + "; the first: " + list.get(0)));
        return out;
    }

    /** Every values file checked on a tier now, one verdict each (for the offline tier, the fuzz run too). */
    public List<Verdict> verdicts(Tier tier) {
        return verdicts(tier, v -> { });
    }

    /** As {@link #verdicts(Tier)}, handing each verdict to {@code progress} as it is reached. */
    public List<Verdict> verdicts(Tier tier, java.util.function.Consumer<Verdict> progress) {
        if (tier == Tier.OFFLINE) {
            List<Verdict> offline = offline();
            offline.forEach(progress);
            return offline;
        }
        TierCheck checks = tierCheck(tier);
        List<Path> valid = validFiles().stream().filter(checks::installs).toList();
        List<Path> invalid = tier.checksRefusals() ? invalidFiles() : List.of();
        List<Verdict> verdicts = new ArrayList<>();
        if (valid.isEmpty() && invalid.isEmpty()) {
            return verdicts; // nothing for this tier to check (e.g. no file opted into the start-up tier): nothing started
        }
        try {
            checks.start();
        } catch (RuntimeException | AssertionError e) {
            String reason = "the " + tier.label() + " tier did not start: " + e.getMessage();
            Stream.concat(valid.stream(), invalid.stream()).forEach(f -> {
                Verdict v = new Verdict(f.toString(), tier, reason);
                verdicts.add(v);
                progress.accept(v);
            });
            return verdicts;
        }
        for (Path f : valid) {
            Verdict v = verdict(f, tier, RefusalChecksInParallel.failureOf(() -> checks.install(f)));
            verdicts.add(v);
            progress.accept(v);
        }
        Map<Path, Optional<Throwable>> refusals = checks.refuseEach(invalid);
        for (Path f : invalid) {
            Verdict v = verdict(f, tier, refusals.get(f));
            verdicts.add(v);
            progress.accept(v);
        }
        return verdicts;
    }

    /** The API-server tier's checks: one per values file, installed into a real kube-apiserver (refusal files refused). */
    public Check apiServerTests() {
        return tierTests(Tier.API);
    }

    /** As {@link #apiServerTests()}, only the values files the chart must install. */
    public Check apiServerInstallTests() {
        TierCheck checks = tierCheck(Tier.API);
        return group(Tier.API, installTests(checks, startedForTests(checks)));
    }

    /**
     * As {@link #apiServerTests()}, only the values files the chart must refuse ({@code invalid/}): each {@code helm
     * install} refused with its expected message, its namespace left empty. A class of its own can run beside the
     * installs (Failsafe's forks).
     */
    public Check apiServerRefusalTests() {
        TierCheck checks = tierCheck(Tier.API);
        return group(Tier.API, refusalTests(checks, startedForTests(checks)));
    }

    /** The controller tier's checks: one per values file, reconciled by real controllers on fake GPU nodes. */
    public Check controllerTests() {
        return tierTests(Tier.CONTROLLERS);
    }

    /**
     * The start-up tier's checks: one per values file the chart's rules opt into the start-up tier
     * ({@link ChartRules#startsUp(Path)}): installed and reconciled as on the controller tier, then its pods' processes
     * started on this machine (an MPI launcher once its workers listen, a Ray head once its workers wait for it) until
     * every readiness probe passes ({@code dev.nimchart.tiers.startup.StartupChecks}). Needs root and {@code ip netns}:
     * with CI=true it runs or fails; otherwise it is skipped with the reason printed.
     */
    public Check startupTests() {
        return tierTests(Tier.STARTUP);
    }

    /** A tier's checks: one per values file the tier checks (installs, then refusal files). */
    public Check tierTests(Tier tier) {
        TierCheck checks = tierCheck(tier);
        return group(tier, tierTests(checks, startedForTests(checks)));
    }

    private List<Check> tierTests(TierCheck checks, Supplier<TierCheck> started) {
        List<Check> all = new ArrayList<>(installTests(checks, started));
        if (checks.tier().checksRefusals()) {
            all.addAll(refusalTests(checks, started));
        }
        return all;
    }

    /**
     * The tier's checks, started when the first check needs them (so that a class whose tests are all filtered out starts
     * nothing): a tier that cannot start fails its checks with CI=true and skips them, with the reason printed, otherwise.
     */
    private static Supplier<TierCheck> startedForTests(TierCheck checks) {
        return once(() -> {
            try {
                checks.start();
            } catch (TierNotStartedException e) {
                throw e.failOrSkip();
            }
            return checks;
        });
    }

    /**
     * One check per values file the chart must install and the tier checks. On the offline tier the first of them
     * judges every file, in parallel; each check then reports its own file.
     */
    private List<Check> installTests(TierCheck checks, Supplier<TierCheck> started) {
        List<Path> files = validFiles().stream().filter(checks::installs).toList();
        if (checks.tier() == Tier.OFFLINE) {
            Supplier<Map<Path, Optional<Throwable>>> all = once(() -> started.get().installEach(files));
            return files.stream().<Check>map(f -> Check.test(label(f), f.toUri(), () -> failOffline(f, all.get().get(f)))).toList();
        }
        return files.stream().<Check>map(f -> Check.test(label(f), f.toUri(), () -> named(f, () -> started.get().install(f)))).toList();
    }

    /**
     * One check per values file the chart must refuse. The first of them checks every refusal file, in parallel; each
     * check then reports its own file.
     */
    private List<Check> refusalTests(TierCheck checks, Supplier<TierCheck> started) {
        List<Path> invalidFiles = invalidFiles();
        Supplier<Map<Path, Optional<Throwable>>> refusals = once(() -> started.get().refuseEach(invalidFiles));
        if (checks.tier() == Tier.OFFLINE) {
            return invalidFiles.stream().<Check>map(f -> Check.test(label(f), f.toUri(), () -> failOffline(f, refusals.get().get(f)))).toList();
        }
        return invalidFiles.stream().<Check>map(f -> Check.test(label(f), f.toUri(),
                () -> named(f, () -> RefusalChecksInParallel.rethrow(refusals.get().get(f))))).toList();
    }

    /** The offline tier's verdict of a file as a test: fails with the file's name and its first reason. */
    private static void failOffline(Path file, Optional<Throwable> failure) {
        fail(verdict(file, Tier.OFFLINE, failure));
    }

    /**
     * A supplier that makes its value when first asked, once, and hands out the same value after that (tests of one
     * class may ask from several threads); if making it throws, the next ask tries again.
     */
    private static <T> Supplier<T> once(Supplier<T> make) {
        return new Supplier<>() {
            private T value;

            @Override
            public synchronized T get() {
                if (value == null) {
                    value = make.get();
                }
                return value;
            }
        };
    }

    /** A file's verdict on a tier from what its check threw, if anything: the reason is the failure's message. */
    private static Verdict verdict(Path file, Tier tier, Optional<Throwable> failure) {
        return new Verdict(file.toString(), tier, failure.map(e -> e.getMessage() == null ? e.toString() : e.getMessage()).orElse(null));
    }

    private static void named(Path file, Runnable check) {
        try {
            check.run();
        } catch (CheckSkipped e) {
            throw e;
        } catch (AssertionError e) {
            throw new AssertionError(label(file) + ": " + e.getMessage(), e);
        }
    }

    private Verdict fuzzVerdict(ValuesJudge tier) {
        FuzzRun.Result result = new FuzzRun(tier, settings.workDir(), rules::fuzzScenario).run(fuzzSeed, fuzzCount);
        if (result.failures().isEmpty()) {
            return Verdict.passed(fuzzSubject(), Tier.OFFLINE);
        }
        return new Verdict(fuzzSubject(), Tier.OFFLINE, result.failures().size() + " of " + fuzzCount
                + " documents failed (kept under " + settings.workDir().resolve("fuzz-failures") + "); the first: " + result.failures().get(0));
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
