package dev.nimchart.tools.schema;

import dev.nimchart.kubeschema.KubernetesDefinitions;

import dev.nimchart.tools.schema.SchemaDescriptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Kubernetes definitions embedded in a values.schema.json: every {@code $defs} entry named {@code io.k8s.*} is
 * written by {@link KubernetesDefinitions} from the OpenAPI v3 documents of the Kubernetes version the chart targets.
 * The hand-written part of the schema says where Kubernetes objects go ({@code "affinity": {"$ref":
 * "#/$defs/io.k8s.api.core.v1.Affinity"}}); exactly the definitions those references need, transitively, are embedded,
 * after the hand-written ones, sorted by name.
 *
 * <p>{@code main --write|--check values.schema.json OPENAPI_V3.json...} (ci/kubernetes-schemas.sh) rewrites the file, or
 * fails when it differs from what would be written.
 */
public final class EmbeddedKubernetesSchemas {

    private EmbeddedKubernetesSchemas() {
    }

    /** The schema text with its {@code io.k8s.*} definitions regenerated. */
    @SuppressWarnings("unchecked")
    public static String regenerated(String schemaJson, KubernetesDefinitions kubernetes) {
        Map<String, Object> schema = JsonMapper.shared().readValue(schemaJson, LinkedHashMap.class);
        Map<String, Object> defs = schema.get("$defs") instanceof Map<?, ?> d ? (Map<String, Object>) d : new LinkedHashMap<>();
        Map<String, Object> handWritten = new LinkedHashMap<>();
        defs.forEach((name, def) -> {
            if (!name.startsWith(KubernetesDefinitions.PREFIX)) {
                handWritten.put(name, def);
            }
        });
        schema.put("$defs", handWritten);
        Set<String> roots = new LinkedHashSet<>();
        collectRoots(schema, roots);
        Map<String, Object> all = new LinkedHashMap<>(handWritten);
        all.putAll(kubernetes.closure(roots));
        schema.put("$defs", all);
        return SchemaDescriptions.schemaJson(schema);
    }

    /** The {@code io.k8s.*} definition names the hand-written part refers to. */
    private static void collectRoots(Object node, Set<String> roots) {
        if (node instanceof Map<?, ?> m) {
            if (m.get("$ref") instanceof String ref && ref.startsWith(KubernetesDefinitions.DEFS_REF + KubernetesDefinitions.PREFIX)) {
                roots.add(ref.substring(KubernetesDefinitions.DEFS_REF.length()));
            }
            m.values().forEach(v -> collectRoots(v, roots));
        } else if (node instanceof List<?> list) {
            list.forEach(v -> collectRoots(v, roots));
        }
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 3 || !(args[0].equals("--write") || args[0].equals("--check"))) {
            System.err.println("usage: EmbeddedKubernetesSchemas --write|--check values.schema.json OPENAPI_V3.json...");
            System.exit(2);
        }
        Path schemaFile = Path.of(args[1]);
        List<Path> openApi = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            openApi.add(Path.of(args[i]));
        }
        String current = Files.readString(schemaFile);
        String updated;
        try {
            updated = regenerated(current, new KubernetesDefinitions(openApi));
        } catch (UncheckedIOException | IllegalArgumentException e) {
            System.err.println("kubernetes-schemas: " + e.getMessage());
            System.exit(1);
            return;
        }
        if (updated.equals(current)) {
            System.out.println(schemaFile + ": Kubernetes definitions up to date");
        } else if (args[0].equals("--write")) {
            Files.writeString(schemaFile, updated);
            System.out.println(schemaFile + ": Kubernetes definitions written (" + updated.length() + " characters)");
        } else {
            System.err.println(schemaFile + ": Kubernetes definitions are stale: run ci/kubernetes-schemas.sh");
            System.exit(1);
        }
    }
}
