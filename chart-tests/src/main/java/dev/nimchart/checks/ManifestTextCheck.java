package dev.nimchart.checks;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Text no rendered manifest may hold: a value a template could not print, or a number Go printed in exponent form. */
public final class ManifestTextCheck {

    /** A number in Go's exponent form ({@code 1e+06}): a large number passed through a float; never intended. */
    public static final Pattern EXPONENT_FORM = Pattern.compile("(?<![A-Za-z0-9_.-])[0-9](\\.[0-9]+)?e\\+[0-9]+(?![A-Za-z0-9])");

    private ManifestTextCheck() {
    }

    /** What is wrong with the manifest's text, or empty. */
    public static Optional<String> problem(String manifestText) {
        if (manifestText.contains("<no value>")) {
            return Optional.of("the manifest prints <no value>");
        }
        Matcher exponent = EXPONENT_FORM.matcher(manifestText);
        if (exponent.find()) {
            return Optional.of("the manifest prints a number in exponent form (" + exponent.group() + ")");
        }
        return Optional.empty();
    }
}
