package dev.nimchart.checks;

import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.KeyPath;
import dev.nimchart.objects.KubeNames;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.NodePath;
import java.io.IOException;
import java.io.Reader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Date;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Validates custom resources (LeaderWorkerSet, MPIJob, ServiceMonitor, ... any CRD found in the CRD directory)
 * against the {@code openAPIV3Schema} of their CustomResourceDefinition, the way a Kubernetes API server does on
 * create with strict field validation ({@code fieldValidation=Strict}), as closely as is practical without one.
 *
 * <p>What is emulated:
 * <ul>
 *   <li>unknown fields: every structural object schema that is not {@code x-kubernetes-preserve-unknown-fields: true}
 *       accepts only its declared {@code properties} (or its {@code additionalProperties} schema); a plain
 *       {@code type: object} without either accepts no field at all, as the server prunes them;</li>
 *   <li>types, {@code nullable}, {@code x-kubernetes-int-or-string}, enum, pattern, lengths, bounds, required,
 *       {@code allOf/anyOf/oneOf/not} value validations;</li>
 *   <li>what the server does before validating: non-nullable {@code null} fields are dropped, {@code default}s are
 *       applied to the objects present;</li>
 *   <li>{@code x-kubernetes-list-type: set} and {@code map} (duplicate items / duplicate keys are errors);</li>
 *   <li>the top-level {@code metadata} (CRDs only declare {@code type: object}) is checked as ObjectMeta: known
 *       fields only, name as a DNS-1123 subdomain, label and annotation keys and label values in their syntax,
 *       name or generateName required; {@code apiVersion} and {@code kind} are always allowed.</li>
 * </ul>
 * Not emulated: CEL rules ({@code x-kubernetes-validations}), {@code format} (int32/int64 ranges, date-time, ...),
 * admission webhooks of the operators, and anything a controller checks later.
 *
 * <p>CRD YAML files are read from the directory the caller names (the settings' CRD directory: the system property
 * {@value #CRDS_DIR_PROPERTY} for the command line and this repository's tests), else from the
 * chart-tests jar (the build puts them under {@code dev/nimchart/checks/crds/}: this repository's ci/fetch-crds.sh copies
 * them from the Go module cache, pinned by its ci/go.mod). Missing files are an error saying how to give them, never a
 * silent pass.
 *
 * <p>Instances are thread-safe; compiled schemas are cached per group/version/kind.
 */
public final class CrdSchemaValidator {

    /** System property naming the directory that holds the CRD YAML files (read by {@code SettingsFromProperties}). */
    public static final String CRDS_DIR_PROPERTY = "nim.crds.dir";

    /** How to get the CRD files, quoted in every "missing CRDs" error. */
    public static final String FETCH_COMMAND = "a directory of the pinned CRDs' YAML files (LeaderWorkerSet, MPIJob,"
            + " ServiceMonitor, ...) given as Settings.withCrdsDir(DIR), or the CRDs this library's jar carries"
            + " (dev/nimchart/checks/crds/, which the harness's build fetches from the Go module proxy)";

    /** API groups served by kube-apiserver itself: objects of these groups never have a CRD. */
    private static final Set<String> BUILT_IN_GROUPS = Set.of(
            "apps", "batch", "autoscaling", "policy", "networking.k8s.io", "rbac.authorization.k8s.io",
            "storage.k8s.io", "scheduling.k8s.io", "coordination.k8s.io", "discovery.k8s.io", "node.k8s.io",
            "admissionregistration.k8s.io", "apiextensions.k8s.io", "apiregistration.k8s.io", "certificates.k8s.io",
            "events.k8s.io", "flowcontrol.apiserver.k8s.io", "resource.k8s.io", "authentication.k8s.io",
            "authorization.k8s.io", "internal.apiserver.k8s.io", "storagemigration.k8s.io");
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Set<String> IGNORED_KEYWORDS = Set.of(
            "description", "example", "externalDocs", "title", "format", "default", "nullable", "$schema", "id",
            "discriminator", "readOnly", "writeOnly", "xml", "deprecated");
    private static final Set<String> COPIED_KEYWORDS = Set.of(
            "enum", "const", "pattern", "minLength", "maxLength", "minimum", "maximum", "multipleOf",
            "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties", "required");

    private static final String DNS1123_LABEL = KubeNames.DNS1123_LABEL;
    private static final String DNS1123_SUBDOMAIN = KubeNames.DNS1123_SUBDOMAIN;
    private static final String QUALIFIED_NAME = KubeNames.QUALIFIED_NAME;
    private static final String LABEL_VALUE = KubeNames.LABEL_VALUE;

    private final Path crdsDir;
    /** "group/version/Kind" → version entry of the CRD (schema and served flag). */
    private final Map<String, CrdVersion> versions;
    private final Map<String, Compiled> compiled = new ConcurrentHashMap<>();
    private final SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

    private record CrdVersion(String group, String version, String kind, boolean served, Map<String, Object> schema,
                              Path file) {}

    /** A version's schema with ObjectMeta merged in (drives pruning/defaulting) and its compiled JSON Schema. */
    private record Compiled(Map<String, Object> openApi, Schema jsonSchema) {}

    private CrdSchemaValidator(Path crdsDir, Map<String, CrdVersion> versions) {
        this.crdsDir = crdsDir;
        this.versions = versions;
    }

    /** Loads the CRDs the chart-tests jar carries (the build puts them under {@code dev/nimchart/checks/crds/}). */
    public static CrdSchemaValidator load() {
        return load(java.util.Optional.empty());
    }

    /** The CRDs of this directory when given, else as {@link #load()}. */
    public static CrdSchemaValidator load(java.util.Optional<Path> configured) {
        if (configured.isPresent()) {
            return load(configured.get());
        }
        return load(bundledCrdsDir().orElseThrow(() -> new IllegalStateException("no CRDs on the class path and no CRD directory"
                + " given, so custom resources cannot be validated. Give the CRDs: " + FETCH_COMMAND)));
    }

    /** The CRDs on the class path (a directory, or a copy out of the jar in a temporary directory), if any. */
    private static java.util.Optional<Path> bundledCrdsDir() {
        java.net.URL url = CrdSchemaValidator.class.getResource("crds/");
        if (url == null) {
            return java.util.Optional.empty();
        }
        try {
            java.net.URI uri = url.toURI();
            if (uri.getScheme().equals("file")) {
                return java.util.Optional.of(Path.of(uri));
            }
            java.nio.file.FileSystem jar;
            try {
                jar = java.nio.file.FileSystems.newFileSystem(uri, Map.of());
            } catch (java.nio.file.FileSystemAlreadyExistsException e) {
                jar = java.nio.file.FileSystems.getFileSystem(uri);
            }
            Path copy = Files.createTempDirectory("chart-tests-crds");
            copy.toFile().deleteOnExit();
            try (Stream<Path> files = Files.list(jar.provider().getPath(uri))) {
                for (Path file : files.toList()) {
                    Path target = copy.resolve(file.getFileName().toString());
                    Files.copy(file, target);
                    target.toFile().deleteOnExit();
                }
            }
            return java.util.Optional.of(copy);
        } catch (IOException | java.net.URISyntaxException e) {
            throw new IllegalStateException("cannot read the CRDs bundled at " + url + ": " + e, e);
        }
    }

    /**
     * Loads every CustomResourceDefinition found in the {@code *.yaml}/{@code *.yml}/{@code *.json} files of
     * {@code dir}.
     *
     * @throws IllegalStateException if the directory does not exist or holds no CRD, with the command that fetches them
     */
    public static CrdSchemaValidator load(Path dir) {
        Path abs = dir.toAbsolutePath().normalize();
        if (!Files.isDirectory(abs)) {
            throw new IllegalStateException("CRD directory " + abs + " does not exist, so custom resources cannot be"
                    + " validated. Give the CRDs: " + FETCH_COMMAND
                    + ", or point -D" + CRDS_DIR_PROPERTY + " at a directory that holds them.");
        }
        List<Path> files;
        try (Stream<Path> list = Files.list(abs)) {
            files = list.filter(p -> p.getFileName().toString().matches(".*\\.(ya?ml|json)$")).sorted().toList();
        } catch (IOException e) {
            throw new IllegalStateException("Cannot list CRD directory " + abs + ": " + e, e);
        }
        // the files are read side by side (the LeaderWorkerSet CRD alone is 1.3 MB of YAML), then added in order
        List<List<Object>> documents = files.parallelStream().map(CrdSchemaValidator::readYamlDocuments).toList();
        Map<String, CrdVersion> versions = new TreeMap<>();
        for (int i = 0; i < files.size(); i++) {
            for (Object doc : documents.get(i)) {
                addCrd(files.get(i), doc, versions);
            }
        }
        if (versions.isEmpty()) {
            throw new IllegalStateException("No CustomResourceDefinition found in " + abs + " (files: "
                    + files.stream().map(p -> p.getFileName().toString()).toList() + "). Give the CRDs: "
                    + FETCH_COMMAND);
        }
        return new CrdSchemaValidator(abs, versions);
    }

    /** The directory the CRDs were loaded from. */
    public Path crdsDir() {
        return crdsDir;
    }

    /** Every served and unserved type the loaded CRDs define, as "group/version Kind", sorted. */
    public Set<String> knownTypes() {
        return versions.values().stream()
                .map(v -> v.group() + "/" + v.version() + " " + v.kind())
                .collect(Collectors.toCollection(java.util.TreeSet::new));
    }

    /** True if a loaded CRD defines and serves this apiVersion ("group/version") and kind. */
    public boolean supports(String apiVersion, String kind) {
        CrdVersion v = versions.get(apiVersion + "/" + kind);
        return v != null && v.served();
    }

    /** True if any loaded CRD has this API group (so the object is meant to be a custom resource of ours). */
    public boolean knowsGroup(String group) {
        return versions.values().stream().anyMatch(v -> v.group().equals(group));
    }

    /** Same as {@link #validate(Map)} on {@link KubeObject#raw()}. */
    public List<String> validate(KubeObject object) {
        return validate(object.raw());
    }

    /**
     * Validates one object (as parsed from YAML: maps, lists, scalars) against its CRD schema.
     *
     * @return error messages, each starting with the field path in the harness's {@link KubeObject#at} syntax
     *     ({@code spec.leaderWorkerTemplate.size: ...}, list items as {@code [i]}, keys with dots as {@code [key]});
     *     empty if the object is valid. An apiVersion/kind no loaded CRD defines is an error too.
     */
    public List<String> validate(Map<String, ?> object) {
        if (object == null) {
            return List.of("<object>: is null");
        }
        Object apiVersion = object.get("apiVersion");
        Object kind = object.get("kind");
        if (!(apiVersion instanceof String av) || av.isBlank() || !(kind instanceof String k) || k.isBlank()) {
            return List.of("apiVersion/kind: Required value: both must be non-empty strings (got apiVersion="
                    + apiVersion + ", kind=" + kind + ")");
        }
        String typeName = av + " " + k;
        int slash = av.indexOf('/');
        if (slash < 0) {
            return List.of("apiVersion: " + typeName + " is a core Kubernetes type, not a custom resource: no CRD"
                    + " schema applies (validate it with the Kubernetes models instead)");
        }
        String group = av.substring(0, slash);
        if (BUILT_IN_GROUPS.contains(group)) {
            return List.of("apiVersion: " + typeName + " is a built-in Kubernetes type, not a custom resource: no CRD"
                    + " schema applies (validate it with the Kubernetes models instead)");
        }
        String version = av.substring(slash + 1);
        CrdVersion crd = versions.get(av + "/" + k);
        if (crd == null) {
            List<String> sameKind = versions.values().stream()
                    .filter(v -> v.group().equals(group) && v.kind().equals(k))
                    .map(CrdVersion::version).toList();
            String why = !sameKind.isEmpty()
                    ? "the " + k + " CRD in " + crdsDir + " defines versions " + sameKind + ", not " + version
                    : "no CRD for kind " + k + " in group " + group + " in " + crdsDir + " (loaded: " + knownTypes()
                      + "). If it should be there, give the CRDs: " + FETCH_COMMAND;
            return List.of("apiVersion/kind: unknown custom resource type " + typeName + ": " + why);
        }
        if (!crd.served()) {
            return List.of("apiVersion: " + typeName + " is defined but not served (served: false) by its CRD ("
                    + crd.file().getFileName() + ")");
        }
        Compiled c = compiled.computeIfAbsent(av + "/" + k, key -> compile(crd));

        List<String> messages = new ArrayList<>();
        JsonNode instance = toJson(object, c.openApi(), "", messages);
        for (Error error : c.jsonSchema().validate(instance)) {
            messages.add(format(error, instance));
        }
        messages.addAll(checkObjectMetaName(object));
        return List.copyOf(new LinkedHashSet<>(messages));
    }

    // ---------------------------------------------------------------------------------------------------------------
    // CRD loading

    private static List<Object> readYamlDocuments(Path file) {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        options.setCodePointLimit(64 * 1024 * 1024); // the LeaderWorkerSet CRD alone is 1.3 MB
        options.setMaxAliasesForCollections(200);
        Yaml yaml = new Yaml(new SafeConstructor(options));
        List<Object> docs = new ArrayList<>();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (Object doc : yaml.loadAll(reader)) {
                if (doc != null) {
                    docs.add(doc);
                }
            }
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("Cannot read CRD file " + file + ": " + e.getMessage()
                    + ". Give the CRDs anew: " + FETCH_COMMAND, e);
        }
        return docs;
    }

    private static void addCrd(Path file, Object doc, Map<String, CrdVersion> out) {
        if (!(doc instanceof Map<?, ?> m) || !"CustomResourceDefinition".equals(m.get("kind"))) {
            return;
        }
        Map<String, Object> spec = map(m.get("spec"));
        Map<String, Object> names = map(spec.get("names"));
        String group = (String) spec.get("group");
        String kind = (String) names.get("kind");
        if (group == null || kind == null) {
            throw new IllegalStateException("CRD in " + file + " has no spec.group or spec.names.kind");
        }
        // apiextensions.k8s.io/v1beta1 CRDs may keep one schema for all versions at spec.validation.
        Map<String, Object> sharedSchema = map(map(spec.get("validation")).get("openAPIV3Schema"));
        List<Object> vs = spec.get("versions") instanceof List<?> l ? new ArrayList<>(l) : new ArrayList<>();
        if (vs.isEmpty() && spec.get("version") instanceof String only) {
            vs.add(Map.of("name", only, "served", true));
        }
        for (Object o : vs) {
            Map<String, Object> v = map(o);
            String name = (String) v.get("name");
            Map<String, Object> schema = map(map(v.get("schema")).get("openAPIV3Schema"));
            if (schema.isEmpty()) {
                schema = sharedSchema;
            }
            if (schema.isEmpty()) {
                throw new IllegalStateException("CRD " + kind + "." + group + " version " + name + " in " + file
                        + " has no openAPIV3Schema: cannot validate strictly");
            }
            boolean served = !Boolean.FALSE.equals(v.get("served"));
            out.put(group + "/" + name + "/" + kind, new CrdVersion(group, name, kind, served, schema, file));
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        return o instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Schema preparation: root with ObjectMeta, then OpenAPI v3 (structural) → JSON Schema 2020-12

    private Compiled compile(CrdVersion crd) {
        Map<String, Object> root = new LinkedHashMap<>(crd.schema());
        Map<String, Object> props = new LinkedHashMap<>(map(root.get("properties")));
        props.putIfAbsent("apiVersion", Map.of("type", "string"));
        props.putIfAbsent("kind", Map.of("type", "string"));
        props.put("metadata", mergeObjectMeta(map(props.get("metadata"))));
        root.put("properties", props);
        root.putIfAbsent("type", "object");
        ObjectNode json = toJsonSchema(root, true);
        json.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        String id = "urn:nimchart:crd:" + crd.group() + ":" + crd.version() + ":" + crd.kind();
        Schema schema = registry.getSchema(SchemaLocation.of(id), json);
        return new Compiled(root, schema);
    }

    /** ObjectMeta as a structural schema, with what the CRD itself declares on metadata (e.g. name limits) added. */
    private static Map<String, Object> mergeObjectMeta(Map<String, Object> declared) {
        Map<String, Object> meta = objectMetaSchema();
        Map<String, Object> props = map(meta.get("properties"));
        map(declared.get("properties")).forEach((name, s) -> {
            Map<String, Object> base = new LinkedHashMap<>(map(props.get(name)));
            if (base.isEmpty()) {
                props.put(name, s);
            } else {
                base.put("allOf", List.of(valueValidationsOnly(map(s))));
                props.put(name, base);
            }
        });
        return meta;
    }

    private static Map<String, Object> valueValidationsOnly(Map<String, Object> s) {
        Map<String, Object> out = new LinkedHashMap<>(s);
        out.keySet().removeIf(k -> k.equals("type") || k.startsWith("x-kubernetes-") || IGNORED_KEYWORDS.contains(k));
        return out;
    }

    private static Map<String, Object> objectMetaSchema() {
        Map<String, Object> stringMap = Map.of("type", "object", "additionalProperties", Map.of("type", "string"),
                "propertyNames", Map.of("pattern", QUALIFIED_NAME));
        Map<String, Object> labels = Map.of("type", "object",
                "additionalProperties", Map.of("type", "string", "maxLength", 63, "pattern", LABEL_VALUE),
                "propertyNames", Map.of("pattern", QUALIFIED_NAME));
        Map<String, Object> ownerReference = Map.of("type", "object",
                "required", List.of("apiVersion", "kind", "name", "uid"),
                "properties", Map.of(
                        "apiVersion", Map.of("type", "string"),
                        "kind", Map.of("type", "string"),
                        "name", Map.of("type", "string"),
                        "uid", Map.of("type", "string"),
                        "controller", Map.of("type", "boolean"),
                        "blockOwnerDeletion", Map.of("type", "boolean")));
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("name", Map.of("type", "string", "maxLength", 253, "pattern", "^" + DNS1123_SUBDOMAIN + "$"));
        props.put("generateName", Map.of("type", "string"));
        props.put("namespace", Map.of("type", "string", "maxLength", 63, "pattern", "^" + DNS1123_LABEL + "$"));
        props.put("labels", labels);
        props.put("annotations", stringMap);
        props.put("finalizers", Map.of("type", "array", "items", Map.of("type", "string")));
        props.put("ownerReferences", Map.of("type", "array", "items", ownerReference));
        props.put("uid", Map.of("type", "string"));
        props.put("resourceVersion", Map.of("type", "string"));
        props.put("selfLink", Map.of("type", "string"));
        props.put("generation", Map.of("type", "integer"));
        props.put("creationTimestamp", Map.of("type", "string", "nullable", true));
        props.put("deletionTimestamp", Map.of("type", "string", "nullable", true));
        props.put("deletionGracePeriodSeconds", Map.of("type", "integer"));
        props.put("managedFields", Map.of("type", "array",
                "items", Map.of("type", "object", "x-kubernetes-preserve-unknown-fields", true)));
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("type", "object");
        meta.put("properties", props);
        return meta;
    }

    /**
     * Converts an OpenAPI v3 schema node to JSON Schema. {@code structural} nodes (reached through properties,
     * additionalProperties and items) get strict unknown-field handling; nodes under allOf/anyOf/oneOf/not only
     * carry value validations in a structural schema, so they are converted without it.
     */
    private static ObjectNode toJsonSchema(Map<String, Object> s, boolean structural) {
        ObjectNode out = JSON.objectNode();
        boolean nullable = Boolean.TRUE.equals(s.get("nullable"));
        boolean intOrString = Boolean.TRUE.equals(s.get("x-kubernetes-int-or-string"));
        boolean preserve = Boolean.TRUE.equals(s.get("x-kubernetes-preserve-unknown-fields"));
        boolean embedded = Boolean.TRUE.equals(s.get("x-kubernetes-embedded-resource"));
        Object type = s.get("type");

        if (intOrString) {
            ArrayNode types = out.putArray("type").add("integer").add("string");
            if (nullable) {
                types.add("null");
            }
        } else if (type instanceof String t) {
            if (nullable) {
                out.putArray("type").add(t).add("null");
            } else {
                out.put("type", t);
            }
        }

        for (String k : COPIED_KEYWORDS) {
            if (s.containsKey(k)) {
                out.set(k, toJsonValue(s.get(k)));
            }
        }
        if (nullable && out.get("enum") instanceof ArrayNode e) {
            boolean hasNull = false;
            for (JsonNode n : e) {
                hasNull |= n.isNull();
            }
            if (!hasNull) {
                e.addNull();
            }
        }
        // OpenAPI 3.0: exclusiveMinimum/Maximum are booleans qualifying minimum/maximum.
        if (Boolean.TRUE.equals(s.get("exclusiveMinimum")) && s.get("minimum") != null) {
            out.remove("minimum");
            out.set("exclusiveMinimum", toJsonValue(s.get("minimum")));
        }
        if (Boolean.TRUE.equals(s.get("exclusiveMaximum")) && s.get("maximum") != null) {
            out.remove("maximum");
            out.set("exclusiveMaximum", toJsonValue(s.get("maximum")));
        }
        if (s.get("propertyNames") instanceof Map<?, ?> pn) {
            out.set("propertyNames", toJsonSchema(map(pn), false));
        }

        Map<String, Object> props = new LinkedHashMap<>(map(s.get("properties")));
        if (embedded && structural) {
            props.putIfAbsent("apiVersion", Map.of("type", "string"));
            props.putIfAbsent("kind", Map.of("type", "string"));
            props.put("metadata", mergeObjectMeta(map(props.get("metadata"))));
        }
        if (!props.isEmpty()) {
            ObjectNode p = out.putObject("properties");
            props.forEach((name, child) -> p.set(name, toJsonSchema(map(child), structural)));
        }
        Object additional = s.get("additionalProperties");
        if (additional instanceof Map<?, ?> a) {
            out.set("additionalProperties", toJsonSchema(map(a), structural));
        } else if (additional instanceof Boolean b) {
            out.put("additionalProperties", b);
        } else if (structural && !preserve && ("object".equals(type) || !props.isEmpty())) {
            // The server prunes (and strict validation reports) every field a structural schema does not declare.
            out.put("additionalProperties", false);
        }
        if (s.get("items") instanceof Map<?, ?> items) {
            out.set("items", toJsonSchema(map(items), structural));
        }
        if (structural && "set".equals(s.get("x-kubernetes-list-type"))) {
            out.put("uniqueItems", true);
        }

        for (String combinator : List.of("allOf", "anyOf", "oneOf")) {
            if (!(s.get(combinator) instanceof List<?> list) || list.isEmpty()) {
                continue;
            }
            if (intOrString && combinator.equals("anyOf") && isPlainIntOrStringAnyOf(list)) {
                continue; // already expressed by type: [integer, string]
            }
            ArrayNode arr = out.putArray(combinator);
            for (Object sub : list) {
                arr.add(toJsonSchema(map(sub), false));
            }
        }
        if (s.get("not") instanceof Map<?, ?> not) {
            out.set("not", toJsonSchema(map(not), false));
        }
        return out;
    }

    private static boolean isPlainIntOrStringAnyOf(List<?> anyOf) {
        Set<Object> types = new HashSet<>();
        for (Object o : anyOf) {
            Map<String, Object> m = map(o);
            if (m.size() != 1 || !(m.get("type") instanceof String t)) {
                return false;
            }
            types.add(t);
        }
        return types.equals(Set.of("integer", "string"));
    }

    private static JsonNode toJsonValue(Object v) {
        return toJson(v, null, "", null);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Instance conversion: YAML values → JSON, with the server's null pruning, defaulting and list-type checks

    /**
     * Converts a YAML value to JSON following its (OpenAPI) schema the way the API server prepares an object:
     * non-nullable nulls without a default are dropped, defaults are filled in for missing or null properties,
     * and {@code x-kubernetes-list-type: map} lists are checked for duplicate keys (into {@code messages}).
     * With a null schema (free-form, or unknown fields that the JSON Schema will report) it converts as is.
     */
    private static JsonNode toJson(Object value, Map<String, Object> schema, String path, List<String> messages) {
        if (value == null) {
            return JSON.nullNode();
        }
        if (value instanceof Map<?, ?> m) {
            ObjectNode obj = JSON.objectNode();
            Map<String, Object> props = schema == null ? Map.of() : map(schema.get("properties"));
            Map<String, Object> additional = schema == null ? Map.of() : map(schema.get("additionalProperties"));
            for (Map.Entry<?, ?> e : m.entrySet()) {
                String key = String.valueOf(e.getKey()); // YAML keys like 1 or true become JSON strings, as in Helm
                Map<String, Object> childSchema = props.containsKey(key) ? map(props.get(key))
                        : !additional.isEmpty() ? additional : null;
                Object child = e.getValue();
                if (child == null && childSchema != null && !Boolean.TRUE.equals(childSchema.get("nullable"))) {
                    if (childSchema.containsKey("default")) {
                        obj.set(key, toJson(childSchema.get("default"), childSchema, child(path, key), messages));
                    }
                    continue; // pruned by the server (PruneNonNullableNullsWithoutDefaults)
                }
                obj.set(key, toJson(child, childSchema, child(path, key), messages));
            }
            props.forEach((name, p) -> {
                Map<String, Object> ps = map(p);
                if (!obj.has(name) && ps.containsKey("default")) {
                    obj.set(name, toJson(ps.get("default"), ps, child(path, name), messages));
                }
            });
            return obj;
        }
        if (value instanceof Collection<?> c) {
            ArrayNode arr = JSON.arrayNode();
            Map<String, Object> items = schema == null ? null : map(schema.get("items"));
            int i = 0;
            for (Object item : c) {
                arr.add(toJson(item, items == null || items.isEmpty() ? null : items, KeyPath.element(path, i++),
                        messages));
            }
            if (schema != null && messages != null && "map".equals(schema.get("x-kubernetes-list-type"))
                    && schema.get("x-kubernetes-list-map-keys") instanceof List<?> keys) {
                checkListMapKeys(arr, keys, path, messages);
            }
            return arr;
        }
        if (value instanceof Object[] a) {
            return toJson(List.of(a), schema, path, messages);
        }
        if (value instanceof String s) {
            return JSON.stringNode(s);
        }
        if (value instanceof Boolean b) {
            return JSON.booleanNode(b);
        }
        if (value instanceof Integer i) {
            return JSON.numberNode(i);
        }
        if (value instanceof Long l) {
            return JSON.numberNode(l);
        }
        if (value instanceof BigInteger bi) {
            return JSON.numberNode(bi);
        }
        if (value instanceof Double d) {
            return JSON.numberNode(d);
        }
        if (value instanceof Float f) {
            return JSON.numberNode(f);
        }
        if (value instanceof BigDecimal bd) {
            return JSON.numberNode(bd);
        }
        if (value instanceof Number n) {
            return JSON.numberNode(new BigDecimal(n.toString()));
        }
        if (value instanceof Date d) {
            // Unquoted YAML timestamps: Helm/sigs.k8s.io/yaml send them as strings.
            return JSON.stringNode(DateTimeFormatter.ISO_INSTANT.format(d.toInstant()));
        }
        if (value instanceof byte[] bytes) {
            return JSON.stringNode(Base64.getEncoder().encodeToString(bytes));
        }
        return JSON.stringNode(String.valueOf(value));
    }

    private static void checkListMapKeys(ArrayNode arr, List<?> keys, String path, List<String> messages) {
        Map<List<JsonNode>, Integer> seen = new LinkedHashMap<>();
        for (int i = 0; i < arr.size(); i++) {
            JsonNode item = arr.get(i);
            if (!item.isObject()) {
                continue; // the type check reports it
            }
            List<JsonNode> key = new ArrayList<>();
            for (Object k : keys) {
                key.add(item.get(String.valueOf(k)));
            }
            if (key.stream().allMatch(Objects::isNull)) {
                continue;
            }
            Integer first = seen.putIfAbsent(key, i);
            if (first != null) {
                StringBuilder desc = new StringBuilder();
                for (int j = 0; j < keys.size(); j++) {
                    desc.append(j == 0 ? "" : ", ").append(keys.get(j)).append('=').append(key.get(j));
                }
                messages.add(KeyPath.element(path, i) + ": Duplicate value: " + desc + " (same key as "
                        + KeyPath.element(path, first) + "; x-kubernetes-list-type: map)");
            }
        }
    }

    private static String child(String path, String key) {
        return KeyPath.child(path, key);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // Messages

    private static List<String> checkObjectMetaName(Map<String, ?> object) {
        Object metadata = object.get("metadata");
        Map<String, Object> meta = map(metadata);
        if (!(meta.get("name") instanceof String n && !n.isEmpty())
                && !(meta.get("generateName") instanceof String g && !g.isEmpty())) {
            return List.of("metadata.name: Required value: name or generateName is required");
        }
        return List.of();
    }

    private static String format(Error error, JsonNode instance) {
        String path = dottedPath(error.getInstanceLocation(), instance);
        String keyword = error.getKeyword();
        String property = error.getProperty();
        if ("additionalProperties".equals(keyword) && property != null) {
            return child(path, property) + ": unknown field \"" + property + "\" (strict field validation: not in"
                    + " the CRD schema)";
        }
        if ("required".equals(keyword) && property != null) {
            return child(path, property) + ": Required value";
        }
        if ("propertyNames".equals(keyword) && property != null) {
            return child(path, property) + ": Invalid key \"" + property + "\": " + stripLocation(error);
        }
        if ("type".equals(keyword)) {
            JsonNode node = error.getInstanceNode();
            return (path.isEmpty() ? "<root>" : path) + ": Invalid value: " + node + ": must be of type "
                    + expectedTypes(error.getSchemaNode()) + ", not " + jsonType(node);
        }
        JsonNode node = error.getInstanceNode();
        String value = node != null && node.isValueNode() ? "Invalid value: " + node + ": " : "";
        return (path.isEmpty() ? "<root>" : path) + ": " + value + stripLocation(error);
    }

    private static String expectedTypes(JsonNode schemaNode) {
        JsonNode t = schemaNode == null ? null : schemaNode.get("type");
        if (t == null) {
            t = schemaNode;
        }
        if (t != null && t.isArray()) {
            List<String> types = new ArrayList<>();
            t.forEach(n -> types.add(n.asString()));
            return String.join(" or ", types);
        }
        return t == null ? "?" : t.asString();
    }

    private static String jsonType(JsonNode node) {
        if (node == null || node.isNull()) {
            return "null";
        }
        if (node.isIntegralNumber()) {
            return "integer";
        }
        if (node.isNumber()) {
            return "number";
        }
        if (node.isString()) {
            return "string";
        }
        if (node.isBoolean()) {
            return "boolean";
        }
        return node.isArray() ? "array" : "object";
    }

    private static String stripLocation(Error error) {
        String msg = error.getMessage();
        String loc = error.getInstanceLocation() == null ? null : error.getInstanceLocation().toString();
        if (loc != null && msg.startsWith(loc + ": ")) {
            msg = msg.substring(loc.length() + 2);
        }
        return msg;
    }

    /** JSON pointer-like node path → spec.endpoints[0].port, metadata.labels[app.kubernetes.io/name]. */
    private static String dottedPath(NodePath location, JsonNode root) {
        if (location == null) {
            return "";
        }
        String path = "";
        JsonNode node = root;
        for (int i = 0; i < location.getNameCount(); i++) {
            Object element = location.getElement(i);
            if (element instanceof Integer index && node != null && node.isArray()) {
                path = KeyPath.element(path, index);
                node = node.get(index);
            } else {
                String key = String.valueOf(element);
                path = child(path, key);
                node = node == null ? null : node.get(key);
            }
        }
        return path;
    }
}
