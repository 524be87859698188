package dev.nimchart.tools.schema;


import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.json.JsonMapper;

/**
 * The documentation of values.yaml, made by readme-generator-for-helm (npm, pinned in ci/tools/readme-generator,
 * installed by ci/install-node-tools.sh) from its {@code ## @section}, {@code ## @param} and {@code ## @extra}
 * comments: the generator writes the parameters tables of the READMEs, and its own parser (ci/tools/readme-generator/
 * metadata.js, after the generator's consistency check) gives the {@code description} this class writes into every key
 * of the hand-written values.schema.json. {@code main --write|--check README.md... --schema values.schema.json}.
 */
public final class SchemaDescriptions {

    private static final String DEFS = "#/$defs/";

    /** One documented key as the generator reads it; {@code extra}: an intermediate object or a key values.yaml does not set. */
    public record Param(String name, String section, String description, boolean extra, List<String> modifiers) {
    }

    private SchemaDescriptions() {
    }

    /** The generator's install directory (the settings' ci/install-node-tools.sh: cached, or installed from npm). */
    public static Path generatorDir(dev.nimchart.settings.Settings settings) {
        String out = dev.nimchart.settings.ScriptRun.run(dev.nimchart.settings.BuildScripts.dirOf(settings).orElseThrow().resolve("install-node-tools.sh"), List.of("--print-path", "readme-generator"), line -> { });
        return Path.of(out.lines().map(String::strip).filter(l -> !l.isEmpty()).reduce((a, b) -> b).orElseThrow(
                () -> new IllegalStateException("ci/install-node-tools.sh printed no directory")));
    }

    /** Every {@code @param} and {@code @extra} of values.yaml in file order; throws with the generator's errors when it refuses the file. */
    @SuppressWarnings("unchecked")
    public static List<Param> read(Path generatorDir, Path valuesYaml) {
        String json = run(List.of("node", generatorDir.resolve("metadata.js").toString(), valuesYaml.toString()), "read the metadata of " + valuesYaml);
        List<Param> params = new ArrayList<>();
        for (Object o : JsonMapper.shared().readValue(json, List.class)) {
            Map<String, Object> p = (Map<String, Object>) o;
            params.add(new Param((String) p.get("name"), (String) p.get("section"), (String) p.get("description"),
                    Boolean.TRUE.equals(p.get("extra")), (List<String>) p.get("modifiers")));
        }
        return params;
    }

    /** Key to description, as {@link #describedSchema} takes them. */
    public static Map<String, String> descriptions(List<Param> params) {
        Map<String, String> docs = new LinkedHashMap<>();
        params.forEach(p -> docs.put(p.name(), p.description()));
        return docs;
    }

    /** The README as the generator writes it: its {@code ## Parameters} section made from values.yaml (the file is left alone). */
    public static String generatedReadme(Path generatorDir, Path readme, Path valuesYaml) {
        try {
            Path copy = Files.createTempFile("readme", ".md");
            try {
                Files.copy(readme, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                run(List.of(generatorDir.resolve("node_modules/.bin/readme-generator").toString(), "--values", valuesYaml.toString(),
                        "--readme", copy.toString()), "generate the parameters of " + readme);
                return Files.readString(copy);
            } finally {
                Files.deleteIfExists(copy);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String run(List<String> command, String what) {
        try {
            Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.PIPE).start();
            java.util.concurrent.CompletableFuture<String> err = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try {
                    return new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
                } catch (IOException e) {
                    return "";
                }
            });
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("cannot " + what + ": readme-generator-for-helm did not finish in 120 s");
            }
            if (p.exitValue() != 0) {
                String errors = (out + "\n" + err.join()).lines().filter(l -> l.startsWith("ERROR")).reduce((a, b) -> a + "\n" + b)
                        .orElse(err.join().strip());
                throw new IllegalStateException("cannot " + what + ": readme-generator-for-helm refuses it:\n" + errors);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot " + what + " (is node on PATH?)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * values.schema.json with the {@code description} of every key set to its {@code @param} or {@code @extra} text
     * ({@code docs}: key to description, as {@link #read} gives them).
     * A key is a property reachable from the root through {@code properties}, {@code items} ({@code key[]}),
     * {@code oneOf}/{@code anyOf}/{@code allOf} and {@code $ref}; the properties of a {@code $defs} entry are described
     * by the values path that reaches them first. Throws, listing them, when keys have no {@code @param}/{@code @extra}.
     */
    public static String describedSchema(String schemaJson, Map<String, String> docs) {
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
     * {@code --write|--check} with {@code README.md} files (their parameters tables, by the generator) and {@code --schema
     * values.schema.json} (its descriptions), each from values.yaml of the chart directory.
     */
    public static void main(String[] args) throws IOException {
        if (args.length < 2 || !List.of("--write", "--check").contains(args[0])) {
            System.err.println("usage: SchemaDescriptions --write|--check [--readme] README.md... [--schema values.schema.json]");
            System.exit(2);
        }
        boolean write = args[0].equals("--write");
        dev.nimchart.settings.Settings settings = dev.nimchart.settings.SettingsFromProperties.shared();
        Path values = settings.chartDir().resolve("values.yaml");
        Path generator = generatorDir(settings);
        Map<String, String> docs = descriptions(read(generator, values));
        List<String> stale = new ArrayList<>();
        boolean schema = false;
        for (String arg : List.of(args).subList(1, args.length)) {
            if (arg.equals("--schema") || arg.equals("--readme")) {
                schema = arg.equals("--schema");
                continue;
            }
            Path file = Path.of(arg);
            String current = Files.readString(file);
            String updated = schema ? describedSchema(current, docs) : generatedReadme(generator, file, values);
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
