package dev.nimchart.chart.agreement;

import dev.nimchart.cluster.KubeApi;
import dev.nimchart.objects.EmbeddedPods;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The real validators' verdict on what the chart rendered:
 * <ul>
 *   <li>the API server: every object created with a server-side dry run and strict field validation, with the
 *       admission webhooks the cluster has registered (on the controller tier, the LeaderWorkerSet controller's
 *       mutating and validating webhooks, and Kueue's where the run registers them); an object over 1 MB is also created for real (and deleted), as only etcd
 *       refuses one over its request limit;</li>
 *   <li>the pods the API server never sees at install: every pod template of a LeaderWorkerSet or MPIJob as the Pod its
 *       controller would create ({@link EmbeddedPods}), dry-run the same way; a LeaderWorkerSet's leader with the
 *       metadata its controller adds, so that the real LWS pod webhook mutates it first ({@link #asLwsLeader}); the
 *       first pod of a StatefulSet or Deployment that Kueue's webhook queued, from the object as the API server stored
 *       it, so that Kueue's pod webhook judges it ({@link #asWorkloadPod});</li>
 *   <li>Ray: the head port of every Ray group, through {@code ray start}'s own port check ({@link RayPortCheck}).</li>
 * </ul>
 * Objects of a kind the cluster does not serve are counted as not judged, never as refused.
 */
final class Validators {

    /** One refusal: which validator, of what, and its message. */
    record Rejection(String validator, String object, String message) {

        @Override
        public String toString() {
            return validator + " refuses " + object + ": " + message;
        }
    }

    /** JSON bytes above which an object is also created for real (etcd's request limit is 1.5 MiB). */
    static final int LARGE = 1_000_000;

    private final KubeApi api;
    private final String namespace;
    private final RayPortCheck ray;
    private final boolean kueue;
    private final Set<String> serviceAccounts = ConcurrentHashMap.newKeySet();
    private final boolean keda;
    private final dev.nimchart.chart.routing.PickerStartCheck picker;
    private final Map<String, Integer> judgedBy = new java.util.concurrent.ConcurrentSkipListMap<>();

    /** The validators' names in the run's report. */
    static final String API_SERVER = "the API server (strict server-side dry run, CRD schemas and CEL)";
    static final String LWS = "the LeaderWorkerSet controller's webhooks";
    static final String KUEUE = "Kueue's webhooks";
    static final String KEDA = "KEDA's admission webhook (v2.18.0, keda-admission-webhooks)";
    static final String PICKER = "the endpoint picker (GAIE v1.5.0 cmd/epp, started as its pod)";
    static final String RAY = "Ray (ray start --head)";
    private final Set<String> unjudgedKinds = ConcurrentHashMap.newKeySet();

    /**
     * @param ray Ray's port check, or null where Ray is not installed (its verdicts are then missing)
     * @param kueue whether Kueue's webhooks are registered for the namespace's workloads
     */
    Validators(KubeApi api, String namespace, RayPortCheck ray, boolean kueue) {
        this(api, namespace, ray, kueue, false, null);
    }

    /**
     * @param keda whether KEDA's admission webhook is registered (its ScaledObject verdicts are then the API server's)
     * @param picker the endpoint picker's start check, or null where the picker cannot run here
     */
    Validators(KubeApi api, String namespace, RayPortCheck ray, boolean kueue, boolean keda, dev.nimchart.chart.routing.PickerStartCheck picker) {
        this.api = api;
        this.namespace = namespace;
        this.ray = ray;
        this.kueue = kueue;
        this.keda = keda;
        this.picker = picker;
    }

    /** How many renderings each validator judged, by its name. */
    Map<String, Integer> judgedBy() {
        return Map.copyOf(judgedBy);
    }

    boolean judgesKeda() {
        return keda;
    }

    boolean judgesPicker() {
        return picker != null;
    }

    /** The endpoint picker would judge the rendering but may not start another (its verdict is unknown, not an accept). */
    boolean pickerBeyondBudget(RenderedManifest manifest) {
        return picker != null && dev.nimchart.chart.routing.PickerStartCheck.hasPicker(manifest) && picker.beyondStartBudget(manifest);
    }

    dev.nimchart.chart.routing.PickerStartCheck picker() {
        return picker;
    }

    private void judged(String validator) {
        judgedBy.merge(validator, 1, Integer::sum);
    }

    /** Which validator a refusal of the API server's request comes from: a webhook's name in its message, else the API server. */
    static String refusedBy(String message) {
        if (message.contains("vscaledobject.kb.io")) {
            return KEDA;
        }
        if (message.contains("leaderworkerset.x-k8s.io") && message.contains("webhook")) {
            return LWS;
        }
        if (message.contains("kueue")) {
            return KUEUE;
        }
        return "the API server";
    }

    /**
     * Keys whose rule stands for a validator these do not run on this rendering (by key, the validator's name): Kueue's
     * keys unless Kueue's webhooks are registered and the rendering queues a workload of an integration this Kueue runs
     * (a LeaderWorkerSet, StatefulSet, Deployment or MPIJob with its queue label).
     */
    Map<String, String> notRun(RenderedManifest rendering) {
        Map<String, String> out = new java.util.TreeMap<>(AgreementScenarios.VALIDATOR_NOT_RUN);
        // The chart refuses what any Kubernetes version it claims refuses; on an older API server the newer one's rule is not run.
        AgreementScenarios.NEWER_KUBERNETES_RULES.forEach((key, rule) -> {
            if (serverMinor() < rule.minor()) {
                out.put(key, rule.validator());
            }
        });
        boolean queued = rendering.objects().stream().anyMatch(o -> List.of("LeaderWorkerSet", "StatefulSet", "Deployment", "MPIJob").contains(o.kind())
                && o.labels().containsKey("kueue.x-k8s.io/queue-name"));
        if (kueue && queued) {
            out.keySet().removeAll(AgreementScenarios.KUEUE_KEYS);
        }
        return out;
    }

    private volatile int serverMinor = -1;

    /** The API server's minor version (its /version). */
    private int serverMinor() {
        if (serverMinor < 0) {
            Object minor = KubeApi.require(api.get("/version"), "read the API server's version").get("minor");
            serverMinor = Integer.parseInt(String.valueOf(minor).replaceAll("\\D", ""));
        }
        return serverMinor;
    }

    boolean judgesRay() {
        return ray != null;
    }

    RayPortCheck ray() {
        return ray;
    }

    /** Kinds rendered that the cluster does not serve (not judged). */
    Set<String> unjudgedKinds() {
        return Set.copyOf(unjudgedKinds);
    }

    /** Every refusal of the manifest's objects, their controllers' pods and their Ray groups; empty when all accept. */
    List<Rejection> judge(RenderedManifest manifest) {
        List<Rejection> out = new ArrayList<>();
        judged(API_SERVER);
        if (!manifest.ofKind("LeaderWorkerSet").isEmpty()) {
            judged(LWS);
        }
        if (kueue && !AgreementScenarios.KUEUE_KEYS.stream().allMatch(notRun(manifest)::containsKey)) {
            judged(KUEUE);
        }
        if (keda && !manifest.ofKind("ScaledObject").isEmpty()) {
            judged(KEDA);
        }
        // The pods name the release's ServiceAccount, which ServiceAccount admission looks up: it exists, as it would
        // once Helm created it (after its own dry run below has judged it).
        for (KubeObject sa : manifest.ofKind("ServiceAccount")) {
            if (!serviceAccounts.contains(sa.name()) && api.create(withoutNamespace(sa), namespace, true).ok()) {
                serviceAccounts.add(sa.name());
                api.create(withoutNamespace(sa), namespace, false);
            }
        }
        for (KubeObject o : manifest.objects()) {
            KubeApi.Response r;
            try {
                r = api.create(withoutNamespace(o), namespace, true);
                if (r.ok() && o.toJson().length() > LARGE) {
                    // A dry run never reaches etcd, whose request limit (1.5 MiB) only a real create meets: a large
                    // object is created for real, and deleted at once.
                    r = api.create(withoutNamespace(o), namespace, false);
                    if (r.ok()) {
                        api.delete(api.resource(o.apiVersion(), o.kind()).collectionPath(namespace) + "/" + o.name());
                    }
                }
            } catch (IllegalStateException e) {
                unjudgedKinds.add(o.kind());
                continue;
            }
            // A ServiceAccount of an earlier document, created here for real, is no fault of this one.
            boolean ours = r.code() == 409 && o.kind().equals("ServiceAccount") && serviceAccounts.contains(o.name());
            if (!r.ok() && !ours) {
                out.add(new Rejection(refusedBy(r.message()), o.kind() + "/" + o.name(), r.message()));
            }
            if (List.of("LeaderWorkerSet", "MPIJob").contains(o.kind())) {
                for (EmbeddedPods t : EmbeddedPods.of(o)) {
                    KubeObject candidate = t.path().endsWith("leaderTemplate") ? asLwsLeader(o, t.pod()) : t.pod();
                    // A ServiceAccount the values name and the release does not create (serviceAccount.create: false)
                    // is the cluster's, made before the install: it exists here too, so ServiceAccount admission finds it.
                    Object account = candidate.at("spec.serviceAccountName");
                    if (account != null && !"default".equals(account) && serviceAccounts.add(account.toString())) {
                        api.create(new KubeObject(Map.of("apiVersion", "v1", "kind", "ServiceAccount", "metadata", Map.of("name", account.toString()))),
                                namespace, false);
                    }
                    KubeApi.Response pod = api.create(candidate, namespace, true);
                    if (!pod.ok()) {
                        out.add(new Rejection("the API server", "the pods of " + o.kind() + "/" + o.name() + " " + t.path(), pod.message()));
                    }
                }
            }
            if (r.ok() && List.of("StatefulSet", "Deployment").contains(o.kind())) {
                KubeObject stored = new KubeObject(r.body());
                if (suspendedByKueue(stored)) {
                    KubeApi.Response pod = api.create(asWorkloadPod(stored), namespace, true);
                    if (!pod.ok()) {
                        out.add(new Rejection(pod.message().contains("kueue") ? "Kueue's pod webhook" : "the API server",
                                "the pods of " + o.kind() + "/" + o.name(), pod.message()));
                    }
                }
            }
            if (ray != null && o.kind().equals("LeaderWorkerSet") && headPort(o).isPresent()) {
                judged(RAY);
                headPort(o).flatMap(ray::refusal).ifPresent(refusal ->
                        out.add(new Rejection(RAY, o.kind() + "/" + o.name() + " leader", refusal)));
            }
        }
        // The endpoint picker, started as its pod would start, where the API server accepted its objects (it reads them).
        if (picker != null && out.isEmpty() && dev.nimchart.chart.routing.PickerStartCheck.hasPicker(manifest)) {
            int before = picker.judged();
            picker.refusal(manifest).ifPresent(refusal -> out.add(new Rejection(PICKER, "its Deployment's pod", refusal)));
            if (picker.judged() > before) {
                judged(PICKER);
            }
        }
        return out;
    }

    /**
     * A LeaderWorkerSet's leader pod with the metadata its controller gives it (lws v0.9.0, the leader StatefulSet's
     * template: the set's name, worker index 0, the group size, and its exclusive-topology and subgroup annotations;
     * named {@code <lws>-0}), so that the real LWS pod webhook, registered on the controller tier for pods with that
     * name label, adds what it adds at creation (the group labels, the exclusive-topology pod affinity, the LWS
     * environment) before the API server judges the pod.
     */
    @SuppressWarnings("unchecked")
    static KubeObject asLwsLeader(KubeObject lws, KubeObject pod) {
        java.util.Map<String, Object> raw = new java.util.LinkedHashMap<>(pod.raw());
        java.util.Map<String, Object> meta = new java.util.LinkedHashMap<>((java.util.Map<String, Object>) raw.get("metadata"));
        meta.put("name", lws.name() + "-0");
        java.util.Map<String, Object> labels = new java.util.LinkedHashMap<>(pod.labels());
        labels.put("leaderworkerset.sigs.k8s.io/worker-index", "0");
        labels.put("leaderworkerset.sigs.k8s.io/name", lws.name());
        labels.put("leaderworkerset.sigs.k8s.io/template-revision-hash", "agreement");
        java.util.Map<String, Object> annotations = new java.util.LinkedHashMap<>(pod.annotations());
        annotations.put("leaderworkerset.sigs.k8s.io/size", String.valueOf(lws.at("spec.leaderWorkerTemplate.size")));
        Object exclusive = lws.annotations().get("leaderworkerset.sigs.k8s.io/exclusive-topology");
        if (exclusive != null) {
            annotations.put("leaderworkerset.sigs.k8s.io/exclusive-topology", exclusive);
        }
        if (lws.at("spec.leaderWorkerTemplate.subGroupPolicy") instanceof java.util.Map<?, ?> policy) {
            annotations.put("leaderworkerset.sigs.k8s.io/subgroup-policy-type", String.valueOf(policy.get("subGroupPolicyType")));
            annotations.put("leaderworkerset.sigs.k8s.io/subgroup-size", String.valueOf(policy.get("subGroupSize")));
            Object sub = lws.annotations().get("leaderworkerset.sigs.k8s.io/subgroup-exclusive-topology");
            if (sub != null) {
                annotations.put("leaderworkerset.sigs.k8s.io/subgroup-exclusive-topology", sub);
            }
        }
        meta.put("labels", labels);
        meta.put("annotations", annotations);
        raw.put("metadata", meta);
        return new KubeObject(raw);
    }

    /** Kueue's workload webhook marked the pod template for its pod group (the workload is queued and managed). */
    private static boolean suspendedByKueue(KubeObject workload) {
        return workload.at("spec.template.metadata.annotations") instanceof Map<?, ?> a && a.containsKey(KUEUE_SUSPENDED_BY_PARENT);
    }

    static final String KUEUE_SUSPENDED_BY_PARENT = "kueue.x-k8s.io/pod-suspending-parent";

    /**
     * The first pod a StatefulSet or Deployment controller would create from the workload as the API server stored it
     * (after the mutating webhooks: Kueue's puts its pod-group labels and annotations on the template), with the
     * labels that controller adds, so that Kueue's pod webhook judges it as it would the real pod (its pod-group metadata,
     * its topology request).
     */
    @SuppressWarnings("unchecked")
    static KubeObject asWorkloadPod(KubeObject stored) {
        KubeObject pod = EmbeddedPods.of(stored).get(0).pod();
        Map<String, Object> raw = new java.util.LinkedHashMap<>(pod.raw());
        Map<String, Object> meta = new java.util.LinkedHashMap<>((Map<String, Object>) raw.get("metadata"));
        Map<String, Object> labels = new java.util.LinkedHashMap<>(pod.labels());
        if (stored.kind().equals("StatefulSet")) {
            meta.put("name", stored.name() + "-0");
            labels.put("statefulset.kubernetes.io/pod-name", stored.name() + "-0");
            labels.put("apps.kubernetes.io/pod-index", "0");
            labels.put("controller-revision-hash", stored.name() + "-agreement");
        } else {
            meta.put("name", stored.name() + "-agreement-x0");
            labels.put("pod-template-hash", "agreement");
        }
        meta.put("labels", labels);
        raw.put("metadata", meta);
        return new KubeObject(raw);
    }

    /** The port of {@code nim-serve-ray --head --port P} in a LeaderWorkerSet's leader, if it runs a Ray head. */
    static Optional<Integer> headPort(KubeObject lws) {
        for (KubeObject c : lws.list("spec.leaderWorkerTemplate.leaderTemplate.spec.containers")) {
            List<String> argv = new ArrayList<>();
            for (String part : List.of("command", "args")) {
                if (c.at(part) instanceof List<?> l) {
                    l.forEach(x -> argv.add(String.valueOf(x)));
                }
            }
            int at = argv.indexOf("nim-serve-ray");
            if (at >= 0 && argv.contains("--head") && argv.indexOf("--port") > at && argv.indexOf("--port") + 1 < argv.size()) {
                return Optional.of(Integer.parseInt(argv.get(argv.indexOf("--port") + 1)));
            }
        }
        return Optional.empty();
    }

    @SuppressWarnings("unchecked")
    private static KubeObject withoutNamespace(KubeObject o) {
        java.util.Map<String, Object> raw = new java.util.LinkedHashMap<>(o.raw());
        if (raw.get("metadata") instanceof java.util.Map<?, ?> m) {
            java.util.Map<String, Object> meta = new java.util.LinkedHashMap<>((java.util.Map<String, Object>) m);
            meta.remove("namespace");
            raw.put("metadata", meta);
        }
        return new KubeObject(raw);
    }
}
