package dev.nimchart.chart.agreement;

import dev.nimchart.chart.repository.NimLlmFuzzScenarios;
import dev.nimchart.fuzz.FuzzScenario;
import dev.nimchart.fuzz.FuzzScenarios;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BiFunction;

/**
 * Where the chart's rules meet the real validators' (issue 34): values documents that start from nim-llm's coherent
 * scenarios ({@link NimLlmFuzzScenarios}) and then set one or two <em>surfaces</em>, each a group of keys whose values
 * come from a pool of realistic, borderline and wrong values: the Ray head's port, DRA selectors and matchAttribute,
 * topology keys, Kueue queue names, LeaderWorkerSet subgroup and rollout policies, mount paths, env field references,
 * commands, Ingress paths and names. The keys a surface set are the document's {@link #SURFACE_KEY} traits: a refusal
 * that names one of them is checked against the validators ({@link AgreementRun}). Document {@code n} of a seed is
 * always the same (the {@link dev.nimchart.fuzz.ValuesFuzzer} draws everything from the document's own stream).
 */
public final class AgreementScenarios implements FuzzScenarios {

    /** Prefix of a trait naming a key a surface set. */
    public static final String SURFACE_KEY = "key ";
    /** Prefix of a trait naming a surface. */
    public static final String SURFACE = "surface ";

    /**
     * Keys whose rule is a run-time contract no admission validator checks (an empty program passes the API server; the
     * container runtime cannot run it): a refusal there is never counted as false.
     */
    static final java.util.Set<String> CONTRACT_KEYS = java.util.Set.of("customCommand");
    /**
     * Keys whose rule stands for a validator this run does not start, by key: the API server judges part of it, and a
     * refusal it does not bear out is counted as not judged, never as false.
     */
    static final Map<String, String> VALIDATOR_NOT_RUN = Map.of(
            "kueue.queueName", "Kueue's webhook (a DNS subdomain; the API server judges only the label value)",
            "kueue.requiredTopology", "Kueue's webhook (a label name, one topology annotation a pod set)",
            "kueue.preferredTopology", "Kueue's webhook (a label name, one topology annotation a pod set)",
            "fullnameOverride", "the API server on the pods the controllers create (their controller-revision-hash label,"
                    + " <StatefulSet>-<hash>, is 63 characters at most; a dry run creates no StatefulSet)");
    /** The keys of {@link #VALIDATOR_NOT_RUN} that Kueue's webhooks judge, where a run registers them. */
    static final java.util.Set<String> KUEUE_KEYS = java.util.Set.of("kueue.queueName", "kueue.requiredTopology", "kueue.preferredTopology");

    private static final String P253 = String.join(".", "a".repeat(63), "b".repeat(63), "c".repeat(63), "d".repeat(61));
    private static final String P254 = P253 + "d";

    /** One surface: sets its keys in the values and returns them. */
    private record Surface(String name, BiFunction<Map<String, Object>, Random, List<String>> apply) {
    }

    private static final List<Surface> SURFACES = List.of(
            new Surface("ray", AgreementScenarios::ray),
            new Surface("dra", AgreementScenarios::dra),
            new Surface("topology", AgreementScenarios::topology),
            new Surface("kueue", AgreementScenarios::kueue),
            new Surface("lws-policies", AgreementScenarios::lwsPolicies),
            new Surface("mounts", AgreementScenarios::mounts),
            new Surface("env-references", AgreementScenarios::envReferences),
            new Surface("command", AgreementScenarios::command),
            new Surface("ingress-paths", AgreementScenarios::ingressPaths),
            new Surface("names", AgreementScenarios::names));

    public static List<String> surfaces() {
        return SURFACES.stream().map(Surface::name).toList();
    }

    private final NimLlmFuzzScenarios base = new NimLlmFuzzScenarios();

    @Override
    public FuzzScenario draw(Random random) {
        FuzzScenario start = base.draw(random);
        Map<String, Object> values = deepCopy(start.values());
        List<String> traits = new ArrayList<>();
        List<String> names = new ArrayList<>();
        int count = 1 + random.nextInt(2);
        List<Surface> pool = new ArrayList<>(SURFACES);
        for (int i = 0; i < count; i++) {
            Surface s = pool.remove(random.nextInt(pool.size()));
            names.add(s.name());
            traits.add(SURFACE + s.name());
            for (String key : s.apply().apply(values, random)) {
                traits.add(SURFACE_KEY + key);
            }
        }
        return new FuzzScenario(start.description() + "; surfaces " + String.join(", ", names), traits, values);
    }

    // ---- surfaces -------------------------------------------------------------------------------------------------

    private static List<String> ray(Map<String, Object> v, Random r) {
        Map<String, Object> m = leaderWorkerSet(v, r);
        put(v, "image.tag", pick(r, "3.0.0", "2.0.13", "3.0.0", "1.8.4", "latest"));
        m.put("launchMode", pick(r, "ray", "ray", "auto"));
        m.put("workers", 2 + r.nextInt(2));
        Map<String, Object> ray = child(m, "ray");
        ray.put("port", pick(r, 6379, 6380, 6379, 8265, 10001, 10002, 16379, 19999, 20000, 52365, 52366, 8000, 50000, 2222, 1024,
                65535));
        List<String> keys = new ArrayList<>(List.of("multiNode.ray.port", "multiNode.launchMode"));
        if (r.nextInt(3) == 0) {
            m.put("clusterStartTimeout", 300);
            child(ray, "workerStartupProbe").put("periodSeconds", pick(r, 10, 150, 299, 300, 600));
            keys.add("multiNode.ray.workerStartupProbe.periodSeconds");
        }
        return keys;
    }

    /** CEL selectors: ones that compile, syntax errors the chart sees, and type errors only a CEL compiler sees. */
    static final List<String> SELECTORS = List.of(
            "device.driver == \"gpu.nvidia.com\"",
            "device.attributes[\"gpu.nvidia.com\"].productName == \"NVIDIA GB200\"",
            "device.attributes[\"gpu.nvidia.com\"].productName.startsWith('NVIDIA')",
            "device.capacity[\"gpu.nvidia.com\"].memory.compareTo(quantity(\"40Gi\")) >= 0",
            "has(device.attributes[\"gpu.nvidia.com\"].cliqueId)",
            "device.attributes[\"gpu.nvidia.com\"].index in [0, 1]",
            "device.attributes.exists(d, d == \"gpu.nvidia.com\")",
            "productName == \"NVIDIA GB200\"",
            "device.driver == \"gpu.nvidia.com\"]",
            "(device.driver == \"gpu.nvidia.com\"",
            "device.driver == \"gpu.nvidia.com",
            "self.driver == \"gpu.nvidia.com\"",
            "device.driver == 1",
            "device.driver",
            "device.nope == \"x\"");

    static final List<String> MATCH_ATTRIBUTES = List.of("", "gpu.nvidia.com/productName", "gpu.nvidia.com/cliqueId",
            "gpu.nvidia.com/clique-id", "gpu.nvidia.com/" + "a".repeat(32), "gpu.nvidia.com/" + "a".repeat(33),
            "GPU.nvidia.com/productName", "gpu.nvidia.com/_index", "gpu.nvidia.com/1index");

    private static List<String> dra(Map<String, Object> v, Random r) {
        Map<String, Object> dra = child(v, "dra");
        dra.put("enabled", true);
        List<String> selectors = new ArrayList<>();
        for (int i = r.nextInt(3); i > 0; i--) {
            selectors.add(SELECTORS.get(r.nextInt(SELECTORS.size())));
        }
        dra.put("selectors", selectors);
        dra.put("matchAttribute", MATCH_ATTRIBUTES.get(r.nextInt(MATCH_ATTRIBUTES.size())));
        return List.of("dra.selectors", "dra.matchAttribute");
    }

    private static List<String> topology(Map<String, Object> v, Random r) {
        Map<String, Object> m = leaderWorkerSet(v, r);
        String key = pick(r, "topology.kubernetes.io/rack", P253 + "/rack", P254 + "/rack", "rack", "example.com/" + "n".repeat(63),
                "example.com/" + "n".repeat(64), "Example.com/rack");
        if (r.nextBoolean()) {
            child(m, "topology").putAll(Map.of("key", key, "mode", pick(r, "affinity", "exclusive")));
            return List.of("multiNode.topology.key");
        }
        child(m, "leaderWorkerSet").put("exclusiveTopology", key);
        return List.of("multiNode.leaderWorkerSet.exclusiveTopology");
    }

    private static List<String> kueue(Map<String, Object> v, Random r) {
        String dotted63 = "gpus.team-a.research.example-organisation.cluster-west-1.pool-x";
        Map<String, Object> kueue = child(v, "kueue");
        kueue.put("queueName", pick(r, "nim-gpus", "nim-gpus.team-a", dotted63, dotted63 + "y", "GPUs", "a..b", "-gpus",
                "q".repeat(63)));
        List<String> keys = new ArrayList<>(List.of("kueue.queueName"));
        // Kueue's topology annotations: label names (Kueue's webhook checks them as such), one of the two, or both.
        int topology = r.nextInt(4);
        for (String key : List.of("requiredTopology", "preferredTopology")) {
            if (topology == 3 || (topology == 1 && key.startsWith("required")) || (topology == 2 && key.startsWith("preferred"))) {
                kueue.put(key, pick(r, "topology.kubernetes.io/rack", "cloud.example.com/block", "rack", "Rack_Zone.1", "-rack",
                        "a/b/c", "example.com/" + "r".repeat(64), "Example.com/rack", "r".repeat(63)));
                keys.add("kueue." + key);
            }
        }
        return keys;
    }

    private static List<String> lwsPolicies(Map<String, Object> v, Random r) {
        Map<String, Object> m = leaderWorkerSet(v, r);
        int workers = 2 + r.nextInt(5);
        m.put("workers", workers);
        v.put("replicaCount", 1 + r.nextInt(4));
        Map<String, Object> lws = child(m, "leaderWorkerSet");
        lws.put("maxSurge", pick(r, 0, 0, 1, 2, "0%", "10%", "50%", "100%"));
        lws.put("maxUnavailable", pick(r, 0, 1, 1, "0%", "10%", "25%", "50%", "100%"));
        int size = r.nextInt(workers + 2);
        lws.put("subGroupSize", size);
        lws.put("subGroupPolicyType", size == 0 ? "" : pick(r, "", "LeaderWorker", "LeaderExcluded"));
        return List.of("multiNode.leaderWorkerSet.subGroupSize", "multiNode.leaderWorkerSet.maxSurge",
                "multiNode.leaderWorkerSet.maxUnavailable", "multiNode.workers", "multiNode.leaderWorkerSet.subGroupPolicyType");
    }

    private static List<String> mounts(Map<String, Object> v, Random r) {
        List<String> keys = new ArrayList<>();
        if (r.nextBoolean()) {
            child(v, "model").put("nimCache", pick(r, "/model-store", "/model-store/", "/tmp", "/tmp/", "/data", "/dev/shm", "/opt/amazon"));
            keys.add("model.nimCache");
        }
        if (keys.isEmpty() || r.nextBoolean()) {
            Map<String, Object> volumes = new LinkedHashMap<>();
            Map<String, Object> mounts = new LinkedHashMap<>();
            for (String name : List.of("datasets", "prompts").subList(0, 1 + r.nextInt(2))) {
                volumes.put(name, Map.of("emptyDir", Map.of()));
                mounts.put(name, map("mountPath", pick(r, "/data", "/data/", "/scratch", "/tmp", "/model-store")));
            }
            v.put("extraVolumes", volumes);
            v.put("extraVolumeMounts", mounts);
            keys.add("extraVolumeMounts");
        }
        return keys;
    }

    private static List<String> envReferences(Map<String, Object> v, Random r) {
        List<Object> env = new ArrayList<>();
        if (r.nextBoolean()) {
            Map<String, Object> ref = map("fieldPath", pick(r, "metadata.name", "metadata.labels", "metadata.labels['app.kubernetes.io/name']",
                    "status.podIP", "status.hostIPs", "spec.nodeName", "metadata.annotations['example.com/team']", "spec.containers[0].name",
                    "metadata.generateName", "status.phase"));
            if (r.nextInt(4) == 0) {
                ref.put("apiVersion", pick(r, "v1", "v2"));
            }
            env.add(map("name", "FROM_FIELD", "valueFrom", map("fieldRef", ref)));
        } else {
            Map<String, Object> ref = map("resource", pick(r, "limits.cpu", "limits.memory", "requests.ephemeral-storage",
                    "limits.nvidia.com/gpu", "limits.hugepages-2Mi", "limits.gpu"));
            if (r.nextBoolean()) {
                ref.put("divisor", pick(r, "1", "1m", "1Mi", "2"));
            }
            env.add(map("name", "FROM_RESOURCE", "valueFrom", map("resourceFieldRef", ref)));
        }
        v.put("env", env);
        return List.of("env");
    }

    private static List<String> command(Map<String, Object> v, Random r) {
        v.put("customCommand", pick(r, List.of(), List.of("/opt/nim/start_server.sh"), List.of(""), List.of("", "--verbose")));
        return List.of("customCommand");
    }

    private static List<String> ingressPaths(Map<String, Object> v, Random r) {
        Map<String, Object> path = map("path", pick(r, "/", "/v1", "/v1/../admin", "/a//b", "/v1/.", "/%2Fx", "/v1/./x", "/.."));
        String type = pick(r, "", "Prefix", "Exact", "ImplementationSpecific");
        if (!type.isEmpty()) {
            path.put("pathType", type);
        }
        child(v, "ingress").putAll(map("enabled", true, "hosts", List.of(map("host", "nim.example.com", "paths", List.of(path)))));
        return List.of("ingress.hosts");
    }

    private static List<String> names(Map<String, Object> v, Random r) {
        int length = pick(r, 20, 30, 38, 39, 40, 44, 48, 52, 56, 63);
        v.put("fullnameOverride", ("n" + "abcdefghij".repeat(7)).substring(0, length));
        if (r.nextBoolean()) {
            Map<String, Object> m = leaderWorkerSet(v, r);
            child(m, "leaderWorkerSet").put("maxSurge", pick(r, 0, 1, 2));
            v.put("replicaCount", pick(r, 1, 9, 10));
        }
        return List.of("fullnameOverride");
    }

    // ---- helpers --------------------------------------------------------------------------------------------------

    /** Turns the document into a LeaderWorkerSet deployment (multi-node, a shared NFS cache) and returns multiNode. */
    private static Map<String, Object> leaderWorkerSet(Map<String, Object> v, Random r) {
        Map<String, Object> m = child(v, "multiNode");
        Object gpus = ((Map<?, ?>) ((Map<?, ?>) v.get("resources")).get("limits")).get("nvidia.com/gpu");
        if (!Boolean.TRUE.equals(m.get("enabled")) || !Boolean.TRUE.equals(child(m, "leaderWorkerSet").get("enabled"))) {
            m.put("enabled", true);
            m.put("workers", 2 + r.nextInt(2));
            m.put("gpusPerNode", gpus);
            child(m, "leaderWorkerSet").put("enabled", true);
            m.put("launchMode", "auto");
            v.remove("statefulSet");
            v.remove("persistence");
            v.remove("hostPath");
            v.put("nfs", map("enabled", true, "server", "nfs.example.com", "path", "/exports/nim"));
        }
        return m;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> child(Map<String, Object> parent, String key) {
        Object c = parent.get(key);
        if (c instanceof Map<?, ?> existing) {
            Map<String, Object> copy = new LinkedHashMap<>((Map<String, Object>) existing);
            parent.put(key, copy);
            return copy;
        }
        Map<String, Object> fresh = new LinkedHashMap<>();
        parent.put(key, fresh);
        return fresh;
    }

    private static void put(Map<String, Object> v, String path, Object value) {
        String[] parts = path.split("\\.");
        Map<String, Object> node = v;
        for (int i = 0; i < parts.length - 1; i++) {
            node = child(node, parts[i]);
        }
        node.put(parts[parts.length - 1], value);
    }

    @SafeVarargs
    private static <T> T pick(Random r, T... choices) {
        return choices[r.nextInt(choices.length)];
    }

    private static Map<String, Object> map(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> deepCopy(Map<String, Object> values) {
        Map<String, Object> out = new LinkedHashMap<>();
        values.forEach((k, val) -> out.put(k, copyValue(val)));
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Object copyValue(Object val) {
        if (val instanceof Map<?, ?> m) {
            return deepCopy((Map<String, Object>) m);
        }
        if (val instanceof List<?> l) {
            return new ArrayList<>(l.stream().map(AgreementScenarios::copyValue).toList());
        }
        return val;
    }
}
