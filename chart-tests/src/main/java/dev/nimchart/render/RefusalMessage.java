package dev.nimchart.render;

import java.util.List;
import java.util.regex.Pattern;

/** What a user reads when Helm refuses values: where the refusal came from, and whether it is a clear one. */
public final class RefusalMessage {

    /** A values key by its JSON pointer (schema errors) or its dotted path (preflight rules). */
    public static final Pattern NAMES_A_KEY = Pattern.compile(
            "at '/[A-Za-z]|additional properties '[A-Za-z]|(^|\\W)[a-z][A-Za-z]*(\\[\\d+])?\\.[A-Za-z{]|(^|\\W)env\\[\\d+]");

    /** Text of a Go template crash or of a value a template could not print: never for a user's eyes. */
    public static final List<String> CRASH_MARKERS = List.of("nil pointer", "panic", "<nil>", "runtime error",
            "wrong type for value", "error calling", "can't evaluate field", "<no value>", "invalid memory address",
            "incompatible types for comparison", "cannot index slice", "index out of range");

    private static final String PREFLIGHT_TEMPLATE = "nim-llm/templates/validate/preflight.yaml";
    private static final Pattern SCHEMA_ERROR = Pattern.compile("(?m)^- at '[^']*': ");

    private RefusalMessage() {
    }

    /** Helm's values.schema.json check refused the values ({@code - at '/path': ...}). */
    public static boolean fromSchema(String message) {
        return message.contains("values don't meet the specifications of the schema") && SCHEMA_ERROR.matcher(message).find();
    }

    /** A rule of _preflight.tpl refused the values ({@code nim-llm: ...}), before any object template ran. */
    public static boolean fromPreflight(String message) {
        return message.contains(PREFLIGHT_TEMPLATE) && message.contains("nim-llm: ");
    }

    /** The crash markers the message holds; empty for a clear refusal. */
    public static List<String> crashMarkers(String message) {
        return CRASH_MARKERS.stream().filter(message::contains).toList();
    }
}
