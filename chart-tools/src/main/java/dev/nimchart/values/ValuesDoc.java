package dev.nimchart.values;

import dev.nimchart.objects.KubeObject;
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
 * The documentation generated from the {@code ## @section}, {@code ## @param key description} and
 * {@code ## @extra key description} comments of values.yaml: the parameters tables of the READMEs (each default read
 * from the YAML itself) and the {@code description} of every key of values.schema.json, so docs, defaults and schema
 * cannot drift. {@code @param} documents a key values.yaml sets; {@code @extra} one it does not (a list item's key such
 * as {@code ingress.hosts[].host}, an optional key such as {@code resources.requests}, an upstream nim-deploy key).
 * {@code main --write README.md [--write ...] [--schema values.schema.json]} rewrites them; {@code --check} with the
 * same arguments fails when one is stale.
 */
public final class ValuesDoc {

    public static final String BEGIN = "<!-- parameters:begin (generated from charts/nim-llm/values.yaml by ci/readme-parameters.sh) -->";
    public static final String END = "<!-- parameters:end -->";
    private static final Pattern SECTION = Pattern.compile("^## @section (.+)$");
    private static final Pattern PARAM = Pattern.compile("^## @(param|extra) (\\S+) (.+)$");
    private static final String DEFS = "#/$defs/";

    /** One documented key; {@code extra} when values.yaml does not set it (no default). */
    public record Param(String section, String key, String description, boolean extra) {
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
                params.add(new Param(section, p.group(2), p.group(3).trim(), p.group(1).equals("extra")));
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
                        .append(" | ").append(defaultColumn(p, values, params)).append(" |\n");
            }
        });
        return out.toString();
    }

    /** The default: none for an @extra key, the keys below for a block whose keys have their own rows. */
    private static String defaultColumn(Param p, KubeObject values, List<Param> params) {
        if (p.extra()) {
            return "(not set)";
        }
        Object value = values.at(keyPath(p.key()));
        if (value instanceof Map && params.stream().anyMatch(other -> other.key().startsWith(p.key() + "."))) {
            return "(the keys below)";
        }
        return "`" + render(value) + "`";
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

    /**
     * values.schema.json with the {@code description} of every key set to its {@code @param} or {@code @extra} text.
     * A key is a property reachable from the root through {@code properties}, {@code items} ({@code key[]}),
     * {@code oneOf}/{@code anyOf}/{@code allOf} and {@code $ref}; the properties of a {@code $defs} entry are described
     * by the values path that reaches them first. Throws, listing them, when keys have no {@code @param}/{@code @extra}.
     */
    public static String describedSchema(String schemaJson, Path valuesYaml) {
        Map<String, String> docs = new LinkedHashMap<>();
        params(valuesYaml).forEach(p -> docs.put(p.key(), p.description()));
        Map<String, Object> schema = JsonMapper.shared().readValue(schemaJson, LinkedHashMap.class);
        List<String> missing = new ArrayList<>();
        forEachKey(schema, (path, property) -> {
            String description = docs.get(path);
            if (description == null) {
                missing.add(path);
            } else {
                Map<String, Object> described = new LinkedHashMap<>();
                described.put("description", description);
                property.remove("description");
                described.putAll(property);
                property.clear();
                property.putAll(described);
            }
        });
        if (!missing.isEmpty()) {
            throw new IllegalStateException("values.schema.json keys without an @param (or, when values.yaml does not set"
                    + " them, an @extra) line in values.yaml: " + missing);
        }
        return schemaJson(schema);
    }

    /** A schema as values.schema.json is written (see {@link #writeJson}). */
    public static String schemaJson(Map<String, Object> schema) {
        StringBuilder out = new StringBuilder();
        writeJson(schema, "", out);
        return out.toString();
    }

    /** Every key of a values schema, by its values path ({@code ingress.hosts[].host}), with its property schema. */
    public static void forEachKey(Map<String, Object> schema, java.util.function.BiConsumer<String, Map<String, Object>> action) {
        Map<String, Object> defs = schema.get("$defs") instanceof Map<?, ?> d ? cast(d) : Map.of();
        visit(schema, "", defs, new java.util.HashSet<>(), action);
    }

    private static void visit(Map<String, Object> node, String path, Map<String, Object> defs, java.util.Set<String> seenDefs,
                              java.util.function.BiConsumer<String, Map<String, Object>> action) {
        if (node.get("properties") instanceof Map<?, ?> properties) {
            for (Map.Entry<String, Object> e : cast(properties).entrySet()) {
                if (e.getValue() instanceof Map<?, ?> child) {
                    String key = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
                    action.accept(key, cast(child));
                    visit(cast(child), key, defs, seenDefs, action);
                }
            }
        }
        if (node.get("items") instanceof Map<?, ?> items) {
            visit(cast(items), path + "[]", defs, seenDefs, action);
        }
        for (String combinator : List.of("allOf", "anyOf", "oneOf")) {
            if (node.get(combinator) instanceof List<?> branches) {
                branches.stream().filter(Map.class::isInstance).forEach(b -> visit(cast((Map<?, ?>) b), path, defs, seenDefs, action));
            }
        }
        // Kubernetes object schemas (ci/kubernetes-schemas.sh) describe Kubernetes fields, not chart keys.
        if (node.get("$ref") instanceof String ref && ref.startsWith(DEFS) && !ref.startsWith(DEFS + "io.k8s.") && seenDefs.add(ref)
                && defs.get(ref.substring(DEFS.length())) instanceof Map<?, ?> def) {
            visit(cast(def), path, defs, seenDefs, action);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cast(Map<?, ?> map) {
        return (Map<String, Object>) map;
    }

    /** JSON as the schema file is written: two-space indent, one item per line, {@code "key": value}, no final newline. */
    private static void writeJson(Object value, String indent, StringBuilder out) {
        String inner = indent + "  ";
        if (value instanceof Map<?, ?> map && !map.isEmpty()) {
            out.append("{\n");
            int i = 0;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                out.append(inner).append(JsonMapper.shared().writeValueAsString(e.getKey().toString())).append(": ");
                writeJson(e.getValue(), inner, out);
                out.append(++i < map.size() ? ",\n" : "\n");
            }
            out.append(indent).append('}');
        } else if (value instanceof List<?> list && !list.isEmpty()) {
            out.append("[\n");
            for (int i = 0; i < list.size(); i++) {
                out.append(inner);
                writeJson(list.get(i), inner, out);
                out.append(i + 1 < list.size() ? ",\n" : "\n");
            }
            out.append(indent).append(']');
        } else {
            out.append(value instanceof Map ? "{}" : value instanceof List ? "[]" : JsonMapper.shared().writeValueAsString(value));
        }
    }

    /**
     * {@code --write|--check} with {@code README.md} files (their parameters tables) and {@code --schema
     * values.schema.json} (its descriptions), each from values.yaml of the chart directory.
     */
    public static void main(String[] args) throws IOException {
        if (args.length < 2 || !List.of("--write", "--check").contains(args[0])) {
            System.err.println("usage: ValuesDoc --write|--check [--readme] README.md... [--schema values.schema.json]");
            System.exit(2);
        }
        boolean write = args[0].equals("--write");
        Path values = HarnessPaths.fromSystemProperties().chartDir().resolve("values.yaml");
        List<String> stale = new ArrayList<>();
        boolean schema = false;
        for (String arg : List.of(args).subList(1, args.length)) {
            if (arg.equals("--schema") || arg.equals("--readme")) {
                schema = arg.equals("--schema");
                continue;
            }
            Path file = Path.of(arg);
            String current = Files.readString(file);
            String updated = schema ? describedSchema(current, values) : updatedReadme(current, values);
            if (updated.equals(current)) {
                continue;
            }
            if (write) {
                Files.writeString(file, updated);
                System.out.println(file + " regenerated from values.yaml");
            } else {
                stale.add(file.toString());
            }
        }
        if (!stale.isEmpty()) {
            System.err.println("stale, run ci/readme-parameters.sh: " + stale);
            System.exit(1);
        }
    }
}
