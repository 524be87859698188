package dev.nimchart;

import dev.nimchart.checks.CrdSchemaValidator;
import dev.nimchart.checks.ManifestTextCheck;
import dev.nimchart.checks.ModelViolation;
import dev.nimchart.checks.StrictModelCheck;
import dev.nimchart.objects.KeyPath;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartRefusedException;
import dev.nimchart.render.ChartRenderer;
import dev.nimchart.render.ChartYaml;
import dev.nimchart.render.LookupStub;
import dev.nimchart.render.RefusalMessage;
import dev.nimchart.values.ExampleValuesFiles;
import dev.nimchart.values.ValuesMerger;
import dev.nimchart.values.ValuesSchemaValidator;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The offline tier's checks of one values file against one chart (any chart name: everything chart-specific is read
 * from its Chart.yaml and the rendered objects). The first problem found is the verdict; see {@link ChartCheck} for
 * the rules.
 */
final class OfflineTier {

    /** The namespace every offline render uses. */
    static final String NAMESPACE = "nim";
    private static final Pattern SCHEMA_POINTER = Pattern.compile("^at '([^']*)'");

    private final Path chartDir;
    private final ChartYaml chart;
    private final ChartRenderer renderer;
    private final ValuesSchemaValidator schema;
    private final StrictModelCheck strict;

    OfflineTier(Path chartDir) {
        this.chartDir = chartDir;
        this.chart = ChartYaml.read(chartDir);
        this.renderer = new ChartRenderer(chartDir);
        this.schema = new ValuesSchemaValidator(chartDir);
        this.strict = new StrictModelCheck().withCustomResourceValidator(CrdSchemaValidator.load()::validate);
    }

    StrictModelCheck strictModelCheck() {
        return strict;
    }

    /** Why a values file that must install does not pass, or empty. */
    Optional<String> checkValid(Path file) {
        Map<String, Object> values;
        try {
            values = ValuesMerger.mergedValues(chartDir, List.of(file));
        } catch (RuntimeException e) {
            return Optional.of("not a values file Helm can read: " + firstLine(e.getMessage()));
        }
        List<String> schemaProblems = schema.validate(values);
        if (!schemaProblems.isEmpty()) {
            return Optional.of("values.schema.json refuses it: " + String.join("; ", schemaProblems.subList(0, Math.min(3, schemaProblems.size()))));
        }
        RenderedManifest manifest;
        try {
            manifest = render(file);
        } catch (ChartRefusedException e) {
            return Optional.of("Helm refused it: " + helmMessage(e.getMessage()));
        } catch (IllegalArgumentException e) {
            return Optional.of("the rendered manifest is not valid YAML: " + firstLine(e.getMessage()));
        }
        if (manifest.objects().isEmpty()) {
            return Optional.of("it renders no object");
        }
        Optional<String> text = ManifestTextCheck.problem(manifest.text());
        if (text.isPresent()) {
            return text;
        }
        for (KubeObject o : manifest.objects()) {
            try {
                strict.check(o);
            } catch (ModelViolation v) {
                return Optional.of(o + " is not a valid object: " + firstLine(v.getMessage()));
            }
        }
        String name = values.get("nameOverride") instanceof String s && !s.isEmpty() ? s : chart.name();
        String release = ChartRenderer.releaseName(file);
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
    Optional<String> checkInvalid(Path file) {
        String expected;
        try {
            expected = ExampleValuesFiles.expectedError(file);
        } catch (IllegalStateException e) {
            return Optional.of("its first line must be '# expect-error: <text of the expected error>'");
        }
        if (!RefusalMessage.NAMES_A_KEY.matcher(expected).find()) {
            return Optional.of("the expect-error text names no values key (write it as Helm prints it: \"at '/key': ...\""
                    + " for a schema error, the rule's text with the dotted key path for a preflight rule): " + expected);
        }
        String message;
        try {
            render(file);
            return Optional.of("Helm rendered it, but it must be refused with: " + expected);
        } catch (ChartRefusedException e) {
            message = e.getMessage();
        } catch (IllegalArgumentException e) {
            return Optional.of("Helm rendered it (into invalid YAML), but it must be refused with: " + expected);
        }
        if (!message.contains(expected)) {
            return Optional.of("Helm refused it, but not with the expect-error text. Expected: " + expected
                    + " | Helm said: " + helmMessage(message));
        }
        List<String> crash = RefusalMessage.crashMarkers(message);
        if (!crash.isEmpty()) {
            return Optional.of("a template crash reached the user " + crash + ": " + helmMessage(message));
        }
        Map<String, Object> values;
        try {
            values = ValuesMerger.mergedValues(chartDir, List.of(file));
        } catch (RuntimeException e) {
            return Optional.of("not a values file Helm can read: " + firstLine(e.getMessage()));
        }
        List<String> schemaProblems = schema.validate(values);
        Matcher pointer = SCHEMA_POINTER.matcher(expected);
        if (pointer.find()) {
            if (!RefusalMessage.fromSchema(message)) {
                return Optional.of("expect-error names a schema error (at '...'), but the refusal did not come from"
                        + " values.schema.json: " + helmMessage(message));
            }
            String key = KeyPath.fromJsonPointer(pointer.group(1));
            if (schemaProblems.stream().noneMatch(p -> p.startsWith(key + ":"))) {
                return Optional.of("Helm's schema check refused it at " + key + ", but an independent JSON-schema validator"
                        + " does not (it found: " + schemaProblems + ")");
            }
        } else {
            if (!RefusalMessage.fromPreflight(message, chart)) {
                return Optional.of("expect-error names a preflight rule, but the refusal did not come from "
                        + chart.templatePath("validate/preflight.yaml") + ": " + helmMessage(message));
            }
            if (!schemaProblems.isEmpty()) {
                return Optional.of("refused by a preflight rule, but values.schema.json refuses it too (the schema error"
                        + " comes first for a user, so expect it instead): " + schemaProblems);
            }
        }
        return Optional.empty();
    }

    private RenderedManifest render(Path file) {
        LookupStub.shared();
        return renderer.render(ChartRenderer.releaseName(file), NAMESPACE, List.of(file), Map.of());
    }

    /** Helm's refusal on one line: the text after the template location, blank lines dropped. */
    static String helmMessage(String message) {
        String oneLine = message.lines().map(String::strip).filter(l -> !l.isEmpty()).reduce((a, b) -> a + " " + b).orElse("");
        return oneLine.replaceFirst("^execution error at \\([^)]*\\): ", "");
    }

    private static String firstLine(String text) {
        return text == null ? "" : text.lines().findFirst().orElse("").strip();
    }
}
