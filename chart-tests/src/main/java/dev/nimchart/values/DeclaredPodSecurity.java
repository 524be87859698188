package dev.nimchart.values;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Pod Security level a values file declares its release needs, in a comment of its header (the comment and blank
 * lines before its first key): {@code # pod-security: privileged (hostPath model cache)}, the level then anything. A
 * file that enables a feature needing host volumes, capabilities or a root sidecar says so where a reader of the file
 * sees it, and the cluster tiers put it in a namespace of that level; a file without the comment gets the level its
 * chart's rules choose.
 */
public final class DeclaredPodSecurity {

    /** The levels a namespace can enforce, loosest first. */
    public static final List<String> LEVELS = List.of("privileged", "baseline", "restricted");

    private static final Pattern DECLARATION = Pattern.compile("^#\\s*pod-security\\s*:\\s*(\\S+?)(?:[\\s,.;:(].*)?$");

    private DeclaredPodSecurity() {
    }

    /**
     * The level this file's header declares, or empty. Throws {@link IllegalArgumentException} naming the file, its
     * line and the levels when the declared one is none of them.
     */
    public static Optional<String> of(Path valuesFile) {
        if (!Files.isRegularFile(valuesFile)) {
            return Optional.empty();
        }
        try (BufferedReader in = Files.newBufferedReader(valuesFile)) {
            int number = 0;
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                number++;
                String text = line.strip();
                if (!text.isEmpty() && !text.startsWith("#")) {
                    return Optional.empty();
                }
                Matcher m = DECLARATION.matcher(text);
                if (m.matches()) {
                    String level = m.group(1).toLowerCase(Locale.ROOT);
                    if (!LEVELS.contains(level)) {
                        throw new IllegalArgumentException(valuesFile + ", line " + number + ": '# pod-security: " + m.group(1)
                                + "' names no Pod Security level: write one of " + String.join(", ", LEVELS));
                    }
                    return Optional.of(level);
                }
            }
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + valuesFile, e);
        }
    }
}
