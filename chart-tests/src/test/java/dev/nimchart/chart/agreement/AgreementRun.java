package dev.nimchart.chart.agreement;

import dev.nimchart.chart.repository.ChartCopy;
import dev.nimchart.fuzz.FuzzDocument;
import dev.nimchart.fuzz.ValuesFuzzer;
import dev.nimchart.judge.ValuesJudge;
import dev.nimchart.values.FileTrees;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartRefusedException;
import dev.nimchart.render.ChartRenderer;
import dev.nimchart.render.ChartUnderTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The differential run: for each generated document ({@link AgreementScenarios} through the values fuzzer, near-valid
 * ones left out: their mistakes are the schema's business), the chart's verdict against the real validators'
 * ({@link Validators}):
 * <ul>
 *   <li><b>escape</b>: the chart renders, and a validator refuses what it rendered;</li>
 *   <li><b>false refusal</b>: the chart refuses, naming a key the document's surface set, with a rule that stands for
 *       a validator's (a schema error, or a message saying the API server, Kubernetes, a webhook, CEL or
 *       {@code ray start} would refuse), and every validator accepts the nearest rendering: the same values through
 *       a copy of the chart without its rules (no values.schema.json, no preflight template).</li>
 * </ul>
 * Each is reported with the smallest document that still shows it (keys removed one at a time while it does), under
 * {@code <workDir>/agreement/}. Refusals of CEL selectors the API server cannot type-check are escapes the chart
 * cannot see (it has no CEL compiler): they are counted as explained, never hidden.
 */
final class AgreementRun {

    /** What a message says that makes a refusal stand for a validator's. */
    static final List<String> VALIDATOR_CLAIMS = List.of("webhook refuses", "ray start refuses", "API server refuses",
            "API server would refuse", "Kubernetes refuses", "cannot compile as CEL", "endpoint picker exits");

    record Finding(String kind, int index, Path file, String problem) {

        @Override
        public String toString() {
            return kind + " (document " + index + ", " + file + "): " + problem;
        }
    }

    record Result(long seed, int tried, long millis, Map<String, Integer> tally, List<Finding> escapes,
                  List<Finding> falseRefusals, List<Finding> explained, dev.nimchart.fuzz.SchemaCoverage coverage) {

        int count(String outcome) {
            return tally.getOrDefault(outcome, 0);
        }

        String summary() {
            return "seed %d: %d documents in %.1f s (%.1f documents/s); %d escapes, %d false refusals, %d explained escapes; %s"
                    .formatted(seed, tried, millis / 1000.0, tried * 1000.0 / Math.max(1, millis), escapes.size(),
                            falseRefusals.size(), explained.size(), tally);
        }
    }

    private final Validators validators;
    private final ChartRenderer unchecked;
    private final String namespace;
    private final Path dir;
    private final Map<String, Integer> tally = new TreeMap<>();

    /** @param unchecked a renderer of the chart without its rules ({@link #withoutRules()}) */
    AgreementRun(Validators validators, ChartRenderer unchecked, String namespace, Path workDir) {
        this.validators = validators;
        this.unchecked = unchecked;
        this.namespace = namespace;
        this.dir = workDir.resolve("agreement");
    }

    /** A renderer of a copy of the chart (under target/) with no values.schema.json and no preflight template. */
    static ChartRenderer withoutRules() {
        Path copy = ChartCopy.of(ChartUnderTest.chartDir(), "chart-without-rules-",
                p -> p.getFileName().toString().equals("values.schema.json") || p.endsWith(Path.of("templates", "validate", "preflight.yaml")));
        return new ChartRenderer(copy, dev.nimchart.junit.RunSettings.get());
    }

    /**
     * Judges documents until {@code maxDocuments} were tried or the budget is spent, whichever comes first, but never
     * before {@code minRendered} documents rendered and were judged (a slow validator, such as a picker's first start,
     * must not leave a run with nothing judged).
     */
    Result run(long seed, int maxDocuments, Duration budget, int minRendered) {
        FileTrees.empty(dir);
        ValuesFuzzer fuzzer = new ValuesFuzzer(ChartUnderTest.chartDir(), seed, new AgreementScenarios());
        List<Finding> escapes = new ArrayList<>();
        List<Finding> falseRefusals = new ArrayList<>();
        List<Finding> explained = new ArrayList<>();
        long start = System.nanoTime();
        int tried = 0;
        dev.nimchart.fuzz.SchemaCoverage coverage = new dev.nimchart.fuzz.SchemaCoverage(dev.nimchart.values.ValuesSchema.load(ChartUnderTest.chartDir()));
        for (int i = 0; i < maxDocuments && (System.nanoTime() - start < budget.toNanos() || tally.getOrDefault("rendered", 0) < minRendered); i++) {
            FuzzDocument doc = fuzzer.document(i);
            tried++;
            if (doc.nearValid()) {
                count("near-valid (left to the schema)");
                continue;
            }
            coverage.add(doc.values());
            Path file = write(dir.resolve("docs").resolve("agreement-%04d.yaml".formatted(i)), doc.toYaml());
            List<String> surfaces = traits(doc, AgreementScenarios.SURFACE);
            Verdict chart = chartVerdict(file);
            if (chart.manifest != null) {
                count("rendered");
                surfaces.forEach(s -> count("rendered: surface " + s));
                List<Validators.Rejection> rejections = validators.judge(chart.manifest);
                if (rejections.isEmpty()) {
                    count("rendered, and every validator accepts");
                    continue;
                }
                boolean cel = rejections.stream().allMatch(r -> r.message().contains("cel.expression"));
                if (cel) {
                    count("rendered, refused by the API server's CEL compiler (explained)");
                    explained.add(new Finding("explained escape: a CEL selector the chart cannot type-check", i, file,
                            rejections.toString()));
                    continue;
                }
                count("escapes");
                String signature = signature(rejections);
                Map<String, Object> smallest = minimize(doc.values(), v -> {
                    Verdict again = chartVerdict(write(dir.resolve("minimize.yaml"), dump(doc, v)));
                    return again.manifest != null && signature(validators.judge(again.manifest)).equals(signature);
                });
                escapes.add(new Finding("escape", i, keep("escapes", i, doc, smallest, "the chart renders it, and " + rejections),
                        rejections.toString()));
            } else {
                count("refused");
                surfaces.forEach(s -> count("refused: surface " + s));
                List<String> keys = traits(doc, AgreementScenarios.SURFACE_KEY);
                if (!namesAny(chart.message, keys) || !claimsAValidator(chart.message)) {
                    count("refused, by a rule that is not a validator's or about another key");
                    continue;
                }
                if (!validators.judgesRay() && chart.message.contains("ray start")) {
                    count("refused for Ray, not judged (no Ray installed)");
                    continue;
                }
                if (!validators.judgesPicker() && chart.message.contains("endpoint picker")) {
                    count("refused for the endpoint picker, not judged (it cannot run here)");
                    continue;
                }
                if (!validators.judgesKeda() && chart.message.contains("KEDA's admission webhook")) {
                    count("refused for KEDA, not judged (its webhook not started)");
                    continue;
                }
                Verdict nearest = uncheckedVerdict(file);
                if (nearest.manifest == null) {
                    count("refused, and the chart without its rules renders nothing either");
                    continue;
                }
                List<Validators.Rejection> rejections = validators.judge(nearest.manifest);
                List<String> named = keys.stream().filter(k -> namesAny(chart.message, List.of(k))).toList();
                if (!rejections.isEmpty()) {
                    count("refused, and a validator refuses it too");
                    named.forEach(k -> count("refused, and a validator refuses it too: " + k));
                    continue;
                }
                if (named.stream().allMatch(AgreementScenarios.CONTRACT_KEYS::contains)) {
                    count("refused by a run-time contract rule no admission validator checks");
                    continue;
                }
                if (named.stream().allMatch(k -> reachesNoObject(doc.values(), k, nearest.manifest))) {
                    // The refused value is in no object of the rendering without the chart's rules (another key wins
                    // over it, as requiredTopology over preferredTopology): no validator sees it, so none can bear the
                    // refusal out or contradict it.
                    count("refused, its value reaches no object, not judged: " + named.get(0));
                    continue;
                }
                if (validators.pickerBeyondBudget(nearest.manifest)) {
                    count("refused, the endpoint picker would judge it but its starts were spent, not judged: " + named.get(0));
                    continue;
                }
                if (named.stream().allMatch(validators.notRun(nearest.manifest)::containsKey)) {
                    count("refused, not judged here: " + named.get(0));
                    continue;
                }
                count("false refusals");
                String rule = firstLine(chart.message);
                Map<String, Object> smallest = minimize(doc.values(), v -> {
                    Path f = write(dir.resolve("minimize.yaml"), dump(doc, v));
                    Verdict again = chartVerdict(f);
                    if (again.manifest != null || !firstLine(again.message).equals(rule)) {
                        return false;
                    }
                    Verdict without = uncheckedVerdict(f);
                    return without.manifest != null && validators.judge(without.manifest).isEmpty();
                });
                falseRefusals.add(new Finding("false refusal", i, keep("false-refusals", i, doc, smallest,
                        "the chart refuses it, and every validator accepts its rendering without the chart's rules: " + rule), rule));
            }
        }
        return new Result(seed, tried, (System.nanoTime() - start) / 1_000_000, Map.copyOf(tally), escapes, falseRefusals, explained,
                coverage);
    }

    /** The chart's verdict: a manifest, or Helm's refusal text. */
    private record Verdict(RenderedManifest manifest, String message) {
    }

    private Verdict chartVerdict(Path file) {
        try {
            return new Verdict(ChartUnderTest.renderIn(namespace, file), null);
        } catch (ChartRefusedException e) {
            return new Verdict(null, ValuesJudge.helmMessage(e.getMessage()));
        }
    }

    private Verdict uncheckedVerdict(Path file) {
        try {
            return new Verdict(unchecked.render(ChartRenderer.releaseName(file), namespace, List.of(file), Map.of()), null);
        } catch (ChartRefusedException e) {
            return new Verdict(null, ValuesJudge.helmMessage(e.getMessage()));
        }
    }

    /** Whether a refusal names one of the keys (its dotted path, or the schema's {@code at '/a/b} form). */
    static boolean namesAny(String message, List<String> keys) {
        return keys.stream().anyMatch(k -> message.contains(k) || message.contains("at '/" + k.replace('.', '/')));
    }

    /** Whether a refusal stands for a validator's: values.schema.json, or a rule saying a validator would refuse. */
    /**
     * Whether the document's value at a dotted key is a text that no object of the rendering holds (then no validator
     * judges it); false for a key whose value is not a text, or is absent.
     */
    @SuppressWarnings("unchecked")
    static boolean reachesNoObject(Map<String, Object> values, String key, RenderedManifest rendering) {
        Object node = values;
        for (String part : key.split("\\.")) {
            if (!(node instanceof Map<?, ?> m) || !m.containsKey(part)) {
                return false;
            }
            node = ((Map<String, Object>) m).get(part);
        }
        return node instanceof String text && !text.isEmpty() && !rendering.text().contains(text);
    }

    static boolean claimsAValidator(String message) {
        return message.contains("at '/") || VALIDATOR_CLAIMS.stream().anyMatch(message::contains);
    }

    private static String signature(List<Validators.Rejection> rejections) {
        return rejections.stream().map(r -> r.validator() + " " + r.object().replaceAll("/.*", "")).sorted().distinct().toList().toString();
    }

    private static List<String> traits(FuzzDocument doc, String prefix) {
        return doc.scenario().traits().stream().filter(t -> t.startsWith(prefix)).map(t -> t.substring(prefix.length())).toList();
    }

    /** Which rule a refusal comes from: the key of a schema error ({@code at '/kueue/queueName'}), or a rule's first clause. */
    static String firstLine(String message) {
        String text = message == null ? "" : message;
        int at = text.indexOf("at '/");
        if (at >= 0) {
            return text.substring(at, text.indexOf('\'', at + 4) + 1);
        }
        text = text.replaceFirst("^.*?nim-llm: ", "");
        int cut = text.indexOf(':', 20);
        return cut > 0 ? text.substring(0, cut) : text;
    }

    /**
     * The document with as many keys removed as possible (one leaf at a time, in document order; a list counts as a
     * leaf) while {@code stillShows} holds; at most 60 tries.
     */
    static Map<String, Object> minimize(Map<String, Object> values, Predicate<Map<String, Object>> stillShows) {
        Map<String, Object> current = AgreementScenarios.deepCopy(values);
        int tries = 0;
        for (List<String> path : leaves(current, List.of())) {
            if (tries++ >= 60) {
                break;
            }
            Map<String, Object> candidate = AgreementScenarios.deepCopy(current);
            remove(candidate, path);
            if (stillShows.test(candidate)) {
                current = candidate;
            }
        }
        return current;
    }

    @SuppressWarnings("unchecked")
    private static List<List<String>> leaves(Map<String, Object> node, List<String> at) {
        List<List<String>> out = new ArrayList<>();
        node.forEach((k, v) -> {
            List<String> path = new ArrayList<>(at);
            path.add(k);
            if (v instanceof Map<?, ?> m && !m.isEmpty()) {
                out.addAll(leaves((Map<String, Object>) m, path));
            }
            out.add(path);
        });
        return out;
    }

    @SuppressWarnings("unchecked")
    private static void remove(Map<String, Object> values, List<String> path) {
        Map<String, Object> node = values;
        for (String key : path.subList(0, path.size() - 1)) {
            if (!(node.get(key) instanceof Map<?, ?> m)) {
                return;
            }
            node = (Map<String, Object>) m;
        }
        node.remove(path.get(path.size() - 1));
    }

    private static String dump(FuzzDocument doc, Map<String, Object> values) {
        return new FuzzDocument(doc.seed(), doc.index(), doc.scenario(), doc.overlays(), null, false, values).toYaml();
    }

    private Path keep(String what, int index, FuzzDocument doc, Map<String, Object> smallest, String problem) {
        return write(dir.resolve(what).resolve(index + ".yaml"),
                "# " + problem.replace("\n", " ") + "\n# (the smallest document that shows it; the whole one: docs/agreement-%04d.yaml)\n"
                        .formatted(index) + dump(doc, smallest));
    }

    private void count(String outcome) {
        tally.merge(outcome, 1, Integer::sum);
    }

    private static Path write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
