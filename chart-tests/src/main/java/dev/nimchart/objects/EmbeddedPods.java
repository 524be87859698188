package dev.nimchart.objects;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every pod template inside a rendered object, whatever kind wraps it (a Deployment, a StatefulSet, a
 * LeaderWorkerSet's leader and worker templates, an MPIJob's replica specs, a RayCluster's groups, any custom resource):
 * each map under the object whose {@code spec} holds a {@code containers} list is a PodTemplateSpec. Each becomes the
 * Pod its controller would create, so the API server can judge it: the API server validates the pod template of a
 * built-in workload, but never the one a custom resource carries, where a mistake shows only as pods that never appear.
 *
 * <p>The Pod adds what controllers add and leaves out what only other objects of a cluster resolve: a claim volume per
 * {@code volumeClaimTemplates} entry of the owner (StatefulSet, LeaderWorkerSet), no {@code priorityClassName} or
 * {@code runtimeClassName} (admission looks those up; an empty test cluster has none).
 *
 * @param owner the object that holds the template
 * @param path  where in the owner the template is ({@code spec.leaderWorkerTemplate.workerTemplate})
 * @param pod   the Pod, ready for a server-side dry-run create
 */
public record EmbeddedPods(KubeObject owner, String path, KubeObject pod) {

    /** The pods of every pod template of every object of the manifest, in document order. */
    public static List<EmbeddedPods> in(RenderedManifest manifest) {
        List<EmbeddedPods> out = new ArrayList<>();
        for (KubeObject o : manifest.objects()) {
            out.addAll(of(o));
        }
        return out;
    }

    /** The pods of every pod template of the object, in document order; none for an object without one. */
    public static List<EmbeddedPods> of(KubeObject owner) {
        List<EmbeddedPods> out = new ArrayList<>();
        List<Object> claims = claimTemplates(owner.raw());
        walk(owner, "", owner.raw(), claims, out);
        return out;
    }

    @SuppressWarnings("unchecked")
    private static void walk(KubeObject owner, String path, Object node, List<Object> claims, List<EmbeddedPods> out) {
        if (node instanceof Map<?, ?> m) {
            if (!path.isEmpty() && m.get("spec") instanceof Map<?, ?> spec && spec.get("containers") instanceof List<?>) {
                out.add(new EmbeddedPods(owner, path, pod(owner, out.size(), (Map<String, Object>) m, claims)));
                return;
            }
            m.forEach((k, v) -> walk(owner, path.isEmpty() ? String.valueOf(k) : path + "." + k, v, claims, out));
        } else if (node instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                walk(owner, path + "[" + i + "]", list.get(i), claims, out);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static KubeObject pod(KubeObject owner, int index, Map<String, Object> template, List<Object> claims) {
        Map<String, Object> templateMeta = template.get("metadata") instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", "template-" + index);
        if (templateMeta.get("labels") instanceof Map<?, ?> labels) {
            metadata.put("labels", labels);
        }
        if (templateMeta.get("annotations") instanceof Map<?, ?> annotations) {
            metadata.put("annotations", annotations);
        }
        Map<String, Object> spec = new LinkedHashMap<>((Map<String, Object>) template.get("spec"));
        spec.remove("priorityClassName");
        spec.remove("runtimeClassName");
        if (!claims.isEmpty()) {
            List<Object> volumes = new ArrayList<>((List<Object>) spec.getOrDefault("volumes", List.of()));
            for (Object claim : claims) {
                String name = String.valueOf(new KubeObject((Map<String, Object>) claim).at("metadata.name"));
                volumes.add(Map.of("name", name, "persistentVolumeClaim", Map.of("claimName", name + "-" + owner.name() + "-0")));
            }
            spec.put("volumes", volumes);
        }
        return KubeObject.pod(metadata, spec, null);
    }

    /** The owner's volumeClaimTemplates (spec.volumeClaimTemplates, or spec.leaderWorkerTemplate.volumeClaimTemplates). */
    private static List<Object> claimTemplates(Map<String, Object> owner) {
        KubeObject o = new KubeObject(owner);
        for (String path : List.of("spec.volumeClaimTemplates", "spec.leaderWorkerTemplate.volumeClaimTemplates")) {
            if (o.at(path) instanceof List<?> list && !list.isEmpty()) {
                return List.copyOf(list);
            }
        }
        return List.of();
    }

    @Override
    public String toString() {
        return path;
    }
}
