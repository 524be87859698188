package dev.nimchart.cluster;

import dev.nimchart.objects.KubeObject;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * What a test namespace holds that the release (or a failed install) is answerable for. Left out: what every
 * namespace gets on a full cluster such as K3s (the default ServiceAccount, the kube-root-ca.crt ConfigMap), objects
 * controllers made and own (Pods, ReplicaSets, EndpointSlices: they carry ownerReferences), and the claims the
 * StatefulSet controller makes from volumeClaimTemplates (kept or deleted by the chart's retention policy, not by Helm),
 * and the Endpoints the endpoints controller keeps for each Service (named as the Service, with no owner).
 * The local control plane runs no controllers, so there it is simply every object.
 */
public final class NamespaceContents {

    private static final Set<String> NAMESPACE_DEFAULTS = Set.of("ConfigMap/kube-root-ca.crt", "ServiceAccount/default");
    private static final long SETTLE_TIMEOUT_MS = 60_000;

    private NamespaceContents() {
    }

    /** "Kind/name" of every object the release is answerable for. */
    public static Set<String> of(KubeApi api, String namespace) {
        Set<String> names = new TreeSet<>();
        java.util.List<KubeObject> objects = api.objectsIn(namespace);
        Set<String> services = new TreeSet<>();
        objects.stream().filter(o -> o.kind().equals("Service")).forEach(o -> services.add(o.name()));
        for (KubeObject o : objects) {
            if (!NAMESPACE_DEFAULTS.contains(o.toString()) && o.list("metadata.ownerReferences").isEmpty()
                    && !isStatefulSetClaim(o) && !(o.kind().equals("Endpoints") && services.contains(o.name()))) {
                names.add(o.toString());
            }
        }
        return names;
    }

    /**
     * The contents once they satisfy the condition, polling for up to a minute: a full cluster deletes owned objects
     * in the background. Returns the last contents seen, whether they satisfy it or not.
     */
    public static Set<String> settled(KubeApi api, String namespace, Predicate<Set<String>> condition) {
        return Poll.upTo(java.time.Duration.ofMillis(SETTLE_TIMEOUT_MS)).every(500).until(() -> of(api, namespace), condition).last();
    }

    private static boolean isStatefulSetClaim(KubeObject o) {
        // Helm's objects carry the chart's managed-by label; claims from a claim template carry only selector labels.
        return o.kind().equals("PersistentVolumeClaim") && o.labels().get("app.kubernetes.io/managed-by") == null;
    }
}
