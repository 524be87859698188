package dev.nimchart.objects;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One pod template of a rendered workload, with the role it plays and how many pods it makes.
 *
 * @param owner the workload object (StatefulSet, Deployment, LeaderWorkerSet, MPIJob)
 * @param role  server, leader, worker, launcher or mpi-worker
 * @param pod   the template (metadata and spec) as an object, so {@code pod.at("spec.containers[0].name")} works
 * @param pods  pods this template makes from its owner
 */
public record PodTemplate(KubeObject owner, String role, KubeObject pod, int pods) {

    /** Every pod template of the manifest's workloads, in manifest order. */
    public static List<PodTemplate> of(RenderedManifest manifest) {
        List<PodTemplate> templates = new ArrayList<>();
        manifest.objects().forEach(o -> templates.addAll(of(o)));
        return templates;
    }

    /** The pod templates of one workload object (none for other kinds). */
    public static List<PodTemplate> of(KubeObject o) {
        List<PodTemplate> templates = new ArrayList<>();
        switch (String.valueOf(o.kind())) {
            case "StatefulSet", "Deployment" -> templates.add(new PodTemplate(o, endpointPicker(sub(o, "spec.template"))
                    ? ENDPOINT_PICKER : "server", sub(o, "spec.template"), intAt(o, "spec.replicas", 1)));
            case "LeaderWorkerSet" -> {
                int groups = intAt(o, "spec.replicas", 1);
                int size = intAt(o, "spec.leaderWorkerTemplate.size", 1);
                templates.add(new PodTemplate(o, "leader", sub(o, "spec.leaderWorkerTemplate.leaderTemplate"), groups));
                templates.add(new PodTemplate(o, "worker", sub(o, "spec.leaderWorkerTemplate.workerTemplate"),
                        groups * (size - 1)));
            }
            case "MPIJob" -> {
                templates.add(new PodTemplate(o, "launcher", sub(o, "spec.mpiReplicaSpecs.Launcher.template"),
                        intAt(o, "spec.mpiReplicaSpecs.Launcher.replicas", 1)));
                templates.add(new PodTemplate(o, "mpi-worker", sub(o, "spec.mpiReplicaSpecs.Worker.template"),
                        intAt(o, "spec.mpiReplicaSpecs.Worker.replicas", 1)));
            }
            default -> {
            }
        }
        return templates;
    }

    /**
     * Role of the pods of an Inference Gateway endpoint picker (the Gateway API Inference Extension's EPP): a Deployment
     * whose pods carry {@code app.kubernetes.io/component: endpoint-picker}. It routes requests to the model's pods and
     * runs no model itself.
     */
    public static final String ENDPOINT_PICKER = "endpoint-picker";

    private static boolean endpointPicker(KubeObject template) {
        return ENDPOINT_PICKER.equals(String.valueOf(template.labels().get("app.kubernetes.io/component")));
    }

    /** True for the pods that serve the model's API: a single-node server, a group's leader, an MPIJob's worker. */
    public boolean servesApi() {
        return List.of("server", "leader", "mpi-worker").contains(role);
    }

    /** True for every role but the MPI launcher and an endpoint picker. */
    public boolean gpuPod() {
        return !role.equals("launcher") && !role.equals(ENDPOINT_PICKER);
    }

    /** GPUs of each pod: the nvidia.com/gpu limit of its NIM container (0 when absent). */
    public int gpus() {
        return limit(nim(), "nvidia.com/gpu");
    }

    /** The DeviceClass of NVIDIA's DRA driver for GPUs: a claim's devices of this class are GPUs. */
    public static final String DRA_GPU_CLASS = "gpu.nvidia.com";

    /**
     * GPUs of each pod, requested either way: the nvidia.com/gpu limit of its NIM container, plus the devices of class
     * {@value #DRA_GPU_CLASS} that the ResourceClaimTemplates of {@code manifest} named by the pod's resourceClaims ask
     * for (ExactCount requests).
     */
    public int gpus(RenderedManifest manifest) {
        int gpus = gpus();
        for (KubeObject claim : pod.list("spec.resourceClaims")) {
            Object template = claim.at("resourceClaimTemplateName");
            for (KubeObject t : manifest.ofKind("ResourceClaimTemplate")) {
                if (!t.name().equals(template)) {
                    continue;
                }
                for (KubeObject request : t.list("spec.spec.devices.requests")) {
                    if (DRA_GPU_CLASS.equals(request.at("exactly.deviceClassName")) && request.at("exactly.count") != null) {
                        gpus += Integer.parseInt(request.at("exactly.count").toString());
                    }
                }
            }
        }
        return gpus;
    }

    /** The serving container ({@link ServingContainer}). */
    public KubeObject nim() {
        return ServingContainer.of(pod);
    }

    public List<KubeObject> containers() {
        return pod.list("spec.containers");
    }

    public List<KubeObject> initContainers() {
        return pod.list("spec.initContainers");
    }

    public List<KubeObject> volumes() {
        return pod.list("spec.volumes");
    }

    /** The labels of the pods this template makes. */
    public Map<String, Object> labels() {
        return pod.labels();
    }

    /**
     * Whether a Service or ServiceMonitor selector picks this template's pods, counting the label the MPI operator
     * adds to each worker pod ({@code training.kubeflow.org/replica-index}) as rank 0's.
     */
    public boolean selectedBy(Map<?, ?> selector) {
        Map<String, Object> podLabels = new HashMap<>(labels());
        if (role.equals("mpi-worker")) {
            podLabels.put("training.kubeflow.org/replica-index", "0");
        }
        return podLabels.entrySet().containsAll(selector.entrySet());
    }

    /** A container's env as name to EnvVar, in order (a duplicated name keeps the last). */
    public static Map<String, KubeObject> env(KubeObject container) {
        Map<String, KubeObject> env = new LinkedHashMap<>();
        for (KubeObject e : container.list("env")) {
            env.put((String) e.at("name"), e);
        }
        return env;
    }

    /** A container's resource limit as an integer (0 when absent). */
    public static int limit(KubeObject container, String resource) {
        Object value = container.at("resources.limits[" + resource + "]");
        return value == null ? 0 : Integer.parseInt(value.toString());
    }

    @Override
    public String toString() {
        return owner + " " + role + " template";
    }

    @SuppressWarnings("unchecked")
    private static KubeObject sub(KubeObject o, String path) {
        Object value = o.at(path);
        if (!(value instanceof Map)) {
            throw new IllegalStateException(o + " has no " + path);
        }
        return new KubeObject((Map<String, Object>) value);
    }

    /** The integer at the path; the fallback when absent or not an integer (the strict model check reports the type). */
    private static int intAt(KubeObject o, String path, int fallback) {
        Object value = o.at(path);
        if (value instanceof Integer i) {
            return i;
        }
        try {
            return value == null ? fallback : Integer.parseInt(value.toString());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
