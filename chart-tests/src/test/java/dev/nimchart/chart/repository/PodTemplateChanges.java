package dev.nimchart.chart.repository;

import dev.nimchart.objects.EmbeddedPods;
import dev.nimchart.objects.RenderedManifest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * How the pod templates of two renders of a release differ, field by field: for each workload ("Kind/name"; an MPIJob
 * or a Job whose name carries a hash of its spec, as the cache pre-fill Job's does, is paired with the one of its kind
 * in the other render) the paths inside each of its pod
 * templates whose values differ, list elements named by their {@code name} where they have one
 * ({@code spec.containers[nim].env[NIM_CACHE_PATH].value}), else by their index. A template only one render has is the
 * path {@code (added)} or {@code (removed)}. A controller replaces a workload's pods exactly when one of these differs.
 */
public final class PodTemplateChanges {

    private PodTemplateChanges() {
    }

    /** Workload (and template path) to the paths that differ; empty when every pod template is the same. */
    public static Map<String, List<String>> between(RenderedManifest before, RenderedManifest after) {
        Map<String, Object> old = templates(before);
        Map<String, Object> now = templates(after);
        pairSingleHashNamed(old, now, "MPIJob/");
        pairSingleHashNamed(old, now, "Job/");
        Map<String, List<String>> changes = new TreeMap<>();
        for (String key : new TreeSet<>(union(old.keySet(), now.keySet()))) {
            List<String> paths = new ArrayList<>();
            if (!old.containsKey(key)) {
                paths.add("(added)");
            } else if (!now.containsKey(key)) {
                paths.add("(removed)");
            } else {
                diff("", old.get(key), now.get(key), paths);
            }
            if (!paths.isEmpty()) {
                changes.put(key, paths);
            }
        }
        return changes;
    }

    /** "Kind/name template-path" to the raw pod template, for every object with pod templates. */
    private static Map<String, Object> templates(RenderedManifest manifest) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (EmbeddedPods t : EmbeddedPods.in(manifest)) {
            out.put(t.owner().kind() + "/" + t.owner().name() + " " + t.path(), t.owner().at(t.path()));
        }
        return out;
    }

    /** An MPIJob's (or pre-fill Job's) name changes with its spec: the one of that kind in each render is the same workload. */
    private static void pairSingleHashNamed(Map<String, Object> old, Map<String, Object> now, String prefix) {
        List<String> oldNames = old.keySet().stream().filter(k -> k.startsWith(prefix)).map(k -> k.substring(0, k.indexOf(' '))).distinct().toList();
        List<String> newNames = now.keySet().stream().filter(k -> k.startsWith(prefix)).map(k -> k.substring(0, k.indexOf(' '))).distinct().toList();
        if (oldNames.size() == 1 && newNames.size() == 1 && !oldNames.equals(newNames)) {
            for (String key : List.copyOf(old.keySet())) {
                if (key.startsWith(oldNames.get(0) + " ")) {
                    old.put(newNames.get(0) + key.substring(oldNames.get(0).length()), old.remove(key));
                }
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static void diff(String path, Object a, Object b, List<String> out) {
        if (a instanceof Map<?, ?> ma && b instanceof Map<?, ?> mb) {
            for (Object key : new TreeSet<>(union((java.util.Set<Object>) ma.keySet(), (java.util.Set<Object>) mb.keySet()))) {
                diff(path.isEmpty() ? String.valueOf(key) : path + "." + key, ma.get(key), mb.get(key), out);
            }
        } else if (a instanceof List<?> la && b instanceof List<?> lb && named(la) && named(lb)) {
            Map<Object, Object> na = byName(la);
            Map<Object, Object> nb = byName(lb);
            for (Object name : union(na.keySet(), nb.keySet())) {
                diff(path + "[" + name + "]", na.get(name), nb.get(name), out);
            }
            List<Object> orderBefore = na.keySet().stream().filter(nb::containsKey).toList();
            List<Object> orderAfter = nb.keySet().stream().filter(na::containsKey).toList();
            if (!orderBefore.equals(orderAfter)) {
                out.add(path + " (order)");
            }
        } else if (a instanceof List<?> la && b instanceof List<?> lb && la.size() == lb.size()) {
            for (int i = 0; i < la.size(); i++) {
                diff(path + "[" + i + "]", la.get(i), lb.get(i), out);
            }
        } else if (!Objects.equals(a, b)) {
            out.add(path);
        }
    }

    private static boolean named(List<?> list) {
        return !list.isEmpty() && list.stream().allMatch(e -> e instanceof Map<?, ?> m && m.get("name") != null);
    }

    private static Map<Object, Object> byName(List<?> list) {
        Map<Object, Object> out = new LinkedHashMap<>();
        list.forEach(e -> out.put(((Map<?, ?>) e).get("name"), e));
        return out;
    }

    private static <T> java.util.Set<T> union(java.util.Set<T> a, java.util.Set<T> b) {
        java.util.Set<T> all = new java.util.LinkedHashSet<>(a);
        all.addAll(b);
        return all;
    }
}
