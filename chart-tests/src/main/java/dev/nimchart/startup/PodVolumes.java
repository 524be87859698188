package dev.nimchart.startup;

import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.objects.KubeObject;
import io.kubernetes.client.custom.Quantity;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A pod's volumes as the kubelet prepares them and a container's mounts of them, as pod-sandbox.sh reads them:
 * ConfigMap and Secret files as the kubelet writes them (under the pod's directory), one shared directory of the run
 * per claim, hostPath or NFS volume (under {@code claims/} of the run's directory, shared by the group's pods), and
 * emptyDirs as a tmpfs of their sizeLimit.
 */
final class PodVolumes {

    private final Path workDir;

    /** Volumes of the pods of a run whose directory is {@code workDir}. */
    PodVolumes(Path workDir) {
        this.workDir = workDir;
    }

    /** Where the run's claims, hostPath and NFS volumes are (the stand-in's records are under them). */
    Path claims() {
        return workDir.resolve("claims");
    }

    /**
     * Writes the container's mounts into {@code cdir} ({@code mounts}: source, target and ro/rw a line; {@code shm}: the
     * source of its /dev/shm), preparing each mounted volume's source under the pod's directory {@code podDir}.
     */
    void writeMounts(Path cdir, NamespaceState state, KubeObject pod, KubeObject container, Path podDir, long fsGroup) throws IOException {
        StringBuilder mounts = new StringBuilder();
        Map<String, KubeObject> volumes = new LinkedHashMap<>();
        pod.list("spec.volumes").forEach(v -> volumes.put(v.at("name").toString(), v));
        for (KubeObject mount : container.list("volumeMounts")) {
            KubeObject volume = volumes.get(mount.at("name").toString());
            String target = mount.at("mountPath").toString();
            String source = source(state, pod, volume, podDir, fsGroup);
            if (source != null && !target.startsWith("/dev/")) {
                mounts.append(source).append('\t').append(target).append('\t')
                        .append(Boolean.TRUE.equals(mount.at("readOnly")) ? "ro" : "rw").append('\n');
            }
            if (source != null && target.equals("/dev/shm")) {
                Files.writeString(cdir.resolve("shm"), source); // the pod's shared memory: a memory-backed emptyDir of its sizeLimit
            }
        }
        Files.writeString(cdir.resolve("mounts"), mounts.toString());
    }

    /**
     * Where a volume comes from, as the pod-sandbox mounts it: a directory, or {@code tmpfs:SIZE:MODE:GID} for an emptyDir
     * (a tmpfs of its sizeLimit, so a full emptyDir fails a write with "No space left on device" as the kubelet's limit
     * ends the pod; world-writable as the kubelet makes an emptyDir, with fsGroup as its group and the set-group-ID bit).
     */
    private String source(NamespaceState state, KubeObject pod, KubeObject volume, Path podDir, long fsGroup) throws IOException {
        if (volume == null) {
            return null;
        }
        String name = volume.at("name").toString();
        if (volume.at("configMap") != null || volume.at("secret") != null) {
            return projected(state, pod, volume, podDir.resolve("volumes").resolve(name), fsGroup).toString();
        }
        if (volume.at("persistentVolumeClaim") != null) {
            // A claim's volume as the kubelet hands it to a pod with fsGroup: group fsGroup, group-writable, set-group-ID.
            Path claim = Files.createDirectories(claims().resolve(String.valueOf(volume.at("persistentVolumeClaim.claimName"))));
            StartupHost.must(List.of("chown", "0:" + fsGroup, claim.toString()));
            StartupHost.must(List.of("chmod", "2775", claim.toString()));
            return claim.toString();
        }
        if (volume.at("hostPath") != null || volume.at("nfs") != null) {
            // A node directory or an NFS export: one directory of this run per volume, shared by the group's pods (as
            // an NFS export, or a pre-filled hostPath cache on every node, would be).
            // The kubelet changes no ownership of these (fsGroup does not apply): world-writable stands for a directory
            // its administrator prepared for the pods' user.
            Path shared = Files.createDirectories(claims().resolve("volume-" + name));
            StartupHost.must(List.of("chmod", "1777", shared.toString()));
            return shared.toString();
        }
        if (volume.at("emptyDir") != null) {
            Object limit = volume.at("emptyDir.sizeLimit");
            long bytes = limit == null ? 0 : new Quantity(limit.toString()).getNumber().longValue();
            return "tmpfs:" + bytes + ":2777:" + fsGroup;
        }
        return null;
    }

    /**
     * A ConfigMap or Secret volume's files in {@code target} as the kubelet writes them: every key (or the items chosen,
     * at their paths), a Secret's values decoded, each file of its mode (the item's, else defaultMode, else 0644), owned
     * by root with the group fsGroup and group-readable when the owner may read.
     */
    private static Path projected(NamespaceState state, KubeObject pod, KubeObject volume, Path target, long fsGroup) throws IOException {
        boolean secret = volume.at("secret") != null;
        String prefix = secret ? "secret" : "configMap";
        String objectName = String.valueOf(volume.at(secret ? "secret.secretName" : "configMap.name"));
        KubeObject object = state.named(secret ? "Secret" : "ConfigMap", objectName)
                .orElseThrow(() -> new IllegalStateException("pod " + pod.name() + " mounts missing " + prefix + " " + objectName));
        Object modeValue = volume.at(prefix + ".defaultMode");
        int defaultMode = modeValue == null ? 0644 : Integer.parseInt(modeValue.toString());
        Map<String, String[]> files = new LinkedHashMap<>();
        Object data = object.at("data");
        List<KubeObject> items = volume.list(prefix + ".items");
        if (data instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                String value = secret ? new String(Base64.getDecoder().decode(e.getValue().toString()), StandardCharsets.UTF_8)
                        : e.getValue().toString();
                files.put(e.getKey().toString(), new String[] {e.getKey().toString(), value, Integer.toString(defaultMode)});
            }
        }
        if (!items.isEmpty()) {
            Map<String, String[]> chosen = new LinkedHashMap<>();
            for (KubeObject item : items) {
                String[] f = files.get(item.at("key").toString());
                if (f != null) {
                    Object mode = item.at("mode");
                    chosen.put(f[0], new String[] {item.at("path").toString(), f[1], mode == null ? f[2] : mode.toString()});
                }
            }
            files = chosen;
        }
        Files.createDirectories(target);
        for (String[] f : files.values()) {
            Path file = target.resolve(f[0]);
            Files.createDirectories(file.getParent());
            Files.writeString(file, f[1]);
            int mode = Integer.parseInt(f[2]);
            // As the kubelet with fsGroup: owned by root, the group fsGroup, group-readable when the owner may read.
            mode |= (mode & 0400) != 0 ? 0040 : 0;
            StartupHost.must(List.of("chown", "0:" + fsGroup, file.toString()));
            StartupHost.must(List.of("chmod", Integer.toOctalString(mode), file.toString()));
        }
        return target;
    }
}
