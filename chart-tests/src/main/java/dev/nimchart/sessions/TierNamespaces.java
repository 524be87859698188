package dev.nimchart.sessions;

import dev.nimchart.cluster.KubeApi;
import dev.nimchart.controllers.ClusterPreconditions;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Namespaces of the controller tier, at a Pod Security level of the caller's choice (the repository's tests give each
 * example the level the README tells users to: restricted when it needs no documented exception, else privileged),
 * warning at restricted. Pods the controllers create are admitted or refused by that level for real. Each carries the
 * label {@value #MADE_BY} (on a cluster the harness did not start, the only cluster-scoped objects it makes by default).
 */
public final class TierNamespaces {

    /** The label of every namespace the tiers make. */
    public static final String MADE_BY = "nim-chart-tests/made-by";

    private TierNamespaces() {
    }

    /** A namespace that enforces a Pod Security level and warns at restricted. */
    public static String create(KubeApi api, String name, String level) {
        return create(api, name, level, "restricted");
    }

    /** The namespaces this JVM made, by name: their names are taken for the rest of the run. */
    private static final java.util.Set<String> MADE = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * A namespace that enforces one Pod Security level and warns at another, named {@code name}; where this run made
     * a namespace of that name already (two charts' {@code ci/default-values.yaml} give the same release name, and the
     * API-server tier keeps its namespaces), {@code name-2}, {@code name-3}, ... Returns the name it has.
     */
    public static String create(KubeApi api, String name, String level, String warnLevel) {
        String candidate = name;
        for (int n = 2; MADE.contains(candidate); n++) {
            String suffix = "-" + n;
            String base = name.length() > 63 - suffix.length() ? name.substring(0, 63 - suffix.length()).replaceAll("-+$", "") : name;
            candidate = base + suffix;
        }
        return createNamed(api, candidate, level, warnLevel);
    }

    private static String createNamed(KubeApi api, String name, String level, String warnLevel) {
        Map<String, Object> labels = new LinkedHashMap<>();
        labels.put("pod-security.kubernetes.io/enforce", level);
        labels.put("pod-security.kubernetes.io/enforce-version", "latest");
        labels.put("pod-security.kubernetes.io/warn", warnLevel);
        labels.put("pod-security.kubernetes.io/warn-version", "latest");
        labels.put(MADE_BY, "chart-tests");
        KubeApi.Response created = api.post("/api/v1/namespaces", Map.of("apiVersion", "v1", "kind", "Namespace",
                "metadata", Map.of("name", name, "labels", labels)));
        if (created.code() == 409) {
            throw new AssertionError("the namespace " + name + " exists already (left by an interrupted run, or someone else's):"
                    + " delete it (kubectl delete namespace " + name + ") and run again");
        }
        KubeApi.require(created, "create the namespace " + name);
        MADE.add(name);
        return name;
    }

    /**
     * Deletes the namespace and waits until it holds no pod, so that the next example finds every fake node's GPUs
     * free (the namespace controller finishes the rest in the background); then deletes the volumes made for it.
     */
    public static void delete(KubeApi api, String name, Runnable alive) {
        delete(api, name, alive, java.time.Duration.ofSeconds(120));
    }

    /** As {@link #delete(KubeApi, String, Runnable)}, giving the pods {@code timeout} to go. */
    public static void delete(KubeApi api, String name, Runnable alive, java.time.Duration timeout) {
        api.delete("/api/v1/namespaces/" + name);
        awaitNone(api, name, "pods", System.nanoTime() + timeout.toNanos(), alive,
                () -> "pods of the namespace " + name + " were not removed within " + timeout.toSeconds() + " s");
        ClusterPreconditions.cleanUp(api, name);
    }

    /**
     * As {@link #delete(KubeApi, String, Runnable, java.time.Duration)}, then waits until the namespace holds no claim,
     * as checks on a cluster they did not start do before the next file: a claim of a terminating namespace could
     * otherwise still bind a volume meant for the next one. The namespace controller finishes the rest (it re-checks a
     * namespace only seconds apart, so waiting for the namespace itself cost 5-10 s a file); the namespace is
     * terminating when this returns, and a later namespace of this run never takes its name.
     */
    public static void deleteLeavingNoClaims(KubeApi api, String name, Runnable alive, java.time.Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        delete(api, name, alive, timeout);
        awaitNone(api, name, "persistentvolumeclaims", deadline, alive,
                () -> "the claims of the namespace " + name + " were not gone within " + timeout.toSeconds() + " s");
    }

    /**
     * Polls the namespace's list of {@code resource} (a core/v1 plural) until it is empty or the namespace is gone;
     * past {@code deadline} (System.nanoTime) fails with {@code failure}'s text.
     */
    private static void awaitNone(KubeApi api, String namespace, String resource, long deadline, Runnable alive,
            java.util.function.Supplier<String> failure) {
        java.time.Duration left = java.time.Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
        boolean none = dev.nimchart.cluster.Poll.upTo(left).every(100).checking(alive).until(() -> {
            KubeApi.Response list = api.get("/api/v1/namespaces/" + namespace + "/" + resource);
            return !list.ok() || ((java.util.List<?>) list.body().getOrDefault("items", java.util.List.of())).isEmpty();
        });
        if (!none) {
            throw new AssertionError(failure.get());
        }
    }
}
