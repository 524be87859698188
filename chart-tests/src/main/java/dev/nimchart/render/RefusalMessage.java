package dev.nimchart.render;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What a user reads when Helm refuses values: where the refusal came from, and whether it is a clear one. */
public final class RefusalMessage {

    /** A values key by its JSON pointer (schema errors) or its dotted path (rules of the chart's templates). */
    public static final Pattern NAMES_A_KEY = Pattern.compile(
            "at '/[A-Za-z]|additional properties '[A-Za-z]|(^|\\W)[a-z][A-Za-z]*(\\[\\d+])?\\.[A-Za-z{]|(^|\\W)env\\[\\d+]");

    /** Text of a Go template crash or of a value a template could not print: never for a user's eyes. */
    public static final List<String> CRASH_MARKERS = List.of("nil pointer", "panic", "<nil>", "runtime error",
            "wrong type for value", "error calling", "can't evaluate field", "<no value>", "invalid memory address",
            "incompatible types for comparison", "cannot index slice", "index out of range");

    /** The line a preflight rule's {@code fail} starts its message with: {@code <prefix>: <what is wrong>}. */
    private static final Pattern PREFLIGHT_LINE = Pattern.compile("(?m)^[a-z0-9][a-z0-9-]*: \\S");
    private static final Pattern SCHEMA_ERROR = Pattern.compile("(?m)^- at '[^']*': ");

    private RefusalMessage() {
    }

    /** Helm's values.schema.json check refused the values ({@code - at '/path': ...}). */
    public static boolean fromSchema(String message) {
        return message.contains("values don't meet the specifications of the schema") && SCHEMA_ERROR.matcher(message).find();
    }

    /**
     * A rule of a chart's preflight template refused the values ({@code <prefix>: ...} on a line of its own, as
     * nim-llm's {@code nim-llm: ...}), before any object template ran: the error is in
     * {@code <chart name>/templates/<preflightTemplate>}.
     *
     * @param preflightTemplate the template's path under templates/ ({@code validate/preflight.yaml})
     */
    public static boolean fromPreflight(String message, ChartYaml chart, String preflightTemplate) {
        return message.contains(chart.templatePath(preflightTemplate)) && PREFLIGHT_LINE.matcher(message).find();
    }

    /**
     * A {@code fail} or {@code required} of one of the chart's templates (or of a helper they include, of the chart or
     * of its subcharts) refused the values: Helm's {@code execution error at (<chart name>/...)}.
     */
    public static boolean fromTemplate(String message, ChartYaml chart) {
        return message.contains("execution error at (" + chart.name() + "/");
    }

    /** A chart's heading in Helm's schema refusal: its name (a subchart's alias) alone on a line, above its errors. */
    private static final Pattern SCHEMA_SECTION = Pattern.compile("(?m)^([A-Za-z0-9][A-Za-z0-9_.-]*):$");

    /**
     * The chart whose schema refused the values with this text, as Helm names it above its errors (one heading per
     * chart: the chart's name, then each subchart's alias or name, whose {@code at '/...'} pointers start at the
     * subchart's own values); empty when the text is not under a heading.
     */
    public static java.util.Optional<String> schemaSection(String message, String text) {
        int at = message.indexOf(text);
        String chart = null;
        Matcher heading = SCHEMA_SECTION.matcher(message);
        while (at >= 0 && heading.find() && heading.start() < at) {
            chart = heading.group(1);
        }
        return java.util.Optional.ofNullable(chart);
    }

    /** The crash markers the message holds; empty for a clear refusal. */
    public static List<String> crashMarkers(String message) {
        return CRASH_MARKERS.stream().filter(message::contains).toList();
    }
}
