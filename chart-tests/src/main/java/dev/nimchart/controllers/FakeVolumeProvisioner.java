package dev.nimchart.controllers;

import dev.nimchart.KubeObject;
import dev.nimchart.cluster.KubeApi;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Storage for the tier's claims, the way a CSI external provisioner gives it: StorageClasses of the provisioner
 * {@value #PROVISIONER} bind on first consumer, so the scheduler picks a node for the claim's pod and marks the claim
 * ({@code volume.kubernetes.io/selected-node}); this loop then creates a PersistentVolume for exactly that claim, and
 * kube-controller-manager's binder binds them. The volumes hold nothing (no container runs).
 */
public final class FakeVolumeProvisioner implements AutoCloseable {

    public static final String PROVISIONER = "nim-chart-tests.dev/fake";
    public static final String DEFAULT_CLASS = "standard";
    static final String SELECTED_NODE = "volume.kubernetes.io/selected-node";

    private final KubeApi api;
    private final Set<String> provisioned = ConcurrentHashMap.newKeySet();
    private final Thread loop;
    private volatile boolean running = true;
    private volatile RuntimeException failure;

    private FakeVolumeProvisioner(KubeApi api) {
        this.api = api;
        this.loop = new Thread(this::run, "fake-volume-provisioner");
        this.loop.setDaemon(true);
    }

    /** Creates the default StorageClass and starts provisioning. */
    static FakeVolumeProvisioner start(KubeApi api) {
        ensureClass(api, DEFAULT_CLASS, true);
        FakeVolumeProvisioner provisioner = new FakeVolumeProvisioner(api);
        provisioner.loop.start();
        return provisioner;
    }

    /** A StorageClass of this name served by the fake provisioner, unless one exists (a cluster has the classes its users name). */
    public static void ensureClass(KubeApi api, String name, boolean isDefault) {
        if (api.get("/apis/storage.k8s.io/v1/storageclasses/" + name).ok()) {
            return;
        }
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", name);
        if (isDefault) {
            metadata.put("annotations", Map.of("storageclass.kubernetes.io/is-default-class", "true"));
        }
        KubeApi.Response r = api.post("/apis/storage.k8s.io/v1/storageclasses?fieldValidation=Strict", Map.of(
                "apiVersion", "storage.k8s.io/v1", "kind", "StorageClass", "metadata", metadata,
                "provisioner", PROVISIONER, "volumeBindingMode", "WaitForFirstConsumer", "reclaimPolicy", "Delete"));
        if (!r.ok() && r.code() != 409) {
            throw new ControllerTierException("cannot create the StorageClass " + name + ": " + r.message());
        }
    }

    /** A pre-provisioned volume an administrator made: class "" (no provisioning), for claims that name no class. */
    public static void createStaticVolume(KubeApi api, String name, String size, List<String> accessModes, Map<String, String> labels) {
        KubeApi.require(api.post("/api/v1/persistentvolumes?fieldValidation=Strict", Map.of(
                "apiVersion", "v1", "kind", "PersistentVolume",
                "metadata", Map.of("name", name, "labels", labels),
                "spec", Map.of("capacity", Map.of("storage", size), "accessModes", accessModes, "storageClassName", "",
                        "persistentVolumeReclaimPolicy", "Retain", "hostPath", Map.of("path", "/var/lib/nim-chart-tests/" + name)))),
                "create the static PersistentVolume " + name);
    }

    /** Fails when the loop has stopped on an error. */
    public void requireRunning() {
        if (failure != null) {
            throw new ControllerTierException("the fake volume provisioner stopped: " + failure.getMessage(), failure);
        }
    }

    private void run() {
        while (running) {
            try {
                provisionPending();
            } catch (RuntimeException e) {
                if (running) {
                    failure = e;
                }
                return;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    @SuppressWarnings("unchecked")
    private void provisionPending() {
        KubeApi.Response list = api.get("/api/v1/persistentvolumeclaims");
        if (!list.ok()) {
            return;
        }
        for (Object item : (List<Object>) list.body().getOrDefault("items", List.of())) {
            KubeObject claim = new KubeObject((Map<String, Object>) item);
            String key = claim.namespace() + "/" + claim.name() + "/" + claim.at("metadata.uid");
            if (!"Pending".equals(claim.at("status.phase")) || claim.at("spec.volumeName") != null
                    || claim.annotations().get(SELECTED_NODE) == null || provisioned.contains(key)) {
                continue;
            }
            Object className = claim.at("spec.storageClassName");
            KubeApi.Response storageClass = api.get("/apis/storage.k8s.io/v1/storageclasses/" + className);
            if (!storageClass.ok() || !PROVISIONER.equals(storageClass.body().get("provisioner"))) {
                continue;
            }
            String pvName = "pvc-" + claim.at("metadata.uid");
            Map<String, Object> spec = new LinkedHashMap<>();
            spec.put("capacity", Map.of("storage", claim.at("spec.resources.requests.storage")));
            spec.put("accessModes", claim.at("spec.accessModes"));
            spec.put("storageClassName", className);
            spec.put("persistentVolumeReclaimPolicy", "Delete");
            spec.put("claimRef", Map.of("apiVersion", "v1", "kind", "PersistentVolumeClaim", "namespace", claim.namespace(),
                    "name", claim.name(), "uid", claim.at("metadata.uid")));
            spec.put("hostPath", Map.of("path", "/var/lib/nim-chart-tests/" + pvName));
            KubeApi.Response created = api.post("/api/v1/persistentvolumes", Map.of("apiVersion", "v1", "kind", "PersistentVolume",
                    "metadata", Map.of("name", pvName, "annotations", Map.of("pv.kubernetes.io/provisioned-by", PROVISIONER)),
                    "spec", spec));
            if (created.ok() || created.code() == 409) {
                provisioned.add(key);
            }
        }
    }

    @Override
    public void close() {
        running = false;
        loop.interrupt();
    }
}
