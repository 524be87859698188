package dev.nimchart.objects;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/** One Kubernetes object of a rendered manifest, as the plain maps and lists YAML gave. */
public final class KubeObject {

    private final Map<String, Object> raw;

    public KubeObject(Map<String, Object> raw) {
        this.raw = Collections.unmodifiableMap(raw);
    }

    /**
     * A v1 Pod of this metadata and spec, and this status unless null: the object a controller creates from a pod
     * template (what the metadata and spec hold is the caller's).
     */
    public static KubeObject pod(Map<String, Object> metadata, Object spec, Map<String, Object> status) {
        Map<String, Object> pod = new java.util.LinkedHashMap<>();
        pod.put("apiVersion", "v1");
        pod.put("kind", "Pod");
        pod.put("metadata", metadata);
        pod.put("spec", spec);
        if (status != null) {
            pod.put("status", status);
        }
        return new KubeObject(pod);
    }

    public String kind() {
        return string(raw.get("kind"));
    }

    public String apiVersion() {
        return string(raw.get("apiVersion"));
    }

    public String name() {
        return string(at("metadata.name"));
    }

    /** The namespace, or null when the manifest does not set one. */
    public String namespace() {
        return string(at("metadata.namespace"));
    }

    /** metadata.labels, empty when absent. */
    public Map<String, Object> labels() {
        return mapAt("metadata.labels");
    }

    /** The value of the label {@code key} as text, or null when the object has no such label. */
    public String label(String key) {
        Object value = labels().get(key);
        return value == null ? null : value.toString();
    }

    /** metadata.annotations, empty when absent. */
    public Map<String, Object> annotations() {
        return mapAt("metadata.annotations");
    }

    /** The whole object (unmodifiable at the top level). */
    public Map<String, Object> raw() {
        return raw;
    }

    /**
     * The value at a dotted path such as {@code spec.template.spec.containers[0].resources.limits[nvidia.com/gpu]},
     * or null when any part of it is absent.
     */
    public Object at(String path) {
        Object node = raw;
        for (String segment : KeyPath.segments(path)) {
            if (node instanceof Map<?, ?> map) {
                node = map.get(segment);
            } else if (node instanceof List<?> list && segment.matches("\\d+")) {
                int index = Integer.parseInt(segment);
                node = index < list.size() ? list.get(index) : null;
            } else {
                return null;
            }
        }
        return node;
    }

    /** The list of objects at a path (containers, env, volumes, ...), empty when absent. */
    @SuppressWarnings("unchecked")
    public List<KubeObject> list(String path) {
        Object value = at(path);
        if (!(value instanceof List<?> items)) {
            return List.of();
        }
        return items.stream().map(i -> new KubeObject((Map<String, Object>) i)).toList();
    }

    /** The object as JSON, as the Kubernetes API would receive it. */
    public String toJson() {
        return JsonMapper.shared().writeValueAsString(raw);
    }

    /** "Kind/name". */
    @Override
    public String toString() {
        return kind() + "/" + name();
    }

    /** A scalar as text even when the YAML made it a number, so that a mistyped name still names its object. */
    private static String string(Object value) {
        return value == null ? null : value.toString();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> mapAt(String path) {
        Object value = at(path);
        return value instanceof Map ? Collections.unmodifiableMap((Map<String, Object>) value) : Map.of();
    }
}
