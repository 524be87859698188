package dev.nimchart.judge;

import dev.nimchart.checks.CrdSchemaValidator;
import dev.nimchart.checks.ManifestTextCheck;
import dev.nimchart.checks.ModelViolation;
import dev.nimchart.checks.RuntimeContractCheck;
import dev.nimchart.checks.StrictModelCheck;
import dev.nimchart.objects.KeyPath;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartRefusedException;
import dev.nimchart.render.ChartRenderer;
import dev.nimchart.settings.Settings;
import dev.nimchart.render.ChartYaml;
import dev.nimchart.render.RefusalMessage;
import dev.nimchart.values.ChartTree;
import dev.nimchart.values.ValuesMerger;
import dev.nimchart.values.ValuesSchemaValidator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one judge of a values file against one chart (any chart name: everything chart-specific is read from its
 * Chart.yaml and the rendered objects), used by every caller: the offline tier, the fuzz run, the cluster tiers'
 * refusals and the benchmark. {@link #judge(Path)} says what Helm made of a file (rendered valid objects, or refused
 * it clearly, or what went wrong); {@link #mustInstall(Path)} and {@link #mustBeRefused(Path)} hold a values file to
 * what its directory promises, with the {@code expect-error} rules of {@code dev.nimchart.ChartCheck} ({@link RefusalRule},
 * which the cluster tiers apply to {@code helm install}'s refusals too). A refusal that is not the schema's is a rule
 * of the chart: a {@code fail} or {@code required} of any of its templates, or, when the chart's rules name a preflight
 * template, of that template only.
 */
public final class ValuesJudge {

    /** The namespace every offline render uses. */
    public static final String NAMESPACE = "nim";
    private static final Pattern SCHEMA_POINTER = Pattern.compile("^at '([^']*)'");

    /** How Helm ended with a values file. */
    public enum Ending {
        /** Helm rendered objects. */
        RENDERED,
        /** values.schema.json refused the values. */
        REFUSED_BY_SCHEMA,
        /**
         * A rule of the chart refused the values: a {@code fail} or {@code required} of its templates (of its preflight
         * template, when its rules name one).
         */
        REFUSED_BY_CHART_RULE,
        /** Helm refused it some other way, or the file is no values file. */
        REFUSED_OTHERWISE
    }

    /**
     * What Helm made of a values file.
     *
     * @param problem        what is wrong with it whatever the file promises (invalid objects, a crash, disagreeing
     *                       validators), or null
     * @param message        Helm's refusal, or null when it rendered
     * @param schemaProblems what the independent JSON-schema validator says of the merged values
     */
    public record Judgement(Ending ending, String problem, String message, List<String> schemaProblems, RenderedManifest manifest,
            Map<String, Object> values) {

        public boolean refused() {
            return ending != Ending.RENDERED;
        }
    }

    private final Path chartDir;
    private final ChartYaml chart;
    private final ChartTree tree;
    private final ChartRenderer renderer;
    private final ChartRenderer rendererWithoutSchema;
    private final ValuesSchemaValidator schema;
    private final java.util.function.Function<Path, String> releaseNames;
    /** Made beside the first renders: only the checks of rendered objects need it. */
    private final CompletableFuture<StrictModelCheck> strict;
    private final boolean standardLabels;
    private final RefusalRule refusalRule;

    /** The judge of any chart, with these settings (where Helm's lookups go, the pinned CRDs): no rule of a particular chart. */
    public ValuesJudge(Path chartDir, Settings settings) {
        this(chartDir, settings, false, Optional.empty());
    }

    /**
     * With {@code standardLabels}, a values file must also render every object with the standard labels; with a
     * {@code preflightTemplate} (its path under templates/), a refusal that is not the schema's must come from that
     * template, else from any template.
     */
    public ValuesJudge(Path chartDir, Settings settings, boolean standardLabels, Optional<String> preflightTemplate) {
        this(chartDir, settings, standardLabels, preflightTemplate, ChartRenderer::releaseName);
    }

    /**
     * As {@link #ValuesJudge(Path, Settings, boolean, Optional)}, each values file rendered as the release
     * {@code releaseNames} gives it (the door gives {@code ChartRules.releaseName}: short and unique by default); the
     * strict object checks use the settings' pinned CRDs ({@link Settings#crdsDir()}) when given, else those the
     * harness carries.
     */
    public ValuesJudge(Path chartDir, Settings settings, boolean standardLabels, Optional<String> preflightTemplate,
            java.util.function.Function<Path, String> releaseNames) {
        Optional<Path> crdsDir = settings.crdsDir();
        this.releaseNames = releaseNames;
        this.standardLabels = standardLabels;
        this.chartDir = chartDir;
        // The judge's parts are independent and each takes a noticeable part of a short command's run (the CRDs'
        // YAML, the chart's copy, Helm's native library, the values schema): they are made side by side, and the
        // CRDs' part is waited for only by the first check of a rendered object. A CRD directory that is not there
        // is refused here, once, as before.
        crdsDir.filter(dir -> !java.nio.file.Files.isDirectory(dir)).ifPresent(CrdSchemaValidator::load);
        this.strict = beside("CRDs", () -> strictCheck(chartDir, crdsDir));
        CompletableFuture<ChartRenderer> copyLater = beside("chart copy", () -> {
            ChartRenderer copy = ChartRenderer.withoutValuesSchema(chartDir, settings);
            ChartRenderer.loadHelmLibrary(settings);
            startLookups(copy);
            return copy;
        });
        this.chart = ChartYaml.read(chartDir);
        this.refusalRule = new RefusalRule(chart, preflightTemplate);
        this.renderer = new ChartRenderer(chartDir, settings);
        this.tree = ChartTree.load(chartDir);
        this.schema = new ValuesSchemaValidator(tree);
        this.rendererWithoutSchema = joined(copyLater);
    }

    /**
     * Starts the stub that answers Helm's lookups (an HTTP server: its classes and socket) here, beside, rather than
     * in the first render, where every render thread waits for it; settings without a stub fail in that first render,
     * naming the fix, as before.
     */
    private static void startLookups(ChartRenderer renderer) {
        try {
            renderer.lookups();
        } catch (RuntimeException e) {
            // the first render throws it again, for the file it renders
        }
    }

    /** {@code part} made on a thread of its own (a daemon: it never holds the JVM open). */
    private static <T> CompletableFuture<T> beside(String name, Supplier<T> part) {
        return CompletableFuture.supplyAsync(part, task -> {
            Thread thread = new Thread(task, "values-judge " + name);
            thread.setDaemon(true);
            thread.start();
        });
    }

    /** The part made beside, or what made it fail, as it was thrown. */
    private static <T> T joined(CompletableFuture<T> part) {
        try {
            return part.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    /**
     * The strict check with the custom resources of the harness's pinned CRDs and of the CRDs the chart installs
     * itself (its {@code crds/} directory, and its vendored subcharts'): a chart's own CRD wins over a pinned one.
     */
    private static StrictModelCheck strictCheck(Path chartDir, Optional<Path> crdsDir) {
        CrdSchemaValidator pinned = CrdSchemaValidator.load(crdsDir);
        List<CrdSchemaValidator> own = new java.util.ArrayList<>();
        for (Path dir : dev.nimchart.render.ChartLayout.crdDirs(chartDir)) {
            own.add(CrdSchemaValidator.load(dir));
        }
        return new StrictModelCheck().withCustomResources(
                (apiVersion, kind) -> own.stream().anyMatch(v -> v.supports(apiVersion, kind))
                        || pinned.supports(apiVersion, kind),
                object -> own.stream().filter(v -> v.supports(object.apiVersion(), object.kind())).findFirst()
                        .orElse(pinned).validate(object));
    }

    public Path chartDir() {
        return chartDir;
    }

    /** The expect-error rule of this chart, as every tier applies it. */
    public RefusalRule refusalRule() {
        return refusalRule;
    }

    /** Merges, validates, renders and checks a values file: valid objects, or a clear refusal, or what went wrong. */
    public Judgement judge(Path file) {
        return judge(List.of(file));
    }

    /** As {@link #judge(Path)} for values files merged in order (the release named after the first). */
    public Judgement judge(List<Path> files) {
        return judge(files, true);
    }

    /**
     * As {@link #judge(List)}; with {@code renderRefused} false, values the independent validator refuses are judged
     * refused by the schema without asking Helm (no render, no Helm message): for a fuzz run that cross-checks Helm's
     * refusals on a sample only.
     */
    public Judgement judge(List<Path> files, boolean renderRefused) {
        List<String> schemaProblems;
        Map<String, Object> values;
        try {
            values = ValuesMerger.mergedValues(tree, files);
            schemaProblems = schema.validate(values);
        } catch (RuntimeException e) {
            String problem = "not a values file Helm can read: " + firstLine(e.getMessage());
            return new Judgement(Ending.REFUSED_OTHERWISE, problem, problem, List.of(), null, Map.of());
        }
        if (!renderRefused && !schemaProblems.isEmpty()) {
            return new Judgement(Ending.REFUSED_BY_SCHEMA, null, "values.schema.json (independent validator): " + schemaProblems,
                    schemaProblems, null, values);
        }
        RenderedManifest manifest;
        try {
            // Values the independent validator accepts render without Helm's own schema check (its cost is most of a
            // render's); values it refuses render with it, so the refusal is Helm's own text, compared key by key.
            manifest = render(schemaProblems.isEmpty() ? rendererWithoutSchema : renderer, files);
        } catch (ChartRefusedException e) {
            return refusal(e.getMessage(), schemaProblems, values);
        } catch (IllegalArgumentException e) {
            return new Judgement(Ending.RENDERED, "the rendered manifest is not valid YAML: " + firstLine(e.getMessage()), null,
                    schemaProblems, null, values);
        }
        if (!schemaProblems.isEmpty()) {
            return new Judgement(Ending.RENDERED, "Helm rendered values that values.schema.json refuses (the two validators disagree): "
                    + String.join("; ", schemaProblems.subList(0, Math.min(3, schemaProblems.size()))), null, schemaProblems, manifest, values);
        }
        if (manifest.objects().isEmpty()) {
            return new Judgement(Ending.RENDERED, "it renders no object", null, schemaProblems, manifest, values);
        }
        Optional<String> text = ManifestTextCheck.problem(manifest.text());
        if (text.isPresent()) {
            return new Judgement(Ending.RENDERED, text.get(), null, schemaProblems, manifest, values);
        }
        List<String> violations = new ArrayList<>();
        for (KubeObject o : manifest.objects()) {
            try {
                joined(strict).check(o);
            } catch (ModelViolation v) {
                violations.add(o + " is not a valid object: " + firstLine(v.getMessage()));
            }
        }
        violations.addAll(RuntimeContractCheck.problems(manifest));
        return new Judgement(Ending.RENDERED, violations.isEmpty() ? null : String.join("\n", violations), null, schemaProblems, manifest, values);
    }

    private Judgement refusal(String message, List<String> schemaProblems, Map<String, Object> values) {
        List<String> crash = RefusalMessage.crashMarkers(message);
        String crashProblem = crash.isEmpty() ? null : "a template crash reached the user " + crash + ": " + helmMessage(message);
        if (RefusalMessage.fromSchema(message)) {
            String problem = crashProblem != null ? crashProblem : schemaProblems.isEmpty()
                    ? "Helm's schema check refused it, but an independent JSON-schema validator does not: " + helmMessage(message) : null;
            return new Judgement(Ending.REFUSED_BY_SCHEMA, problem, message, schemaProblems, null, values);
        }
        if (refusalRule.byChartRule(message)) {
            String problem = crashProblem != null ? crashProblem : !RefusalMessage.NAMES_A_KEY.matcher(message).find()
                    ? "the refusal names no values key: " + helmMessage(message) : null;
            return new Judgement(Ending.REFUSED_BY_CHART_RULE, problem, message, schemaProblems, null, values);
        }
        return new Judgement(Ending.REFUSED_OTHERWISE, crashProblem != null ? crashProblem
                : "refused by neither values.schema.json nor " + refusalRule.ruleSource() + ": " + helmMessage(message),
                message, schemaProblems, null, values);
    }

    /** Why a values file that must install does not pass, or empty. */
    public Optional<String> mustInstall(Path file) {
        Judgement j = judge(file);
        if (j.refused()) {
            if (!j.schemaProblems().isEmpty()) {
                return Optional.of("values.schema.json refuses it: "
                        + String.join("; ", j.schemaProblems().subList(0, Math.min(3, j.schemaProblems().size()))));
            }
            return Optional.of(j.message().startsWith("not a values file") ? j.message() : "Helm refused it: " + helmMessage(j.message()));
        }
        if (j.problem() != null) {
            return Optional.of(j.problem().lines().findFirst().orElse(j.problem()));
        }
        return standardLabels ? standardLabels(file, j.manifest(), j.values()) : Optional.empty();
    }

    /** {@link #mustInstall(Path)} of each file, judged in parallel on every core; in the files' order. */
    public List<Optional<String>> mustInstallEach(List<Path> files) {
        return files.parallelStream().map(f -> unbroken(f, this::mustInstall)).toList();
    }

    /**
     * A file that breaks the harness itself (an exception where a verdict was due) is that file's failure, named with
     * what broke, and the other files are still judged.
     */
    private static Optional<String> unbroken(Path file, java.util.function.Function<Path, Optional<String>> check) {
        try {
            return check.apply(file);
        } catch (RuntimeException e) {
            return Optional.of("the harness could not judge it (" + e.getClass().getSimpleName() + ": " + firstLine(String.valueOf(e.getMessage()))
                    + "); please report it with this values file");
        }
    }

    /** {@link #mustBeRefused(Path)} of each file, judged in parallel on every core; in the files' order. */
    public List<Optional<String>> mustBeRefusedEach(List<Path> files) {
        return files.parallelStream().map(f -> unbroken(f, this::mustBeRefused)).toList();
    }

    /** This chart's objects carry the standard labels (app.kubernetes.io/name is the chart's name, or nameOverride). */
    private Optional<String> standardLabels(Path file, RenderedManifest manifest, Map<String, Object> values) {
        String name = values.get("nameOverride") instanceof String s && !s.isEmpty() ? s : chart.name();
        String release = releaseNames.apply(file);
        for (KubeObject o : manifest.objects()) {
            Map<String, Object> labels = o.labels();
            if (!name.equals(labels.get("app.kubernetes.io/name")) || !release.equals(labels.get("app.kubernetes.io/instance"))
                    || !"Helm".equals(labels.get("app.kubernetes.io/managed-by")) || !labels.containsKey("helm.sh/chart")) {
                return Optional.of(o + " lacks the standard labels (app.kubernetes.io/name: " + name
                        + ", app.kubernetes.io/instance: " + release + ", app.kubernetes.io/managed-by: Helm, helm.sh/chart): " + labels);
            }
        }
        return Optional.empty();
    }

    /** Why a values file that must be refused (an {@code invalid/} file) does not pass, or empty. */
    public Optional<String> mustBeRefused(Path file) {
        Optional<String> expected = RefusalRule.expectedError(file);
        if (expected.isEmpty() || !RefusalMessage.NAMES_A_KEY.matcher(expected.get()).find()) {
            return RefusalRule.expectedErrorProblem(file);
        }
        Judgement j = judge(file);
        if (!j.refused()) {
            return Optional.of("Helm rendered it" + (j.manifest() == null ? " (into invalid YAML)" : "") + ", but it must be refused with: "
                    + expected.get());
        }
        Optional<String> refusal = refusalRule.problem(file, j.message());
        if (refusal.isPresent()) {
            return refusal;
        }
        Matcher pointer = SCHEMA_POINTER.matcher(expected.get());
        if (pointer.find()) {
            String key = schemaErrorKey(pointer.group(1), j.message(), expected.get());
            if (j.schemaProblems().stream().noneMatch(p -> p.startsWith(key + ":"))) {
                return Optional.of("Helm's schema check refused it at " + key + ", but an independent JSON-schema validator"
                        + " does not (it found: " + j.schemaProblems() + ")");
            }
        } else if (!j.schemaProblems().isEmpty()) {
            return Optional.of("refused by a rule of the chart, but values.schema.json refuses it too (the schema error"
                    + " comes first for a user, so expect it instead): " + j.schemaProblems());
        }
        return Optional.ofNullable(j.problem());
    }

    /**
     * The values key a schema error's pointer names: Helm prints each chart's errors under its name, a subchart's
     * pointers starting at the subchart's own values ({@code cache:} then {@code - at '/replicas'}), so the key is
     * the pointer below the key path of the chart whose heading the expected text is under ({@code cache.replicas}).
     */
    private String schemaErrorKey(String pointer, String message, String expected) {
        List<String> chartKeys = RefusalMessage.schemaSection(message, expected).flatMap(tree::keysOf).orElse(List.of());
        StringBuilder full = new StringBuilder();
        chartKeys.forEach(k -> full.append('/').append(k.replace("~", "~0").replace("/", "~1")));
        return KeyPath.fromJsonPointer(full + pointer);
    }

    /**
     * The part of the expect-error rule that needs no chart (the expect-error line is there and names a key, the
     * refusal holds its text exactly, no template crash text); {@link RefusalRule#problem(Path, String)} is the whole
     * rule, where the refusal came from included, which every tier applies.
     */
    public static Optional<String> refusalProblem(Path file, String message) {
        return RefusalRule.textProblem(file, message);
    }

    private RenderedManifest render(ChartRenderer renderer, List<Path> files) {
        return renderer.render(releaseNames.apply(files.get(0)), NAMESPACE, files, Map.of());
    }

    /** Helm's refusal on one line: the text after the template location, blank lines dropped. */
    public static String helmMessage(String message) {
        String oneLine = message.lines().map(String::strip).filter(l -> !l.isEmpty()).reduce((a, b) -> a + " " + b).orElse("");
        return oneLine.replaceFirst("^execution error at \\([^)]*\\): ", "");
    }

    private static String firstLine(String text) {
        return text == null ? "" : text.lines().findFirst().orElse("").strip();
    }
}
