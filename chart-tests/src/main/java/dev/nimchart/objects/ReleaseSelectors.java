package dev.nimchart.objects;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every label selector of a rendered release against every pod template of the release: a workload's selector takes in
 * its own pods only (a Deployment or StatefulSet whose selector also matches another object's pods counts them as its
 * own: it deletes or adopts them, and its rollout waits on them), and a Service, PodDisruptionBudget or InferencePool
 * selects the pods of one kind of object at most (its endpoints, its budget or its pool would otherwise mix, say, a
 * StatefulSet's model pods with a Deployment's endpoint picker; several objects of one kind are one workload split in
 * parts, such as an MPIJob per replica, and two Deployments that select each other's pods are caught by the rule of
 * workloads). NetworkPolicies are left out: a policy may rightly apply to several workloads.
 *
 * <p>Pod labels are the templates' own: labels a controller adds at run time (a LeaderWorkerSet's worker index, an
 * MPIJob's replica index, a Job's controller-uid) are not known here, so a selector on them matches no template and is
 * not judged.
 */
public final class ReleaseSelectors {

    private ReleaseSelectors() {
    }

    /** What selects what it should not, one line each (empty when every selector keeps to its own pods). */
    public static List<String> problems(RenderedManifest manifest) {
        List<Template> templates = new ArrayList<>();
        for (EmbeddedPods p : EmbeddedPods.in(manifest)) {
            templates.add(new Template(p.owner(), p.path(), p.pod().labels()));
        }
        List<String> out = new ArrayList<>();
        for (KubeObject o : manifest.objects()) {
            String kind = String.valueOf(o.kind());
            Object selector = switch (kind) {
                case "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "PodDisruptionBudget" -> o.at("spec.selector");
                case "Service" -> o.at("spec.selector") == null ? null : Map.of("matchLabels", o.at("spec.selector"));
                case "InferencePool" -> o.at("spec.selector.matchLabels") != null ? o.at("spec.selector")
                        : o.at("spec.selector") == null ? null : Map.of("matchLabels", o.at("spec.selector"));
                default -> null;
            };
            if (!(selector instanceof Map<?, ?> s) || s.isEmpty()) {
                continue;
            }
            Set<String> owners = new LinkedHashSet<>();
            Set<String> kinds = new LinkedHashSet<>();
            for (Template t : templates) {
                if (matches(s, t.labels())) {
                    if (isWorkload(kind) && t.owner() != o) {
                        out.add(kind + " " + o.name() + " selects the pods of " + t.owner().kind() + " " + t.owner().name()
                                + " (" + t.path() + ", labels " + t.labels() + ") as its own, by " + s);
                    }
                    owners.add(t.owner().kind() + " " + t.owner().name());
                    kinds.add(String.valueOf(t.owner().kind()));
                }
            }
            if (!isWorkload(kind) && kinds.size() > 1) {
                out.add(kind + " " + o.name() + " selects the pods of " + owners.size() + " objects, " + String.join(", ", owners)
                        + ", by " + s);
            }
        }
        return out;
    }

    private static boolean isWorkload(String kind) {
        return List.of("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet").contains(kind);
    }

    /** A LabelSelector ({@code matchLabels} and {@code matchExpressions}) against labels. */
    public static boolean matches(Map<?, ?> selector, Map<String, Object> labels) {
        if (selector.get("matchLabels") instanceof Map<?, ?> ml) {
            for (Map.Entry<?, ?> e : ml.entrySet()) {
                if (!String.valueOf(e.getValue()).equals(String.valueOf(labels.get(String.valueOf(e.getKey()))))
                        || !labels.containsKey(String.valueOf(e.getKey()))) {
                    return false;
                }
            }
        }
        if (selector.get("matchExpressions") instanceof List<?> expressions) {
            for (Object x : expressions) {
                Map<?, ?> m = (Map<?, ?>) x;
                String key = String.valueOf(m.get("key"));
                List<String> values = m.get("values") instanceof List<?> v ? v.stream().map(String::valueOf).toList() : List.of();
                boolean has = labels.containsKey(key);
                String value = has ? String.valueOf(labels.get(key)) : null;
                boolean ok = switch (String.valueOf(m.get("operator"))) {
                    case "In" -> has && values.contains(value);
                    case "NotIn" -> !has || !values.contains(value);
                    case "Exists" -> has;
                    case "DoesNotExist" -> !has;
                    default -> false;
                };
                if (!ok) {
                    return false;
                }
            }
        }
        return true;
    }

    private record Template(KubeObject owner, String path, Map<String, Object> labels) {
    }
}
