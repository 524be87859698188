package dev.nimchart.tools.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * The JSON schema files kubeconform reads, made offline from an OpenAPI v2 document (an API server's
 * {@code /openapi/v2}, custom resources included): one standalone strict schema (see {@link StandaloneSchema}) per
 * group-version-kind of every definition carrying {@code x-kubernetes-group-version-kind}, named the way
 * kubeconform v0.8.0's {@code -schema-location} template {@link #schemaLocation(Path)} resolves it.
 */
public final class KubeconformSchemas {

    /** A kind the document defines: its apiVersion ({@code apps/v1}, {@code v1}), kind and definition name. */
    public record Kind(String apiVersion, String kind, String definition) {

        /** The file kubeconform looks for: {@code deployment-apps-v1.json}. */
        public String fileName() {
            return KubeconformSchemas.fileName(apiVersion, kind);
        }
    }

    private final Map<String, Map<String, Object>> definitions;

    /** @param openApiV2 the document as parsed JSON; only its {@code definitions} are read */
    public KubeconformSchemas(Map<String, Object> openApiV2) {
        if (!(openApiV2.get("definitions") instanceof Map<?, ?> defs)) {
            throw new IllegalArgumentException("not an OpenAPI v2 document: no definitions");
        }
        Map<String, Map<String, Object>> copy = new LinkedHashMap<>();
        defs.forEach((name, schema) -> copy.put(name.toString(), asMap(schema)));
        this.definitions = copy;
    }

    /**
     * The {@code -schema-location} for files written to {@code dir}: {@code DIR/{{ .ResourceKind }}{{ .KindSuffix }}.json}.
     * kubeconform lower-cases the kind and forms KindSuffix from the apiVersion (see {@link #fileName}); the location
     * ends in "json" and is a path, so kubeconform uses it as is and reads files, never the network.
     */
    public static String schemaLocation(Path dir) {
        return dir.toAbsolutePath().normalize() + "/{{ .ResourceKind }}{{ .KindSuffix }}.json";
    }

    /**
     * The file name {@link #schemaLocation} resolves for a resource, as kubeconform v0.8.0 forms it
     * (pkg/registry/registry.go): the lower-cased kind, "-", the first dot-separated label of the group (the version
     * for the core group), then "-" and the version when there is a group. {@code v1 Service} gives
     * {@code service-v1.json}, {@code apps/v1 Deployment} {@code deployment-apps-v1.json},
     * {@code leaderworkerset.x-k8s.io/v1 LeaderWorkerSet} {@code leaderworkerset-leaderworkerset-v1.json}.
     */
    public static String fileName(String apiVersion, String kind) {
        String[] groupVersion = apiVersion.split("/", -1);
        String suffix = "-" + groupVersion[0].split("\\.", -1)[0].toLowerCase(Locale.ROOT);
        if (groupVersion.length > 1) {
            suffix += "-" + groupVersion[1].toLowerCase(Locale.ROOT);
        }
        return kind.toLowerCase(Locale.ROOT) + suffix + ".json";
    }

    /** Every group-version-kind of the document, in definition order. */
    public List<Kind> kinds() {
        List<Kind> kinds = new ArrayList<>();
        definitions.forEach((name, schema) -> {
            if (schema.get("x-kubernetes-group-version-kind") instanceof List<?> gvks) {
                for (Object gvk : gvks) {
                    Map<String, Object> g = asMap(gvk);
                    String group = String.valueOf(g.getOrDefault("group", ""));
                    String version = String.valueOf(g.get("version"));
                    kinds.add(new Kind(group.isEmpty() ? version : group + "/" + version, String.valueOf(g.get("kind")), name));
                }
            }
        });
        return kinds;
    }

    /**
     * The standalone strict schema of one kind: its definition with every reference inlined, {@code kind} and
     * {@code apiVersion} restricted to this kind's values, and only this group-version-kind in
     * {@code x-kubernetes-group-version-kind}.
     */
    public Map<String, Object> schema(Kind kind) {
        Map<String, Object> schema = new StandaloneSchema(definitions).of(kind.definition());
        if (schema.get("properties") instanceof Map<?, ?> properties) {
            restrict(asMap(properties), "kind", kind.kind());
            restrict(asMap(properties), "apiVersion", kind.apiVersion());
        }
        String group = kind.apiVersion().contains("/") ? kind.apiVersion().substring(0, kind.apiVersion().indexOf('/')) : "";
        String version = kind.apiVersion().substring(kind.apiVersion().indexOf('/') + 1);
        schema.put("x-kubernetes-group-version-kind", List.of(Map.of("group", group, "version", version, "kind", kind.kind())));
        return schema;
    }

    /**
     * Writes one schema file per kind into {@code dir} (created if needed) and returns the files.
     *
     * @throws IllegalStateException when two kinds would share a file name (kubeconform could not tell them apart)
     */
    public List<Path> writeTo(Path dir) {
        Map<String, Kind> byFile = new LinkedHashMap<>();
        for (Kind kind : kinds()) {
            Kind other = byFile.putIfAbsent(kind.fileName(), kind);
            if (other != null) {
                throw new IllegalStateException("both " + other + " and " + kind + " would be written to " + kind.fileName());
            }
        }
        try {
            Files.createDirectories(dir);
            List<Path> written = new ArrayList<>();
            for (Map.Entry<String, Kind> entry : byFile.entrySet()) {
                Path file = dir.resolve(entry.getKey());
                Files.write(file, JsonMapper.shared().writeValueAsBytes(schema(entry.getValue())));
                written.add(file);
            }
            return written;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the schemas to " + dir, e);
        }
    }

    /** Narrows a string property (already a fresh copy) to the one value this kind has. */
    private static void restrict(Map<String, Object> properties, String property, String value) {
        if (properties.get(property) instanceof Map<?, ?> schema) {
            Map<String, Object> narrowed = new LinkedHashMap<>(asMap(schema));
            narrowed.put("enum", List.of(value));
            properties.put(property, narrowed);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object value) {
        if (value instanceof Map<?, ?> map) {
            return (Map<String, Object>) map;
        }
        throw new IllegalArgumentException("expected an object in the OpenAPI document, found " + value);
    }
}
