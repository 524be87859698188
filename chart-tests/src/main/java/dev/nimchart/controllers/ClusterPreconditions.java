package dev.nimchart.controllers;

import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.PodTemplate;
import dev.nimchart.cluster.KubeApi;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a cluster administrator provides before a release of these objects can run, read from the rendered objects
 * alone: the StorageClasses their claims name, a PersistentVolume for every claim they will make (shaped by the claim:
 * class, size, access modes; not bound to it, so kube-scheduler and the PV binder do the matching for real), and the
 * claims pods mount that the release does not create (an existing claim), and the PriorityClasses and RuntimeClasses
 * pods name. Volumes are pre-provisioned (no provisioner runs): a class that shared (ReadWriteMany) claims name binds
 * at once, as NFS-like storage does, so a claim is Bound before its pods exist; a class only single-pod claims name
 * binds on first consumer, as block storage does, so the scheduler binds each StatefulSet claim as it places its
 * pod. The default class {@value #DEFAULT_CLASS} is shared storage. Everything made for a namespace carries the label
 * {@value #LABEL}, for cleanup.
 */
public final class ClusterPreconditions {

    public static final String LABEL = "nim-chart-tests/for-namespace";
    public static final String DEFAULT_CLASS = "standard";
    static final String EXISTING_CLAIM_SIZE = "1Ti";

    private ClusterPreconditions() {
    }

    /** The cluster's default StorageClass. */
    static void createDefaultClass(KubeApi api) {
        ensureClass(api, DEFAULT_CLASS, true, true);
    }

    /**
     * Creates what is missing; returns a line per object created. Called again for an upgrade's objects, it adds
     * volumes for the claims those will make (spares are harmless: unbound volumes bind nothing).
     */
    public static List<String> prepare(KubeApi api, String namespace, List<KubeObject> rendered) {
        List<String> made = new ArrayList<>();
        Set<String> releaseClaims = new LinkedHashSet<>();
        List<KubeObject> claims = claimsOf(rendered, releaseClaims);
        List<Map<String, Object>> existingClaims = new ArrayList<>();
        for (String claimName : mountedClaims(rendered)) {
            if (!releaseClaims.contains(claimName)) {
                Map<String, Object> existing = Map.of("apiVersion", "v1", "kind", "PersistentVolumeClaim",
                        "metadata", Map.of("name", claimName, "labels", Map.of(LABEL, namespace)),
                        "spec", Map.of("accessModes", List.of("ReadWriteMany"),
                                "resources", Map.of("requests", Map.of("storage", EXISTING_CLAIM_SIZE))));
                existingClaims.add(existing);
                claims.add(new KubeObject(existing));
            }
        }
        for (KubeObject o : rendered) {
            for (PodTemplate t : PodTemplate.of(o)) {
                Object priority = t.pod().at("spec.priorityClassName");
                if (priority != null && created(api, "/apis/scheduling.k8s.io/v1/priorityclasses", Map.of("apiVersion", "scheduling.k8s.io/v1",
                        "kind", "PriorityClass", "metadata", Map.of("name", priority), "value", 1000))) {
                    made.add("PriorityClass/" + priority);
                }
                Object runtime = t.pod().at("spec.runtimeClassName");
                if (runtime != null && created(api, "/apis/node.k8s.io/v1/runtimeclasses", Map.of("apiVersion", "node.k8s.io/v1",
                        "kind", "RuntimeClass", "metadata", Map.of("name", runtime), "handler", runtime))) {
                    made.add("RuntimeClass/" + runtime);
                }
            }
        }
        Set<String> classes = new LinkedHashSet<>();
        Set<String> sharedClasses = new LinkedHashSet<>();
        for (KubeObject claim : claims) {
            classes.add(className(claim));
            if (!List.of("ReadWriteOnce", "ReadWriteOncePod").containsAll((List<?>) claim.at("spec.accessModes"))) {
                sharedClasses.add(className(claim));
            }
        }
        classes.stream().filter(c -> !c.isEmpty()).forEach(c -> ensureClass(api, c, false, sharedClasses.contains(c)));
        List<String> volumes = new ArrayList<>();
        for (KubeObject claim : claims) {
            String className = className(claim);
            String name = "pv-" + namespace + "-";
            @SuppressWarnings("unchecked")
            List<String> modes = (List<String>) claim.at("spec.accessModes");
            Map<String, Object> spec = new LinkedHashMap<>();
            spec.put("capacity", Map.of("storage", claim.at("spec.resources.requests.storage").toString()));
            spec.put("accessModes", modes);
            spec.put("storageClassName", className);
            spec.put("persistentVolumeReclaimPolicy", "Retain");
            spec.put("hostPath", Map.of("path", "/var/lib/nim-chart-tests/" + namespace));
            Map<String, Object> created = KubeApi.require(api.post("/api/v1/persistentvolumes?fieldValidation=Strict", Map.of("apiVersion", "v1",
                    "kind", "PersistentVolume", "metadata", Map.of("generateName", name, "labels", Map.of(LABEL, namespace)), "spec", spec)),
                    "create a PersistentVolume for " + namespace);
            made.add("PersistentVolume/" + new KubeObject(created).name() + " (class \"" + className + "\", " + modes + ")");
            volumes.add(new KubeObject(created).name());
        }
        // The persistentvolume-controller marks a volume Available once its cache holds it; a claim it saw before that
        // would be sent to provisioning (a ProvisioningFailed warning: this class has no provisioner).
        if (!existingClaims.isEmpty()) {
            for (String volume : volumes) {
                awaitAvailable(api, volume);
            }
        }
        // After their volumes, so the binder finds one at once (an immediate claim without a volume would ask for provisioning).
        for (Map<String, Object> existing : existingClaims) {
            if (api.get("/api/v1/namespaces/" + namespace + "/persistentvolumeclaims/" + new KubeObject(existing).name()).ok()) {
                continue; // made by an earlier call for this namespace
            }
            KubeApi.require(api.post("/api/v1/namespaces/" + namespace + "/persistentvolumeclaims", existing),
                    "create the existing claim " + new KubeObject(existing).name());
            made.add("PersistentVolumeClaim/" + new KubeObject(existing).name() + " (an existing claim the pods mount)");
        }
        return made;
    }

    /**
     * On a cluster the harness may not create cluster-scoped objects on: checks that it has what the release needs (the
     * StorageClasses its claims name, or a default class, the PriorityClasses and RuntimeClasses its pods name) and
     * creates only the claims the pods mount that the release does not make (in the namespace, provisioned by the
     * cluster's default class). A missing object fails, naming each and the two ways on.
     */
    public static List<String> requireProvided(KubeApi api, String namespace, List<KubeObject> rendered) {
        List<String> missing = new ArrayList<>();
        Set<String> releaseClaims = new LinkedHashSet<>();
        Set<String> classes = new LinkedHashSet<>();
        for (KubeObject claim : claimsOf(rendered, releaseClaims)) {
            Object declared = claim.at("spec.storageClassName");
            classes.add(declared == null ? null : declared.toString());
        }
        List<String> mountedOnly = mountedClaims(rendered).stream().filter(c -> !releaseClaims.contains(c)).toList();
        if (!mountedOnly.isEmpty()) {
            classes.add(null);
        }
        for (String c : classes) {
            if (c == null) {
                if (!hasDefaultClass(api)) {
                    missing.add("a default StorageClass (a claim names no class)");
                }
            } else if (c.isEmpty()) {
                missing.add("a PersistentVolume of no class (a claim sets storageClassName \"\", which only a pre-made volume binds;"
                        + " the checks cannot tell which of the cluster's volumes it may take)");
            } else if (!api.get("/apis/storage.k8s.io/v1/storageclasses/" + c).ok()) {
                missing.add("StorageClass " + c);
            }
        }
        for (KubeObject o : rendered) {
            for (PodTemplate t : PodTemplate.of(o)) {
                Object priority = t.pod().at("spec.priorityClassName");
                if (priority != null && !api.get("/apis/scheduling.k8s.io/v1/priorityclasses/" + priority).ok()) {
                    missing.add("PriorityClass " + priority);
                }
                Object runtime = t.pod().at("spec.runtimeClassName");
                if (runtime != null && !api.get("/apis/node.k8s.io/v1/runtimeclasses/" + runtime).ok()) {
                    missing.add("RuntimeClass " + runtime);
                }
            }
        }
        if (!missing.isEmpty()) {
            throw new AssertionError("the cluster lacks what the release needs, and the checks may create no cluster-scoped object"
                    + " on it: " + String.join("; ", new LinkedHashSet<>(missing)) + ". Give the cluster these, or let the checks"
                    + " create them: cluster-scoped writes (Settings.withClusterWrites(\"cluster\"), -Dnim.cluster.writes=cluster)");
        }
        List<String> made = new ArrayList<>();
        for (String claimName : mountedOnly) {
            KubeApi.require(api.post("/api/v1/namespaces/" + namespace + "/persistentvolumeclaims", Map.of("apiVersion", "v1",
                    "kind", "PersistentVolumeClaim", "metadata", Map.of("name", claimName, "labels", Map.of(LABEL, namespace)),
                    "spec", Map.of("accessModes", List.of("ReadWriteMany"), "resources", Map.of("requests", Map.of("storage", EXISTING_CLAIM_SIZE))))),
                    "create the existing claim " + claimName);
            made.add("PersistentVolumeClaim/" + claimName + " (an existing claim the pods mount; the cluster's default class provisions it)");
        }
        return made;
    }

    @SuppressWarnings("unchecked")
    private static boolean hasDefaultClass(KubeApi api) {
        KubeApi.Response r = api.get("/apis/storage.k8s.io/v1/storageclasses");
        return r.ok() && ((List<Object>) r.body().getOrDefault("items", List.of())).stream()
                .map(c -> new KubeObject((Map<String, Object>) c))
                .anyMatch(c -> "true".equals(c.annotations().get("storageclass.kubernetes.io/is-default-class")));
    }

    /** The claims the release makes (its own and one per StatefulSet replica, plus a spare); their names go to {@code names}. */
    private static List<KubeObject> claimsOf(List<KubeObject> rendered, Set<String> names) {
        List<KubeObject> claims = new ArrayList<>();
        for (KubeObject o : rendered) {
            if (o.kind().equals("PersistentVolumeClaim")) {
                claims.add(o);
                names.add(o.name());
            }
            if (o.kind().equals("StatefulSet")) {
                int replicas = o.at("spec.replicas") == null ? 1 : Integer.parseInt(o.at("spec.replicas").toString());
                for (KubeObject template : o.list("spec.volumeClaimTemplates")) {
                    for (int i = 0; i < replicas + 1; i++) { // one spare: an upgrade may add a replica
                        claims.add(template);
                    }
                    names.add(template.name());
                }
            }
        }
        return claims;
    }

    /** Waits (at most 30 s) until the persistentvolume-controller has marked the volume Available (or bound it). */
    private static void awaitAvailable(KubeApi api, String volume) {
        dev.nimchart.cluster.Poll.upTo(java.time.Duration.ofSeconds(30)).every(100)
                .until(() -> {
                    KubeApi.Response r = api.get("/api/v1/persistentvolumes/" + volume);
                    return r.ok() ? String.valueOf(new KubeObject(r.body()).at("status.phase")) : r.message();
                }, phase -> phase.equals("Available") || phase.equals("Bound"))
                .orElseThrow(phase -> new IllegalStateException("PersistentVolume " + volume + " did not become Available within 30 s: " + phase));
    }

    /** Deletes the volumes made for this namespace (the claims go with the namespace). */
    public static void cleanUp(KubeApi api, String namespace) {
        api.delete("/api/v1/persistentvolumes?labelSelector=" + LABEL + "%3D" + namespace);
    }

    private static String className(KubeObject claim) {
        Object declared = claim.at("spec.storageClassName");
        return declared == null ? DEFAULT_CLASS : declared.toString();
    }

    /** A StorageClass of this name without a provisioner, unless one exists: immediate binding for shared storage. */
    private static void ensureClass(KubeApi api, String name, boolean isDefault, boolean shared) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", name);
        if (isDefault) {
            metadata.put("annotations", Map.of("storageclass.kubernetes.io/is-default-class", "true"));
        }
        created(api, "/apis/storage.k8s.io/v1/storageclasses", Map.of(
                "apiVersion", "storage.k8s.io/v1", "kind", "StorageClass", "metadata", metadata,
                "provisioner", "kubernetes.io/no-provisioner", "volumeBindingMode", shared ? "Immediate" : "WaitForFirstConsumer"));
    }

    /** Creates a cluster-scoped object unless one of its name exists (or appears meanwhile); whether it was created. */
    private static boolean created(KubeApi api, String collection, Map<String, Object> object) {
        @SuppressWarnings("unchecked")
        String name = ((Map<String, Object>) object.get("metadata")).get("name").toString();
        if (api.get(collection + "/" + name).ok()) {
            return false;
        }
        KubeApi.Response r = api.post(collection + "?fieldValidation=Strict", object);
        if (r.code() == 409) {
            return false;
        }
        if (!r.ok()) {
            throw new ControllerTierException("cannot create the " + object.get("kind") + " " + name + ": " + r.message());
        }
        return true;
    }

    private static Set<String> mountedClaims(List<KubeObject> rendered) {
        Set<String> names = new LinkedHashSet<>();
        for (KubeObject o : rendered) {
            for (PodTemplate t : PodTemplate.of(o)) {
                for (KubeObject volume : t.volumes()) {
                    Object claim = volume.at("persistentVolumeClaim.claimName");
                    if (claim != null) {
                        names.add(claim.toString());
                    }
                }
            }
        }
        return names;
    }
}
