package dev.nimchart.lint;

import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A rendered manifest as policy engines can judge it. Linters such as kube-score and checkov know the built-in
 * workload kinds and skip custom resources, so the pods of a LeaderWorkerSet, an MPIJob or any other resource that wraps
 * a pod template would go unseen: every pod template found inside an object of another kind (at any depth: a map
 * holding {@code spec.containers}) becomes a Pod of its own, named {@code <object>-<template key>} (with its parent key
 * when that key is {@code template}: {@code <mpijob>-launcher-template}) and carrying the
 * template's labels and annotations, in place of the object that wrapped it. Built-in objects stay as they are (so
 * checks that relate objects, such as a Service or NetworkPolicy selecting pods, still see them), each given the
 * release namespace.
 */
public final class UnwrappedPods {

    /** Kinds the policy engines judge themselves, with their pod templates. */
    static final Set<String> BUILT_IN = Set.of("Pod", "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "CronJob",
            "ReplicationController", "Service", "NetworkPolicy", "PodDisruptionBudget", "HorizontalPodAutoscaler", "Ingress",
            "ConfigMap", "Secret", "ServiceAccount", "PersistentVolumeClaim", "Role", "RoleBinding", "ClusterRole",
            "ClusterRoleBinding", "Namespace", "LimitRange", "ResourceQuota", "PriorityClass");
    /** Annotation on an unwrapped Pod: the object and the path of the template it came from. */
    public static final String FROM = "nimchart.dev/unwrapped-from";

    private UnwrappedPods() {
    }

    /** The objects of a manifest with every wrapped pod template as a Pod, all in {@code namespace}. */
    public static List<Map<String, Object>> of(RenderedManifest manifest, String namespace) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (KubeObject o : manifest.objects()) {
            if (BUILT_IN.contains(o.kind())) {
                out.add(inNamespace(o.raw(), namespace));
            } else {
                List<Map<String, Object>> pods = new ArrayList<>();
                collect(o, o.raw().get("spec"), "spec", namespace, pods);
                if (pods.isEmpty()) {
                    out.add(inNamespace(o.raw(), namespace));
                }
                out.addAll(pods);
            }
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static void collect(KubeObject owner, Object node, String path, String namespace, List<Map<String, Object>> pods) {
        if (node instanceof Map<?, ?> map) {
            if (map.get("spec") instanceof Map<?, ?> spec && spec.get("containers") instanceof List<?>) {
                pods.add(pod(owner, (Map<String, Object>) map, path, namespace));
                return;
            }
            map.forEach((k, v) -> collect(owner, v, path + "." + k, namespace, pods));
        } else if (node instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                collect(owner, list.get(i), path + "[" + i + "]", namespace, pods);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> pod(KubeObject owner, Map<String, Object> template, String path, String namespace) {
        Map<String, Object> meta = template.get("metadata") instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
        // The template's key, with its parent's when the key alone says nothing (MPIJob: Launcher.template, Worker.template).
        String[] keys = path.split("\\.");
        String last = keys[keys.length - 1];
        String named = last.equals("template") && keys.length > 1 ? keys[keys.length - 2] + "-" + last : last;
        String key = named.replaceAll("[^A-Za-z0-9]+", "-").toLowerCase();
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", owner.name() + "-" + key);
        metadata.put("namespace", namespace);
        if (meta.get("labels") instanceof Map<?, ?> labels) {
            metadata.put("labels", labels);
        }
        Map<String, Object> annotations = new LinkedHashMap<>();
        if (meta.get("annotations") instanceof Map<?, ?> a) {
            annotations.putAll((Map<String, Object>) a);
        }
        annotations.put(FROM, owner.kind() + "/" + owner.name() + " " + path);
        metadata.put("annotations", annotations);
        return KubeObject.pod(metadata, template.get("spec"), null).raw();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> inNamespace(Map<String, Object> raw, String namespace) {
        Map<String, Object> copy = new LinkedHashMap<>(raw);
        Map<String, Object> metadata = new LinkedHashMap<>(raw.get("metadata") instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of());
        metadata.putIfAbsent("namespace", namespace);
        copy.put("metadata", metadata);
        return copy;
    }
}
