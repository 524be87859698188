package dev.nimchart.fuzz;

import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * One generated values document and how it was made.
 *
 * @param scenario the coherent deployment it started from
 * @param overlays the key paths then set to random values the schema accepts
 * @param mutation the one mistake of a near-valid document ({@code KIND at path: value}), or null
 * @param values   the document, as a user's values file holds it
 */
public record FuzzDocument(long seed, int index, FuzzScenario scenario, List<String> overlays, String mutation,
                           Map<String, Object> values) {

    public boolean nearValid() {
        return mutation != null;
    }

    public String workload() {
        return scenario.workload();
    }

    public String cache() {
        return scenario.cache();
    }

    public String provider() {
        return scenario.provider();
    }

    /** The document as a values file, with a header that says how it was made and how to make it again. */
    public String toYaml() {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        options.setWidth(200);
        String header = String.join("\n",
                "# values fuzz document " + index + " of seed " + seed + " (-Dnim.fuzz.seed=" + seed + ")",
                "# scenario: " + scenario.workload() + ", cache " + scenario.cache() + ", networking " + scenario.provider(),
                "# random keys: " + (overlays.isEmpty() ? "none" : String.join(", ", overlays)),
                "# mutation: " + (mutation == null ? "none" : mutation.replace("\n", "\\n")),
                "");
        return header + new Yaml(options).dump(values);
    }
}
