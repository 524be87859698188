package dev.nimchart.chart.controllers;

import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.objects.KubeObject;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What a release must never lose, read from a namespace: its model cache claims (each with its UID and the volume it
 * is bound to; the release's and kept ones alike) and the data of its SSH key Secret (the {@code -ssh} Secret labelled
 * with the release's instance). Upgrades, rollbacks and faults are checked against it: equal before and after.
 */
public record ReleaseKeepsakes(Map<String, String> claims, Object sshKey) {

    public static ReleaseKeepsakes of(NamespaceState state) {
        return new ReleaseKeepsakes(claims(state), sshKey(state));
    }

    /**
     * Whether this (after an upgrade to a newer chart version) keeps everything {@code before} had: the same claims, and
     * every key of the SSH Secret with the same value; a key the newer version adds is allowed (1.15.0 adds
     * {@code public.key}, the public half of the kept {@code private.key}).
     */
    public boolean keeps(ReleaseKeepsakes before) {
        if (!claims.equals(before.claims)) {
            return false;
        }
        if (before.sshKey instanceof Map<?, ?> was && sshKey instanceof Map<?, ?> now) {
            return was.entrySet().stream().allMatch(e -> java.util.Objects.equals(now.get(e.getKey()), e.getValue()));
        }
        return java.util.Objects.equals(sshKey, before.sshKey);
    }

    /** Cache claims of the namespace, "name (uid U)" to the bound volume (empty while unbound). */
    public static Map<String, String> claims(NamespaceState state) {
        return state.all("PersistentVolumeClaim").stream().filter(c -> c.name().startsWith("model-store-") || c.name().endsWith("-cache"))
                .collect(Collectors.toMap(c -> c.name() + " (uid " + c.at("metadata.uid") + ")",
                        c -> c.at("spec.volumeName") == null ? "" : c.at("spec.volumeName").toString(), (a, b) -> a, TreeMap::new));
    }

    /** The data of the release's SSH key Secret, or null when it has none. */
    public static Object sshKey(NamespaceState state) {
        return state.all("Secret").stream().filter(s -> s.name().endsWith("-ssh") && s.labels().containsKey("app.kubernetes.io/instance"))
                .findFirst().map(s -> s.at("data")).orElse(null);
    }

    /** The claims a release keeps after uninstall (annotated helm.sh/resource-policy: keep), by name. */
    public static java.util.Set<String> keptClaimNames(Iterable<KubeObject> claims) {
        java.util.Set<String> kept = new java.util.TreeSet<>();
        claims.forEach(c -> {
            if ("keep".equals(c.annotations().get("helm.sh/resource-policy"))) {
                kept.add(c.name());
            }
        });
        return kept;
    }

    /**
     * The per-pod claims the release's StatefulSets keep when deleted (persistentVolumeClaimRetentionPolicy.whenDeleted
     * Retain, Kubernetes' default): "template-statefulset-ordinal" for every replica.
     */
    public static java.util.Set<String> retainedStatefulSetClaims(dev.nimchart.objects.RenderedManifest rendered) {
        java.util.Set<String> retained = new java.util.TreeSet<>();
        for (KubeObject sts : rendered.ofKind("StatefulSet")) {
            if ("Delete".equals(sts.at("spec.persistentVolumeClaimRetentionPolicy.whenDeleted"))) {
                continue;
            }
            int replicas = sts.at("spec.replicas") == null ? 1 : Integer.parseInt(sts.at("spec.replicas").toString());
            for (KubeObject template : sts.list("spec.volumeClaimTemplates")) {
                for (int i = 0; i < replicas; i++) {
                    retained.add(template.at("metadata.name") + "-" + sts.name() + "-" + i);
                }
            }
        }
        return retained;
    }
}
