package dev.nimchart.lint;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * A chart's documented exceptions to the policy engines' checks, as data (a YAML file): each finding one of them
 * matches is accepted, every other finding fails. The file:
 *
 * <pre>
 * exceptions:
 *   - tool: kube-score                  # the engine
 *     check: container-resources        # its check id
 *     message: CPU limit is not set     # optional: a part of the finding's text
 *     container: nim                    # optional: the container (engines that name one)
 *     labels: {app.kubernetes.io/component: launcher}   # optional: labels the object (its pods) carry
 *     when: [networkPolicy.enabled=false]               # optional: merged values, each path=value ("" for unset)
 *     reason: why the chart does this   # required: what the documentation says
 * </pre>
 */
public final class PolicyExceptions {

    /** One documented exception. */
    public record Exception(String tool, String check, String message, String container, Map<String, Object> labels,
            List<String> when, String reason) {

        boolean matches(Finding f, Map<String, Object> values) {
            return tool.equals(f.tool()) && check.equals(f.check()) && (message == null || f.message().contains(message))
                    && (container == null || container.equals(f.container()))
                    && (labels == null || f.labels().entrySet().containsAll(labels.entrySet()))
                    && when.stream().allMatch(w -> holds(w, values));
        }

        private static boolean holds(String condition, Map<String, Object> values) {
            int eq = condition.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("a 'when' condition is path=value: " + condition);
            }
            Object v = values;
            for (String key : condition.substring(0, eq).split("\\.")) {
                v = v instanceof Map<?, ?> m ? m.get(key) : null;
            }
            return condition.substring(eq + 1).equals(v == null ? "" : v.toString());
        }
    }

    private final List<Exception> all;

    private PolicyExceptions(List<Exception> all) {
        this.all = List.copyOf(all);
    }

    public static PolicyExceptions none() {
        return new PolicyExceptions(List.of());
    }

    @SuppressWarnings("unchecked")
    public static PolicyExceptions read(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the policy exceptions file " + file, e);
        }
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        Object doc = new Yaml(options).load(text);
        if (!(doc instanceof Map<?, ?> root) || !(root.get("exceptions") instanceof List<?> entries)) {
            throw new IllegalArgumentException(file + ": expected a map with a list 'exceptions'");
        }
        List<Exception> all = new ArrayList<>();
        for (Object entry : entries) {
            Map<String, Object> e = (Map<String, Object>) entry;
            for (String required : List.of("tool", "check", "reason")) {
                if (!(e.get(required) instanceof String s) || s.isBlank()) {
                    throw new IllegalArgumentException(file + ": an exception without '" + required + "': " + e);
                }
            }
            List<String> when = e.get("when") instanceof List<?> l ? l.stream().map(String::valueOf).toList() : List.of();
            all.add(new Exception((String) e.get("tool"), (String) e.get("check"), (String) e.get("message"), (String) e.get("container"),
                    (Map<String, Object>) e.get("labels"), when, (String) e.get("reason")));
        }
        return new PolicyExceptions(all);
    }

    public List<Exception> all() {
        return all;
    }

    /** The first exception that documents this finding for these merged values, or null. */
    public Exception documenting(Finding f, Map<String, Object> values) {
        return all.stream().filter(e -> e.matches(f, values)).findFirst().orElse(null);
    }
}
