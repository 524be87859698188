package dev.nimchart.controllers;

import dev.nimchart.objects.KubeObject;
import dev.nimchart.cluster.KubeApi;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the controllers have made of a namespace at one moment: the objects a reconciled release consists of, read in
 * one pass (pods, Services, EndpointSlices, claims, ConfigMaps, events, the workloads and the objects that select pods).
 */
public final class NamespaceState {

    /**
     * Collections read for every snapshot, in this order: kind -> API path under the namespace. A snapshot is a list
     * per kind, read one after another, not one point in time, so the order decides what a mix of old and new can
     * look like. The workloads and ReplicaSets come first and the pods after them: a workload whose status reports its
     * current spec done was done before its pods were read, so the pods read are the rolled-out ones. With the pods
     * first, a Deployment's status could report a rollout that finished after its old pod was read, and a snapshot then
     * held the old pod as "reached" (ControllerLifecycleIT's single-node upgrade, under load). Events come last, so a
     * snapshot holds every Warning of what it shows.
     */
    private static final Map<String, String> KINDS = new LinkedHashMap<>();

    static {
        KINDS.put("StatefulSet", "/apis/apps/v1/namespaces/%s/statefulsets");
        KINDS.put("Deployment", "/apis/apps/v1/namespaces/%s/deployments");
        KINDS.put("LeaderWorkerSet", "/apis/leaderworkerset.x-k8s.io/v1/namespaces/%s/leaderworkersets");
        KINDS.put("MPIJob", "/apis/kubeflow.org/v2beta1/namespaces/%s/mpijobs");
        KINDS.put("Job", "/apis/batch/v1/namespaces/%s/jobs");
        KINDS.put("CronJob", "/apis/batch/v1/namespaces/%s/cronjobs");
        KINDS.put("DaemonSet", "/apis/apps/v1/namespaces/%s/daemonsets");
        KINDS.put("ReplicaSet", "/apis/apps/v1/namespaces/%s/replicasets");
        KINDS.put("Pod", "/api/v1/namespaces/%s/pods");
        KINDS.put("PersistentVolumeClaim", "/api/v1/namespaces/%s/persistentvolumeclaims");
        KINDS.put("Service", "/api/v1/namespaces/%s/services");
        KINDS.put("EndpointSlice", "/apis/discovery.k8s.io/v1/namespaces/%s/endpointslices");
        KINDS.put("ConfigMap", "/api/v1/namespaces/%s/configmaps");
        KINDS.put("Secret", "/api/v1/namespaces/%s/secrets");
        KINDS.put("PodDisruptionBudget", "/apis/policy/v1/namespaces/%s/poddisruptionbudgets");
        KINDS.put("HorizontalPodAutoscaler", "/apis/autoscaling/v2/namespaces/%s/horizontalpodautoscalers");
        KINDS.put("NetworkPolicy", "/apis/networking.k8s.io/v1/namespaces/%s/networkpolicies");
        KINDS.put("ServiceMonitor", "/apis/monitoring.coreos.com/v1/namespaces/%s/servicemonitors");
        KINDS.put("ResourceClaim", "/apis/resource.k8s.io/v1/namespaces/%s/resourceclaims");
        KINDS.put("Event", "/api/v1/namespaces/%s/events");
    }

    /** The kinds of workload a release can make; a Job counts only when no other object controls it (an MPIJob's launcher, a CronJob's run). */
    public static final List<String> WORKLOAD_KINDS = List.of("StatefulSet", "Deployment", "LeaderWorkerSet", "MPIJob", "DaemonSet", "Job",
            "CronJob");

    private final String namespace;
    private final Map<String, List<KubeObject>> objects;

    private NamespaceState(String namespace, Map<String, List<KubeObject>> objects) {
        this.namespace = namespace;
        this.objects = objects;
    }

    @SuppressWarnings("unchecked")
    public static NamespaceState read(KubeApi api, String namespace) {
        Map<String, List<KubeObject>> objects = new LinkedHashMap<>();
        KINDS.forEach((kind, path) -> {
            Map<String, Object> list = KubeApi.require(api.get(path.formatted(namespace)), "list " + kind + " in " + namespace);
            List<KubeObject> items = new ArrayList<>();
            for (Object item : (List<Object>) list.getOrDefault("items", List.of())) {
                Map<String, Object> o = new LinkedHashMap<>((Map<String, Object>) item);
                o.put("kind", kind);
                items.add(new KubeObject(o));
            }
            objects.put(kind, items);
        });
        return new NamespaceState(namespace, objects);
    }

    /**
     * A snapshot made of given objects instead of read from an API server (a pod rendered and run without a cluster):
     * every kind a snapshot reads is present, empty unless given.
     */
    public static NamespaceState of(String namespace, List<KubeObject> given) {
        Map<String, List<KubeObject>> objects = new LinkedHashMap<>();
        KINDS.keySet().forEach(kind -> objects.put(kind, new ArrayList<>()));
        for (KubeObject o : given) {
            objects.computeIfAbsent(o.kind(), k -> new ArrayList<>()).add(o);
        }
        return new NamespaceState(namespace, objects);
    }

    public String namespace() {
        return namespace;
    }

    public List<KubeObject> all(String kind) {
        List<KubeObject> list = objects.get(kind);
        if (list == null) {
            throw new IllegalArgumentException("a namespace snapshot holds no " + kind);
        }
        return list;
    }

    /** Whether snapshots read this kind. */
    public boolean reads(String kind) {
        return objects.containsKey(kind);
    }

    public Optional<KubeObject> named(String kind, String name) {
        return all(kind).stream().filter(o -> name.equals(o.name())).findFirst();
    }

    public List<KubeObject> pods() {
        return all("Pod");
    }

    /** Pods not being deleted. */
    public List<KubeObject> livePods() {
        return pods().stream().filter(p -> p.at("metadata.deletionTimestamp") == null).toList();
    }

    /** The UIDs of the pods not being deleted. */
    public java.util.Set<String> livePodUids() {
        return livePods().stream().map(p -> String.valueOf(p.at("metadata.uid"))).collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new));
    }

    public List<KubeObject> workloads() {
        return WORKLOAD_KINDS.stream().flatMap(k -> all(k).stream()).filter(w -> !w.kind().equals("Job") || controller(w).isEmpty()).toList();
    }

    /** The workloads that are not a Helm hook's (Helm leaves those behind on uninstall unless their delete policy removes them). */
    public List<KubeObject> releaseWorkloads() {
        return workloads().stream().filter(w -> !hook(w)).toList();
    }

    /**
     * The pods the desired state counts and holds Ready: live pods that are not run to completion, i.e. not a Job's
     * (judged by their Job's status; the Job of an MPIJob's launcher excepted, whose pod keeps running and is one of
     * the MPIJob's), not a hook's or a test's, and not Succeeded.
     */
    public List<KubeObject> servingPods() {
        return livePods().stream().filter(p -> !"Succeeded".equals(p.at("status.phase")) && !hook(p)
                && controller(p).filter(o -> "Job".equals(o.at("kind"))).map(this::launcherJob).orElse(true)).toList();
    }

    /** Whether the Job an owner reference names is an MPIJob's launcher. */
    private boolean launcherJob(KubeObject jobReference) {
        return named("Job", String.valueOf(jobReference.at("name"))).flatMap(NamespaceState::controller)
                .map(c -> "MPIJob".equals(c.at("kind"))).orElse(false);
    }

    /**
     * Whether an object is a Helm hook's: it carries the hook annotation, or a Job that does controls it. Helm creates
     * hooks outside the release and leaves them after uninstall unless their delete policy removes them.
     */
    public boolean hook(KubeObject o) {
        if (o.annotations().containsKey(dev.nimchart.render.ChartLayout.HOOK_ANNOTATION)) {
            return true;
        }
        return controller(o).filter(c -> "Job".equals(c.at("kind")))
                .flatMap(c -> named("Job", String.valueOf(c.at("name")))).map(j -> j.annotations().containsKey(dev.nimchart.render.ChartLayout.HOOK_ANNOTATION)).orElse(false);
    }

    /** The owner reference that controls an object, if any. */
    public static Optional<KubeObject> controller(KubeObject o) {
        return o.list("metadata.ownerReferences").stream().filter(r -> Boolean.TRUE.equals(r.at("controller"))).findFirst();
    }

    /** The EndpointSlices of a Service. */
    public List<KubeObject> endpointSlicesOf(String service) {
        return all("EndpointSlice").stream()
                .filter(s -> service.equals(s.labels().get("kubernetes.io/service-name"))).toList();
    }

    /** Warning events, as "Kind/name reason: message (source)". */
    public List<String> warnings() {
        return all("Event").stream().filter(e -> "Warning".equals(e.at("type")))
                .map(e -> e.at("involvedObject.kind") + "/" + e.at("involvedObject.name") + " " + e.at("reason") + ": "
                        + e.at("message") + " (" + source(e) + ")")
                .toList();
    }

    /**
     * The first Warning event saying the namespace's Pod Security level refused a pod: it refuses pods only when a
     * controller creates them, so this event is the one place that says why a workload's pods never appeared.
     */
    public java.util.Optional<String> podSecurityRefusal() {
        return warnings().stream().filter(w -> w.contains("violates PodSecurity")).findFirst();
    }

    private static Object source(KubeObject event) {
        Object component = event.at("source.component");
        return component != null ? component : event.at("reportingComponent");
    }

    public static boolean ready(KubeObject pod) {
        return pod.list("status.conditions").stream().anyMatch(c -> "Ready".equals(c.at("type")) && "True".equals(c.at("status")));
    }

    /** Whether a label selector (matchLabels and matchExpressions, or a plain map as Services use) selects these labels. */
    @SuppressWarnings("unchecked")
    public static boolean selects(Object selector, Map<String, Object> labels) {
        if (!(selector instanceof Map<?, ?> map)) {
            return false;
        }
        Map<String, Object> s = (Map<String, Object>) map;
        if (!s.containsKey("matchLabels") && !s.containsKey("matchExpressions")) {
            return s.entrySet().stream().allMatch(e -> String.valueOf(e.getValue()).equals(String.valueOf(labels.get(e.getKey()))));
        }
        Map<String, Object> matchLabels = (Map<String, Object>) s.getOrDefault("matchLabels", Map.of());
        boolean ok = matchLabels.entrySet().stream().allMatch(e -> String.valueOf(e.getValue()).equals(String.valueOf(labels.get(e.getKey()))));
        for (Map<String, Object> expr : (List<Map<String, Object>>) s.getOrDefault("matchExpressions", List.of())) {
            Object value = labels.get(expr.get("key"));
            List<Object> values = ((List<Object>) expr.getOrDefault("values", List.of())).stream().map(String::valueOf).map(v -> (Object) v).toList();
            ok &= switch (expr.get("operator").toString()) {
                case "In" -> value != null && values.contains(String.valueOf(value));
                case "NotIn" -> value == null || !values.contains(String.valueOf(value));
                case "Exists" -> labels.containsKey(expr.get("key").toString());
                case "DoesNotExist" -> !labels.containsKey(expr.get("key").toString());
                default -> throw new IllegalArgumentException("unknown selector operator " + expr.get("operator"));
            };
        }
        return ok;
    }
}
