package dev.nimchart;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.json.JsonMapper;

/**
 * The parameters table of the README, generated from the {@code ## @section} and {@code ## @param key description}
 * comments of values.yaml, with each default read from the YAML itself, so docs and defaults cannot drift.
 * {@code main --write README.md} rewrites the table between the markers; {@code --check} fails when it is stale.
 */
public final class ValuesDoc {

    public static final String BEGIN = "<!-- parameters:begin (generated from charts/nim-llm/values.yaml by ci/readme-parameters.sh) -->";
    public static final String END = "<!-- parameters:end -->";
    private static final Pattern SECTION = Pattern.compile("^## @section (.+)$");
    private static final Pattern PARAM = Pattern.compile("^## @param (\\S+) (.+)$");

    /** One documented key. */
    public record Param(String section, String key, String description) {
    }

    private ValuesDoc() {
    }

    /** The documented keys of values.yaml, in file order. */
    public static List<Param> params(Path valuesYaml) {
        List<Param> params = new ArrayList<>();
        String section = "";
        for (String line : read(valuesYaml).split("\n")) {
            Matcher s = SECTION.matcher(line);
            Matcher p = PARAM.matcher(line);
            if (s.matches()) {
                section = s.group(1).trim();
            } else if (p.matches()) {
                params.add(new Param(section, p.group(1), p.group(2).trim()));
            }
        }
        return params;
    }

    /** The markdown tables, one per section. */
    public static String table(Path valuesYaml) {
        KubeObject values = new KubeObject(ValuesMerger.loadYaml(valuesYaml));
        Map<String, List<Param>> bySection = new LinkedHashMap<>();
        params(valuesYaml).forEach(p -> bySection.computeIfAbsent(p.section(), k -> new ArrayList<>()).add(p));
        StringBuilder out = new StringBuilder();
        bySection.forEach((section, params) -> {
            out.append("\n### ").append(section).append("\n\n| Key | Description | Default |\n|---|---|---|\n");
            for (Param p : params) {
                out.append("| `").append(p.key()).append("` | ").append(p.description().replace("|", "\\|"))
                        .append(" | `").append(render(values.at(keyPath(p.key())))).append("` |\n");
            }
        });
        return out.toString();
    }

    /** The README text with its parameters section replaced by the current table. */
    public static String updatedReadme(String readme, Path valuesYaml) {
        int begin = readme.indexOf(BEGIN);
        int end = readme.indexOf(END);
        if (begin < 0 || end < begin) {
            throw new IllegalStateException("README.md has no parameters section between " + BEGIN + " and " + END);
        }
        return readme.substring(0, begin + BEGIN.length()) + "\n" + table(valuesYaml) + "\n" + readme.substring(end);
    }

    /** values.yaml keys such as resources.limits.nvidia.com/gpu as harness paths. */
    public static String keyPath(String key) {
        return key.replace("nvidia.com/gpu", "[nvidia.com/gpu]").replace(".[", "[");
    }

    private static String render(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof String s) {
            return "\"" + s + "\"";
        }
        return value instanceof Map || value instanceof List ? JsonMapper.shared().writeValueAsString(value) : value.toString();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code --write README.md} or {@code --check README.md}. */
    public static void main(String[] args) throws IOException {
        if (args.length != 2 || !List.of("--write", "--check").contains(args[0])) {
            System.err.println("usage: ValuesDoc --write|--check README.md");
            System.exit(2);
        }
        Path readme = Path.of(args[1]);
        String current = Files.readString(readme);
        String updated = updatedReadme(current, HarnessPaths.fromSystemProperties().chartDir().resolve("values.yaml"));
        if (args[0].equals("--write")) {
            Files.writeString(readme, updated);
            System.out.println("README.md parameters regenerated from values.yaml");
        } else if (!updated.equals(current)) {
            System.err.println("README.md parameters are stale: run ci/readme-parameters.sh");
            System.exit(1);
        }
    }
}
