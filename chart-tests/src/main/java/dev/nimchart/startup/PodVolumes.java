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
 *
 * <p>An emptyDir is the pod's, not a container's, as the kubelet's emptyDir plugin makes it (kubernetes
 * {@code pkg/volume/emptydir/empty_dir.go}: {@code SetUpAt} makes the volume's directory under the pod's directory, mode
 * 0777, a tmpfs there for medium Memory with {@code size=} its sizeLimit, the group fsGroup through the volume ownership
 * step, and is idempotent: a volume already set up is left as it is; {@code TearDownAt} unmounts it and removes the
 * directory when the pod goes). The kubelet sets a pod's volumes up before its first init container and tears them down
 * only when the pod is deleted, so every container of the pod that mounts an emptyDir sees the same files, and a
 * restarted container finds what it wrote. Here: {@code POD_DIR/empty-dirs} lists the pod's emptyDirs (name, size in
 * bytes, mode, group), the executor's {@code volumes} verb mounts each as a tmpfs at {@code POD_DIR/empty-dir/NAME} in
 * the mount namespace of whoever runs it (this JVM's for the tier; the bundle's own for the GPU check) once per pod,
 * every container's sandbox binds it at its mount path, and {@link #release} unmounts everything under a pod's (or a
 * run's) directory when the pod is recreated or the run closes. Every emptyDir is a tmpfs (a node's disk-backed one is a
 * directory whose sizeLimit the kubelet enforces by eviction; a tmpfs of that size fails the write instead). subPath is
 * not modelled: a mount gets the whole volume (the chart renders no subPath).
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
     * Writes {@code POD_DIR/empty-dirs}: each emptyDir of the pod (whether or not a container mounts it, as the kubelet
     * sets up every volume of a pod), one line each: its name, its size in bytes (its sizeLimit; 0: no limit), its mode and
     * its group (fsGroup): world-writable with the set-group-ID bit, as the kubelet hands an emptyDir over with fsGroup.
     */
    static void writeEmptyDirs(Path podDir, KubeObject pod, long fsGroup) throws IOException {
        StringBuilder lines = new StringBuilder();
        for (KubeObject volume : pod.list("spec.volumes")) {
            if (volume.at("emptyDir") != null) {
                Object limit = volume.at("emptyDir.sizeLimit");
                long bytes = limit == null ? 0 : new Quantity(limit.toString()).getNumber().longValue();
                lines.append(volume.at("name")).append('\t').append(bytes).append("\t2777\t").append(fsGroup).append('\n');
            }
        }
        Files.writeString(podDir.resolve("empty-dirs"), lines.toString());
    }

    /** Where the executor mounts the pod's emptyDir {@code name}: {@code POD_DIR/empty-dir/NAME}. */
    static Path emptyDir(Path podDir, String name) {
        return podDir.resolve("empty-dir").resolve(name);
    }

    /**
     * Unmounts everything mounted at or under {@code dir} in this process's mount namespace (as /proc/self/mountinfo
     * lists it), the deepest first: a pod's emptyDirs when the pod goes, as the kubelet's {@code TearDownAt} unmounts
     * them. A mount still busy here is detached lazily (its memory is freed once no process uses it). Fails when
     * something stays mounted.
     */
    static void release(Path dir) {
        List<String> mounted = mountedUnder(dir);
        for (String point : mounted) {
            if (StartupHost.run(List.of("umount", point), 30).exit() != 0) {
                StartupHost.run(List.of("umount", "--lazy", point), 30);
            }
        }
        List<String> left = mountedUnder(dir);
        if (!left.isEmpty()) {
            throw new IllegalStateException("could not unmount " + left + " (a pod's emptyDirs under " + dir + ")");
        }
    }

    /** The mount points at or under {@code dir} in this process's mount namespace, the deepest (last mounted) first. */
    static List<String> mountedUnder(Path dir) {
        String top;
        try {
            top = (Files.exists(dir) ? dir.toRealPath() : dir.toAbsolutePath().normalize()).toString();
            List<String> points = new java.util.ArrayList<>();
            for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
                String[] fields = line.split(" ");
                // mountinfo escapes space, tab, newline and backslash in octal (proc(5))
                String point = fields[4].replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n").replace("\\134", "\\");
                if (point.equals(top) || point.startsWith(top + "/")) {
                    points.add(0, point);
                }
            }
            return points;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
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
                Files.writeString(cdir.resolve("shm"), source); // the pod's shared memory: its memory-backed emptyDir, bound there
            }
        }
        Files.writeString(cdir.resolve("mounts"), mounts.toString());
    }

    /**
     * Where a volume comes from, as the pod-sandbox binds it: a directory or file; for an emptyDir the pod's tmpfs at
     * {@code POD_DIR/empty-dir/NAME} ({@link #writeEmptyDirs}: a tmpfs of its sizeLimit, so a full emptyDir fails a write
     * with "No space left on device" as the kubelet's limit ends the pod).
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
            return emptyDir(podDir, name).toString();
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
