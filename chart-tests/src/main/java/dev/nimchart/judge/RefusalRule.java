package dev.nimchart.judge;

import dev.nimchart.render.ChartYaml;
import dev.nimchart.render.RefusalMessage;
import dev.nimchart.values.ExampleValuesFiles;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The {@code expect-error} rule every tier applies to Helm's refusal of an {@code invalid/} file, wherever the refusal
 * came from (a render offline, or {@code helm install} on a cluster): the file's first line is its expect-error text
 * and names a values key, the refusal holds that text exactly, no template crash text reaches the user, and the
 * refusal comes from where the text says: a text starting with {@code at '} from values.schema.json, any other from a
 * rule of the chart's templates. By default that is a {@code fail} or {@code required} in any template or helper; a
 * chart whose rules name a preflight template ({@code ChartRules.preflightTemplate()}) holds every such refusal to it.
 * The offline judge ({@link ValuesJudge#mustBeRefused(Path)}) adds what only it can see: the independent schema
 * validator's verdict on the merged values.
 */
public final class RefusalRule {

    private final ChartYaml chart;
    /** The template under templates/ that every rule's refusal must come from; null: any template. */
    private final String preflightTemplate;

    /** @param preflightTemplate the template under templates/ every rule's refusal must come from; empty: any template */
    public RefusalRule(ChartYaml chart, Optional<String> preflightTemplate) {
        this.chart = chart;
        this.preflightTemplate = preflightTemplate.orElse(null);
    }

    /** Whether a rule of the chart's templates refused the values, from where the chart's rules say. */
    public boolean byChartRule(String message) {
        return preflightTemplate != null ? RefusalMessage.fromPreflight(message, chart, preflightTemplate)
                : RefusalMessage.fromTemplate(message, chart);
    }

    /** Where a refusal by a rule of the chart must come from, as a message names it. */
    public String ruleSource() {
        return preflightTemplate != null ? chart.templatePath(preflightTemplate)
                : "a fail or required in " + chart.name() + "'s templates";
    }

    /** Why Helm's refusal of an {@code invalid/} file does not pass the expect-error rule, or empty. */
    public Optional<String> problem(Path file, String message) {
        Optional<String> text = textProblem(file, message);
        if (text.isPresent()) {
            return text;
        }
        if (ExampleValuesFiles.expectedError(file).startsWith("at '")) {
            return RefusalMessage.fromSchema(message) ? Optional.empty()
                    : Optional.of("expect-error names a schema error (at '...'), but the refusal did not come from"
                            + " values.schema.json: " + ValuesJudge.helmMessage(message));
        }
        if (RefusalMessage.fromSchema(message)) {
            return Optional.of("expect-error names a rule of the chart, but values.schema.json refused it (the schema"
                    + " error comes first for a user, so expect it instead): " + ValuesJudge.helmMessage(message));
        }
        return byChartRule(message) ? Optional.empty()
                : Optional.of("expect-error names a rule of the chart, but the refusal did not come from " + ruleSource()
                        + (preflightTemplate != null ? " (the chart's rules hold every refusal to it: move the rule there)" : "")
                        + ": " + ValuesJudge.helmMessage(message));
    }

    /**
     * The part of the rule that needs no chart: the expect-error line is there and names a key, the refusal holds its
     * text exactly, and no template crash text reaches the user.
     */
    static Optional<String> textProblem(Path file, String message) {
        Optional<String> expected = expectedError(file);
        if (expected.isEmpty() || !RefusalMessage.NAMES_A_KEY.matcher(expected.get()).find()) {
            return expectedErrorProblem(file);
        }
        if (!message.contains(expected.get())) {
            return Optional.of("Helm refused it, but not with the expect-error text. Expected: " + expected.get()
                    + " | Helm said: " + ValuesJudge.helmMessage(message));
        }
        List<String> crash = RefusalMessage.crashMarkers(message);
        if (!crash.isEmpty()) {
            return Optional.of("a template crash reached the user " + crash + ": " + ValuesJudge.helmMessage(message));
        }
        return Optional.empty();
    }

    static Optional<String> expectedError(Path file) {
        try {
            return Optional.of(ExampleValuesFiles.expectedError(file));
        } catch (IllegalStateException e) {
            return Optional.empty();
        }
    }

    static Optional<String> expectedErrorProblem(Path file) {
        Optional<String> expected = expectedError(file);
        if (expected.isEmpty()) {
            return Optional.of("its first line must be '# expect-error: <text of the expected error>'");
        }
        return Optional.of("the expect-error text names no values key (write it as Helm prints it: \"at '/key': ...\""
                + " for a schema error, the rule's text with the dotted key path for a rule of the chart's templates): "
                + expected.get());
    }
}
