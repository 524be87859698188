package dev.nimchart;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a cluster tier's test classes reported, as the repository's JUnit listener writes it ({@code -Dnim.results.file}):
 * one line per finished test, {@code <class>\t<display name>\t<status>\t<message>}. A parameterized test over values
 * files is displayed as the file's path; a failure of a whole class is written with the display name
 * {@value #WHOLE_CLASS}.
 */
public final class TierResults {

    public static final String RESULTS_FILE = "nim.results.file";
    public static final String WHOLE_CLASS = "(class)";
    public static final String SUCCESSFUL = "SUCCESSFUL";

    /** The test classes each cluster tier runs: the one over the files that must install, the one over invalid/. */
    public static final Map<Tier, List<String>> CLASSES = Map.of(
            Tier.API, List.of("ExampleInstallIT", "InvalidValuesInstallIT"),
            Tier.CONTROLLERS, List.of("ReconciledExampleIT", "RefusedWithControllersIT"));

    private final Map<String, String> byFile = new HashMap<>();
    private String classFailure;

    private TierResults() {
    }

    /** Results of the given tier from its results file; an absent file is an empty result. */
    public static TierResults read(Tier tier, Path file) {
        TierResults results = new TierResults();
        if (!Files.isRegularFile(file)) {
            return results;
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (String line : lines) {
            String[] f = line.split("\t", 4);
            if (f.length < 3) {
                continue;
            }
            String simpleClass = f[0].substring(f[0].lastIndexOf('.') + 1);
            if (!CLASSES.get(tier).contains(simpleClass)) {
                continue;
            }
            String message = f.length > 3 ? f[3] : "";
            String reason = f[2].equals(SUCCESSFUL) ? ""
                    : f[2].equals("SKIPPED") ? "skipped: " + message
                    : message.isBlank() ? f[2].toLowerCase(java.util.Locale.ROOT) : message;
            if (f[1].equals(WHOLE_CLASS)) {
                if (!reason.isEmpty() && results.classFailure == null) {
                    results.classFailure = simpleClass + " " + reason;
                }
            } else {
                results.byFile.merge(normalize(f[1]), reason, (a, b) -> a.isEmpty() ? b : a);
            }
        }
        return results;
    }

    /** The file's outcome: empty string when it passed, the reason when not, empty optional when it did not run. */
    public Optional<String> outcome(Path file) {
        return Optional.ofNullable(byFile.get(normalize(file.toString())));
    }

    /** Why a whole test class failed (the tier could not start, ...), if one did. */
    public Optional<String> classFailure() {
        return Optional.ofNullable(classFailure);
    }

    private static String normalize(String path) {
        return Path.of(path).toAbsolutePath().normalize().toString();
    }

    /** One line of a results file (tabs and line breaks of the message become spaces). */
    public static String line(String className, String displayName, String status, String message) {
        return String.join("\t", className, displayName, status, message == null ? "" : message.replaceAll("\\s+", " ").strip()) + "\n";
    }
}
