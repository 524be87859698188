package dev.nimchart.fuzz;

import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * One generated values document and how it was made.
 *
 * @param scenario what it started from (the chart's own scenario, or {@link FuzzScenario#NONE})
 * @param overlays the key paths then set to random values the schema accepts
 * @param mutation the one mistake of a near-valid document ({@code KIND at path: value}), or null
 * @param mutationInsidePassThrough whether the mistake is inside a Kubernetes object the chart passes through
 *                                  (affinity, tolerations, ...)
 * @param values   the document, as a user's values file holds it
 */
public record FuzzDocument(long seed, int index, FuzzScenario scenario, List<String> overlays, String mutation,
                           boolean mutationInsidePassThrough, Map<String, Object> values) {

    public boolean nearValid() {
        return mutation != null;
    }

    /** The kind of mistake of a near-valid document ({@code UNKNOWN_KEY}, {@code WRONG_TYPE}, ...), or null. */
    public String mutationKind() {
        return mutation == null ? null : mutation.substring(0, mutation.indexOf(' '));
    }

    /** The key path the mistake is at ({@code tolerations[0].efect}), or null. */
    public String mutationPath() {
        return mutation == null ? null : pathOf(mutation);
    }

    /** The key path of a mistake's description ({@code KIND at path: value}). */
    static String pathOf(String mutation) {
        String rest = mutation.substring(mutation.indexOf(" at ") + 4);
        return rest.substring(0, rest.indexOf(": "));
    }

    /** Whether a random key holds a pass-through Kubernetes object made from its Kubernetes definition. */
    public boolean hasKubernetesSchemaSample() {
        return overlays.stream().anyMatch(o -> o.endsWith(ValuesFuzzer.FROM_KUBERNETES_SCHEMA));
    }

    /** The document as a values file, with a header that says how it was made and how to make it again. */
    public String toYaml() {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        options.setWidth(200);
        String header = String.join("\n",
                "# values fuzz document " + index + " of seed " + seed + " (-Dnim.fuzz.seed=" + seed + ")",
                "# scenario: " + scenario.description(),
                "# random keys: " + (overlays.isEmpty() ? "none" : String.join(", ", overlays)),
                "# mutation: " + (mutation == null ? "none" : mutation.replace("\n", "\\n")),
                "");
        return header + new Yaml(options).dump(values);
    }
}
