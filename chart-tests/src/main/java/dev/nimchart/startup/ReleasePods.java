package dev.nimchart.startup;

import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.json.JsonMapper;

/**
 * Pods of a rendered single-node release made as their controllers would make them, for {@link PodGroupRun} without a
 * cluster: the serving pod of its StatefulSet or Deployment ({@link ServingPodRun}'s), the pod of each of its Jobs, and
 * placeholder Secrets for what they reference that the release does not render.
 */
public final class ReleasePods {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ReleasePods() {
    }

    /** The serving pod, at the start-up tier's first pod address ({@code 198.18.0.2}). */
    public static KubeObject servingPod(RenderedManifest manifest) {
        return ServingPodRun.servingPod(manifest);
    }

    /** The serving pod at another address of the tier's 198.18.0.0/17, with the name suffix {@code -N}. */
    @SuppressWarnings("unchecked")
    public static KubeObject servingPod(RenderedManifest manifest, int index, String ip) {
        Map<String, Object> pod = copy(ServingPodRun.servingPod(manifest).raw());
        Map<String, Object> metadata = (Map<String, Object>) pod.get("metadata");
        metadata.put("name", metadata.get("name") + "-" + index);
        pod.put("status", Map.of("phase", "Running", "podIP", ip));
        return new KubeObject(pod);
    }

    /** The pod the Job controller makes for the release's Job whose name starts with {@code prefix}, at {@code ip}. */
    @SuppressWarnings("unchecked")
    public static KubeObject jobPod(RenderedManifest manifest, String prefix, String ip) {
        KubeObject job = manifest.ofKind("Job").stream().filter(j -> j.name().startsWith(prefix)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("the release renders no Job named " + prefix + "*"));
        Map<String, Object> template = copy((Map<String, Object>) job.at("spec.template"));
        Map<String, Object> metadata = (Map<String, Object>) template.computeIfAbsent("metadata", k -> new LinkedHashMap<>());
        metadata.put("name", job.name() + "-standin");
        metadata.put("namespace", job.namespace() != null ? job.namespace() : "default");
        return KubeObject.pod(metadata, template.get("spec"), Map.of("phase", "Running", "podIP", ip));
    }

    /**
     * A Secret with a placeholder value ({@code placeholder-KEY}) for every secretKeyRef of the pods' containers and
     * init containers that the release does not render and {@code given} does not hold.
     */
    @SuppressWarnings("unchecked")
    public static List<KubeObject> placeholderSecrets(RenderedManifest manifest, List<KubeObject> pods, List<KubeObject> given) {
        Map<String, Map<String, Object>> secrets = new TreeMap<>();
        String namespace = pods.get(0).namespace();
        for (KubeObject pod : pods) {
            List<KubeObject> containers = new ArrayList<>(pod.list("spec.containers"));
            containers.addAll(pod.list("spec.initContainers"));
            for (KubeObject container : containers) {
                for (KubeObject e : container.list("env")) {
                    Object name = e.at("valueFrom.secretKeyRef.name");
                    if (name == null || manifest.find("Secret", name.toString()).isPresent()
                            || given.stream().anyMatch(g -> g.kind().equals("Secret") && g.name().equals(name.toString()))) {
                        continue;
                    }
                    Map<String, Object> data = secrets.computeIfAbsent(name.toString(), n -> new LinkedHashMap<>());
                    String key = e.at("valueFrom.secretKeyRef.key").toString();
                    data.put(key, Base64.getEncoder().encodeToString(("placeholder-" + key).getBytes(StandardCharsets.UTF_8)));
                }
            }
        }
        List<KubeObject> out = new ArrayList<>();
        secrets.forEach((name, data) -> out.add(new KubeObject(Map.of("apiVersion", "v1", "kind", "Secret",
                "metadata", Map.of("name", name, "namespace", namespace), "data", data))));
        return out;
    }

    /** A Secret with the given string values. */
    public static KubeObject secret(String namespace, String name, Map<String, String> values) {
        Map<String, Object> data = new LinkedHashMap<>();
        values.forEach((k, v) -> data.put(k, Base64.getEncoder().encodeToString(v.getBytes(StandardCharsets.UTF_8))));
        return new KubeObject(Map.of("apiVersion", "v1", "kind", "Secret", "metadata", Map.of("name", name, "namespace", namespace), "data", data));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> copy(Map<String, Object> map) {
        return JSON.readValue(JSON.writeValueAsString(map), Map.class);
    }
}
