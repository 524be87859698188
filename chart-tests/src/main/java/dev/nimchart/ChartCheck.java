package dev.nimchart;

import dev.nimchart.cluster.ExistingCluster;
import dev.nimchart.lint.PolicyExceptions;
import dev.nimchart.progress.Progress;
import dev.nimchart.render.ChartYaml;
import dev.nimchart.result.Check;
import dev.nimchart.sessions.TierSessions;
import dev.nimchart.settings.Settings;
import dev.nimchart.tiers.ChartRules;
import dev.nimchart.tiers.CheckOptions;
import dev.nimchart.tiers.Tier;
import dev.nimchart.tiers.TierCheck;
import dev.nimchart.tiers.TierFactory;
import dev.nimchart.values.ExampleValuesFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

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
 *         return DynamicChecks.of(ChartCheck.of(Path.of("charts/acme-nim"), RunSettings.get()).withValues(Path.of("values")).offlineTests());
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
 * {@link #withFuzz(int, long)} documents generated from values.schema.json and the subcharts' (default 200, seed 20260601;
 * none for a chart without a values.schema.json of its own, its fuzz test aborted with that reason) each render valid
 * objects or are refused clearly; failing documents are kept under {@code <work dir>/fuzz-failures/}.
 * A document holds keys of the chart's and its subcharts' schemas only (a subchart's under its key or alias; and the
 * one mistake of a near-valid document, in the values of the chart or of a subchart the document switches on): it
 * starts empty, unless the chart's rules start it from a scenario of their own
 * ({@link ChartRules#fuzzScenario(java.util.Random)}).
 *
 * <h2>The cluster tiers</h2>
 * {@link #tierTests(Tier)} (or {@link #verdicts(Tier)}) with {@link Tier#API}, {@link Tier#CONTROLLERS} and
 * {@link Tier#STARTUP} check the same files on a real kube-apiserver, on real controllers with fake GPU nodes, and with
 * the pods' processes started on this machine; every tier is one {@link TierCheck} ({@link #tierCheck(Tier)},
 * {@link #tiers()}), made by its {@link TierFactory} and run the same way: the door names no tier, and a tier of the
 * caller's own joins with {@link #withTier(Tier, TierFactory)} (TierCheck says what a new tier takes). Each environment has
 * one owner: in JUnit the run's launcher-session store ({@link #withSessions(TierSessions)} with a {@code TierSessions}
 * parameter and {@code @ExtendWith(ChartTiers.class)}, package {@code dev.nimchart.junit}: one environment per tier per
 * test JVM, shared with every class of the run, closed by JUnit); otherwise this check, which starts what it needs on
 * first use and stops it in {@link #close()}. With CI=true a tier that cannot start fails; without, its tests are skipped
 * with the reason. A chart's own rules switch on with {@link #withRules(ChartRules)}.
 *
 * <h2>Policy engines</h2>
 * {@link #withLint(Path)} also judges what every valid values file renders with kube-score and checkov (the project's
 * pinned builds, made by its ci/ scripts), pods inside custom resources (LeaderWorkerSet, MPIJob, any resource that
 * wraps a pod template) unwrapped into Pods first; a finding the exceptions file ({@link PolicyExceptions}) does not
 * document fails that values file (on the offline tier).
 *
 * <h2>An immutable value</h2>
 * Every option is a {@code withX} method that returns a new check and leaves this one as it was; the options are one
 * value ({@link CheckOptions}) that every tier is made from. The one thing copies share is the holder of the
 * environments this check starts itself, so that {@link #close()} on any of them stops what any started.
 */
public final class ChartCheck implements AutoCloseable {

    /** Fuzz documents by default: enough to meet every workload and refusal kind, a few seconds. */
    public static final int DEFAULT_FUZZ_COUNT = 200;
    public static final long DEFAULT_FUZZ_SEED = 20260601L;

    /** The seconds the controllers get to reconcile one values file unless the settings say ({@code -Dnim.reconcile.timeout}): 90. */
    public static final Duration DEFAULT_RECONCILE_TIMEOUT = Settings.DEFAULT_RECONCILE_TIMEOUT;

    /** On a cluster the harness did not start: 15 minutes unless the settings say (image pulls, model loads). */
    public static final Duration EXISTING_CLUSTER_RECONCILE_TIMEOUT = Settings.DEFAULT_EXISTING_CLUSTER_RECONCILE_TIMEOUT;

    private final CheckOptions options;
    /** Where the cluster tiers' environments come from; shared by this ChartCheck and the copies made from it. */
    private final EnvironmentHolder environments;
    private final TierRegistry tiers;

    private ChartCheck(CheckOptions options, EnvironmentHolder environments, TierRegistry tiers) {
        this.options = options;
        this.environments = environments;
        this.tiers = tiers;
    }

    /**
     * The chart in this directory (it holds Chart.yaml, values.yaml and values.schema.json), checked with
     * {@link Settings#defaults()} until {@link #withSettings(Settings)} gives others: the library reads no system
     * property; in JUnit, {@code dev.nimchart.junit.RunSettings} hands a test the settings of the run's properties.
     */
    public static ChartCheck of(Path chartDir) {
        return of(chartDir, Settings.defaults());
    }

    /** The chart in this directory, checked with these settings. */
    public static ChartCheck of(Path chartDir, Settings settings) {
        Path dir = chartDir.toAbsolutePath().normalize();
        ChartYaml.read(dir);
        return new ChartCheck(new CheckOptions(dir, List.of(), DEFAULT_FUZZ_COUNT, DEFAULT_FUZZ_SEED, ChartRules.NONE,
                Optional.empty(), Optional.empty(), Progress.console(), settings), EnvironmentHolder.local(), TierRegistry.LIBRARY);
    }

    private ChartCheck with(CheckOptions newOptions) {
        return new ChartCheck(newOptions, environments, tiers);
    }

    /**
     * The settings everything this check does runs with: where the tiers' programs come from, which cluster, CRDs, the
     * work directory, the reconcile timeout (unless {@link #withReconcileTimeout(Duration)} set one), where Helm's
     * lookups go and where Helm's library is unpacked. Environments in JUnit's launcher-session store are shared by the
     * run: the first to start one decides its settings; those this check owns start with its settings.
     */
    public ChartCheck withSettings(Settings settings) {
        return with(options.withSettings(settings));
    }

    public Settings settings() {
        return options.settings();
    }

    /** This check's options, as every tier is made from them. */
    public CheckOptions options() {
        return options;
    }

    /**
     * Where the tiers say what they do: a tier starting, skipped, a process restarted (default {@link Progress#console()};
     * each tier tags its lines, {@code [cluster tier] ...}); the environments this ChartCheck (or a copy) starts itself
     * report to the progress of the check that first needs them.
     */
    public ChartCheck withProgress(Progress to) {
        return with(options.withProgress(to));
    }

    /** Checks the values files of these directories (and of their {@code invalid/} subdirectories) too. */
    public ChartCheck withValues(Path... dirs) {
        return withValues(List.of(dirs));
    }

    /** Checks the values files of these directories (and of their {@code invalid/} subdirectories) too. */
    public ChartCheck withValues(List<Path> dirs) {
        List<Path> all = new ArrayList<>(options.valuesDirs());
        dirs.forEach(d -> all.add(d.toAbsolutePath().normalize()));
        return with(options.withValuesDirs(all));
    }

    /** Generated documents for the offline tier's fuzz run (0: no fuzz run) and their seed. */
    public ChartCheck withFuzz(int count, long seed) {
        return with(options.withFuzz(count, seed));
    }

    /** The work directory: where fuzz documents and the tiers' reports are written ({@link Settings#workDir()}, default {@code target/}). */
    public ChartCheck withWorkDir(Path dir) {
        return with(options.withSettings(options.settings().withWorkDir(dir)));
    }

    /** The chart's own rules on top of the generic checks (default: none). */
    public ChartCheck withRules(ChartRules rules) {
        return with(options.withRules(rules));
    }

    /** How long the controllers get to reconcile one values file. */
    public ChartCheck withReconcileTimeout(Duration timeout) {
        return with(options.withReconcileTimeout(timeout));
    }

    /**
     * Also runs the policy engines on every valid values file on the offline tier, allowing the findings this
     * exceptions file documents (null: none allowed).
     */
    public ChartCheck withLint(Path exceptionsFile) {
        return with(options.withLint(exceptionsFile == null ? PolicyExceptions.none() : PolicyExceptions.read(exceptionsFile)));
    }

    /**
     * Runs the API-server and reconciled-state checks on a cluster the harness did not start, reached with this
     * kubeconfig ({@code -Dnim.cluster=kubeconfig -Dnim.kubeconfig=FILE} does the same for every check of the JVM):
     * it creates its own namespaces and what goes in them, and with {@link ExistingCluster.Writes#CLUSTER} also what
     * an administrator would provide (CRDs, StorageClasses, volumes, priority and runtime classes); it cleans up what
     * it made, waits {@link #EXISTING_CLUSTER_RECONCILE_TIMEOUT} for a release unless told otherwise, and stops nothing
     * of the cluster. The start-up tier does not run there.
     */
    public ChartCheck withExistingCluster(Path kubeconfig, ExistingCluster.Writes writes) {
        Path config = kubeconfig.toAbsolutePath();
        Settings existing = options.settings().withExistingCluster(config, writes.name().toLowerCase(java.util.Locale.ROOT));
        return new ChartCheck(options.withSettings(existing), EnvironmentHolder.existing(config, writes), tiers);
    }

    /**
     * The cluster tiers on environments the caller owns, e.g. JUnit's launcher-session store ({@code ChartTiers.sessions(context)}, or a
     * {@code TierSessions} parameter with {@code @ExtendWith(ChartTiers.class)}): one environment per tier per test JVM,
     * shared with every class of the run, closed by their owner and not by {@link #close()}.
     */
    public ChartCheck withSessions(TierSessions tierSessions) {
        return new ChartCheck(options, EnvironmentHolder.given(tierSessions), tiers);
    }

    /**
     * A tier of the caller's own besides the library's, run after them: its name, whether it checks refusal files, and
     * how its checks are made ({@link TierCheck} says what a new tier takes). Refused when a tier of that name is
     * registered already.
     */
    public ChartCheck withTier(Tier tier, TierFactory factory) {
        return new ChartCheck(options, environments, tiers.with(tier, factory));
    }

    /** How long the controllers get to reconcile one values file: the one given, else the settings' ({@link Settings#reconcileTimeout()}). */
    public Duration reconcileTimeout() {
        return options.reconcileTimeout();
    }

    /**
     * Stops the tier environments this ChartCheck (or a copy made from it) started itself: its own cluster and
     * controllers, or its sessions on an existing cluster (which stop nothing of that cluster). Environments given with
     * {@link #withSessions(TierSessions)} are their owner's.
     */
    @Override
    public void close() {
        environments.close();
    }

    /** The library's tiers, cheapest first: what {@code ci/check-chart.sh} offers and {@code all} runs. */
    public static List<Tier> tiers() {
        return TierRegistry.LIBRARY.tiers();
    }

    /** The library's tier of this name (as the command line names it); refused, naming every tier, when there is none. */
    public static Tier tier(String label) {
        return TierRegistry.LIBRARY.named(label);
    }

    /** This check's tiers in the order they run: the library's, then those {@link #withTier} added. */
    public List<Tier> allTiers() {
        return tiers.tiers();
    }

    /** One tier's checks with this ChartCheck's options and environments, made by the tier's registered factory. */
    public TierCheck tierCheck(Tier tier) {
        return tiers.make(tier, options, () -> environments.get(options.progress(), options.settings()));
    }

    public Path chartDir() {
        return options.chartDir();
    }

    /** The values files that must install, sorted by file name. */
    public List<Path> validFiles() {
        return files().valid();
    }

    /** The values files that must be refused ({@code invalid/}), sorted by file name. */
    public List<Path> invalidFiles() {
        return files().invalid();
    }

    /** The name of the fuzz row in tables and of its check. */
    public String fuzzSubject() {
        return options.fuzzSubject();
    }

    /**
     * The offline tier's checks ({@code tierTests(Tier.OFFLINE)}), the call a downstream test makes first; to run e.g.
     * as a JUnit {@code @TestFactory} through {@code DynamicChecks.of}.
     */
    public Check offlineTests() {
        return tierTests(Tier.OFFLINE);
    }

    /**
     * A tier's checks: one per values file the tier checks (installs, then, when the tier checks them, refusal files),
     * then the tier's own ({@link TierCheck#ownChecks()}, e.g. the fuzz run), each failing with the first reason its
     * subject failed. The tier starts when its first check runs, so a class whose checks are all filtered out starts
     * nothing.
     */
    public Check tierTests(Tier tier) {
        return run(tier).tests();
    }

    /** As {@link #tierTests(Tier)}, only the values files the chart must install. */
    public Check installTests(Tier tier) {
        return run(tier).installTests();
    }

    /**
     * As {@link #tierTests(Tier)}, only the values files the chart must refuse ({@code invalid/}): e.g. each {@code helm
     * install} refused with its expected message, its namespace left empty. A class of its own can run beside the
     * installs (Failsafe's forks).
     */
    public Check refusalTests(Tier tier) {
        return run(tier).refusalTests();
    }

    /** Every subject checked on a tier now, one verdict each: its values files, then its own checks (e.g. the fuzz run). */
    public List<Verdict> verdicts(Tier tier) {
        return verdicts(tier, v -> { });
    }

    /**
     * As {@link #verdicts(Tier)}, handing each verdict to {@code progress} as it is reached. A tier that cannot start
     * still gives each subject a verdict, naming why, so the other tiers still run. A skipped own check has no verdict.
     */
    public List<Verdict> verdicts(Tier tier, Consumer<Verdict> progress) {
        return run(tier).verdicts(progress);
    }

    /** The tier on this check's files, its checks grouped under the tier's name and the chart directory's. */
    private TierRun run(Tier tier) {
        TierCheck checks = tierCheck(tier);
        ExampleValuesFiles files = files();
        return new TierRun(tier, checks, files.valid(), tier.checksRefusals() ? files.invalid() : List.of(),
                tier.label() + " tier: " + chartDir().getFileName());
    }

    private ExampleValuesFiles files() {
        for (Path dir : options.valuesDirs()) {
            if (!Files.isDirectory(dir)) {
                throw new IllegalArgumentException("values directory does not exist: " + dir);
            }
        }
        return new ExampleValuesFiles(options.valuesDirs());
    }
}
