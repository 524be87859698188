package dev.nimchart.render;

import dev.nimchart.objects.StrictYaml;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * What the harness reads from a chart's Chart.yaml: its name (which Helm puts in labels, object names and the paths of
 * template errors, so a vendored copy renamed {@code acme-nim} is checked as {@code acme-nim}) and its version.
 */
public record ChartYaml(String name, String version) {

    /** Reads {@code chartDir/Chart.yaml}; fails naming the file when it is missing or has no name. */
    public static ChartYaml read(Path chartDir) {
        Path file = chartDir.resolve("Chart.yaml");
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(chartDir + " is not a Helm chart: it has no Chart.yaml");
        }
        try {
            Object doc = StrictYaml.loader().load(Files.readString(file));
            if (!(doc instanceof Map<?, ?> map) || !(map.get("name") instanceof String name) || name.isBlank()) {
                throw new IllegalArgumentException(file + " has no name");
            }
            Object version = map.get("version");
            return new ChartYaml(name, version == null ? "" : version.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The path Helm prints for a template of this chart: {@code <name>/templates/<file>}. */
    public String templatePath(String fileUnderTemplates) {
        return name + "/templates/" + fileUnderTemplates;
    }
}
