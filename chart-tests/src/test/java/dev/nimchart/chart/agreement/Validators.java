package dev.nimchart.chart.agreement;

import dev.nimchart.cluster.KubeApi;
import dev.nimchart.objects.EmbeddedPods;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The real validators' verdict on what the chart rendered:
 * <ul>
 *   <li>the API server: every object created with a server-side dry run and strict field validation, with the
 *       admission webhooks the cluster has registered (on the controller tier, the LeaderWorkerSet controller's
 *       mutating and validating webhooks); an object over 1 MB is also created for real (and deleted), as only etcd
 *       refuses one over its request limit;</li>
 *   <li>the pods the API server never sees at install: every pod template of a LeaderWorkerSet or MPIJob as the Pod its
 *       controller would create ({@link EmbeddedPods}), dry-run the same way;</li>
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
    private final Set<String> serviceAccounts = ConcurrentHashMap.newKeySet();
    private final Set<String> unjudgedKinds = ConcurrentHashMap.newKeySet();

    /** @param ray Ray's port check, or null where Ray is not installed (its verdicts are then missing) */
    Validators(KubeApi api, String namespace, RayPortCheck ray) {
        this.api = api;
        this.namespace = namespace;
        this.ray = ray;
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
        // The pods name the release's ServiceAccount, which ServiceAccount admission looks up: it exists, as it would
        // once Helm created it.
        for (KubeObject sa : manifest.ofKind("ServiceAccount")) {
            if (serviceAccounts.add(sa.name())) {
                api.create(sa, namespace, false);
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
            if (!r.ok()) {
                out.add(new Rejection("the API server", o.kind() + "/" + o.name(), r.message()));
            }
            if (List.of("LeaderWorkerSet", "MPIJob").contains(o.kind())) {
                for (EmbeddedPods t : EmbeddedPods.of(o)) {
                    KubeApi.Response pod = api.create(t.pod(), namespace, true);
                    if (!pod.ok()) {
                        out.add(new Rejection("the API server", "the pods of " + o.kind() + "/" + o.name() + " " + t.path(), pod.message()));
                    }
                }
            }
            if (ray != null && o.kind().equals("LeaderWorkerSet")) {
                headPort(o).flatMap(ray::refusal).ifPresent(refusal ->
                        out.add(new Rejection("Ray (ray start --head)", o.kind() + "/" + o.name() + " leader", refusal)));
            }
        }
        return out;
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
