package dev.nimchart.report;

import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.PodTemplate;
import dev.nimchart.objects.RenderedManifest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** A readable tree of what a rendered release creates: workloads, pods and their GPUs, Services, claims. */
public final class ManifestSummary {

    private static final List<String> NETWORK_DEVICES = List.of("vpc.amazonaws.com/efa", "nvidia.com/mlnxnics");

    private ManifestSummary() {
    }

    public static String describe(RenderedManifest manifest) {
        StringBuilder out = new StringBuilder();
        List<PodTemplate> templates = PodTemplate.of(manifest);
        out.append("Workloads\n");
        KubeObject owner = null;
        for (PodTemplate t : templates) {
            if (t.owner() != owner) {
                owner = t.owner();
                out.append("  ").append(owner.kind()).append(' ').append(owner.name()).append(groupLine(owner)).append('\n');
            }
            describePod(out, t);
        }
        out.append("Services\n");
        for (KubeObject s : manifest.ofKind("Service")) {
            out.append("  Service ").append(s.name()).append(" (").append(serviceType(s)).append(") selects ")
                    .append(selected(s, templates)).append('\n');
        }
        List<String> claims = claims(manifest, templates);
        if (!claims.isEmpty()) {
            out.append("Claims\n");
            claims.forEach(c -> out.append("  ").append(c).append('\n'));
        }
        List<String> others = manifest.objects().stream()
                .filter(o -> !List.of("StatefulSet", "Deployment", "LeaderWorkerSet", "MPIJob", "Service",
                        "PersistentVolumeClaim").contains(o.kind()))
                .map(KubeObject::toString).toList();
        if (!others.isEmpty()) {
            out.append("Also\n  ").append(String.join(", ", others)).append('\n');
        }
        int pods = templates.stream().mapToInt(PodTemplate::pods).sum();
        int gpus = templates.stream().mapToInt(t -> t.pods() * t.gpus()).sum();
        out.append("Total: ").append(pods).append(" pods, ").append(gpus).append(" GPUs\n");
        return out.toString();
    }

    private static String groupLine(KubeObject owner) {
        return switch (owner.kind()) {
            case "LeaderWorkerSet" -> ": " + valueOr(owner.at("spec.replicas"), "autoscaled") + " group(s) of "
                    + owner.at("spec.leaderWorkerTemplate.size") + " pods (1 leader + workers)";
            case "MPIJob" -> ": 1 launcher + " + owner.at("spec.mpiReplicaSpecs.Worker.replicas") + " workers, "
                    + owner.at("spec.slotsPerWorker") + " slots each";
            default -> ": " + valueOr(owner.at("spec.replicas"), "autoscaled") + " replica(s)";
        };
    }

    private static void describePod(StringBuilder out, PodTemplate t) {
        KubeObject nim = t.nim();
        int gpus = t.gpus();
        out.append("    ").append(t.role()).append(" pods: ").append(t.pods()).append(" x ").append(gpus).append(" GPU");
        List<String> devices = new ArrayList<>();
        Object limits = nim.at("resources.limits");
        if (limits instanceof Map<?, ?> map) {
            map.forEach((k, v) -> {
                String key = k.toString();
                if (NETWORK_DEVICES.contains(key) || key.startsWith("rdma/")) {
                    devices.add(v + " " + key);
                }
            });
        }
        if (!devices.isEmpty()) {
            out.append(", network ").append(String.join(", ", devices));
        }
        out.append(", image ").append(nim.at("image")).append('\n');
        for (KubeObject sidecar : t.initContainers()) {
            if ("Always".equals(sidecar.at("restartPolicy"))) {
                out.append("      sidecar ").append(sidecar.at("name")).append('\n');
            }
        }
        List<String> mounts = new ArrayList<>();
        for (Object m : (List<?>) valueOr(nim.at("volumeMounts"), List.of())) {
            Map<?, ?> mount = (Map<?, ?>) m;
            mounts.add(mount.get("mountPath") + " <- " + volumeSource(t, (String) mount.get("name")));
        }
        if (!mounts.isEmpty()) {
            out.append("      volumes: ").append(String.join("; ", mounts)).append('\n');
        }
    }

    private static String volumeSource(PodTemplate t, String name) {
        for (KubeObject v : t.volumes()) {
            if (name.equals(v.at("name"))) {
                if (v.at("persistentVolumeClaim") != null) {
                    return "claim " + v.at("persistentVolumeClaim.claimName");
                }
                if (v.at("emptyDir.medium") != null) {
                    return "memory " + valueOr(v.at("emptyDir.sizeLimit"), "");
                }
                return v.raw().keySet().stream().filter(k -> !k.equals("name")).findFirst().orElse("?")
                        + describeSource(v);
            }
        }
        return "claim template " + name + " (one claim per pod)";
    }

    private static String describeSource(KubeObject v) {
        if (v.at("hostPath.path") != null) {
            return " " + v.at("hostPath.path");
        }
        if (v.at("nfs.server") != null) {
            return " " + v.at("nfs.server") + ":" + v.at("nfs.path");
        }
        if (v.at("secret.secretName") != null) {
            return " " + v.at("secret.secretName");
        }
        if (v.at("configMap.name") != null) {
            return " " + v.at("configMap.name");
        }
        return "";
    }

    private static String serviceType(KubeObject s) {
        if ("None".equals(s.at("spec.clusterIP"))) {
            return "headless";
        }
        return s.at("spec.type") + " :" + s.at("spec.ports[0].port");
    }

    private static String selected(KubeObject service, List<PodTemplate> templates) {
        Map<?, ?> selector = (Map<?, ?>) valueOr(service.at("spec.selector"), Map.of());
        String roles = templates.stream().filter(t -> t.selectedBy(selector)).map(t -> t.role().equals("mpi-worker") ? "rank-0 MPI worker" : t.role()).distinct().collect(Collectors.joining(", "));
        return roles.isEmpty() ? "no pods" : roles + " pods";
    }

    private static List<String> claims(RenderedManifest manifest, List<PodTemplate> templates) {
        List<String> claims = new ArrayList<>();
        for (KubeObject pvc : manifest.ofKind("PersistentVolumeClaim")) {
            claims.add("PersistentVolumeClaim " + pvc.name() + claimDetails(pvc, "spec"));
        }
        for (PodTemplate t : templates) {
            Object templatesOfClaims = t.owner().at("spec.volumeClaimTemplates");
            if (templatesOfClaims instanceof List<?> list && t.role().equals("server")) {
                for (Object c : list) {
                    @SuppressWarnings("unchecked")
                    KubeObject claim = new KubeObject((Map<String, Object>) c);
                    claims.add("claim template " + claim.at("metadata.name") + " (one per pod)" + claimDetails(claim, "spec"));
                }
            }
        }
        return claims;
    }

    private static String claimDetails(KubeObject claim, String spec) {
        String keep = "keep".equals(claim.annotations().get("helm.sh/resource-policy")) ? ", kept on uninstall" : "";
        Object storageClass = claim.at(spec + ".storageClassName");
        return ": " + claim.at(spec + ".resources.requests.storage") + " " + claim.at(spec + ".accessModes[0]")
                + (storageClass == null ? "" : ", class \"" + storageClass + "\"") + keep;
    }

    private static Object valueOr(Object value, Object fallback) {
        return value == null ? fallback : value;
    }
}
