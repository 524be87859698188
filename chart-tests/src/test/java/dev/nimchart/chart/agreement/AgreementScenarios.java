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
    /** A rule of a newer Kubernetes than the oldest the chart claims: the validator, and the minor version from which it runs. */
    record NewerRule(int minor, String validator) {
    }

    /**
     * Keys whose refusal stands for a rule only newer API servers have (the chart refuses what any version it claims
     * refuses): on an older API server that validator is not run.
     */
    static final Map<String, NewerRule> NEWER_KUBERNETES_RULES = Map.of(
            "dra.matchAttribute", new NewerRule(37, "Kubernetes 1.37's API server (a lower-case attribute domain; older ones ignore its case)"));

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
            new Surface("names", AgreementScenarios::names),
            new Surface("inference-pool", AgreementScenarios::inferencePool),
            new Surface("picker-args", AgreementScenarios::pickerArgs),
            new Surface("keda", AgreementScenarios::keda),
            new Surface("hpa-metrics", AgreementScenarios::hpaMetrics));

    /**
     * This round's keys, where KEDA, the endpoint picker and the pods' runtime have rules: a document's first random
     * overlay prefers them ({@link dev.nimchart.fuzz.FuzzScenarios#preferredKeys()}).
     */
    static final List<String> PREFERRED_KEYS = List.of("inferencePool", "autoscaling", "modelSource", "cachePrefill", "airGap",
            "lora", "proxy", "model.healthPort", "home", "env", "initContainers", "nameOverride", "fullnameOverride", "metrics");

    /** Surfaces drawn twice as often as the others: this round's (KEDA and the endpoint picker). */
    private static final List<String> WEIGHTED = List.of("inference-pool", "picker-args", "keda");

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
        SURFACES.stream().filter(x -> WEIGHTED.contains(x.name())).forEach(pool::add);
        for (int i = 0; i < count; i++) {
            Surface s = pool.remove(random.nextInt(pool.size()));
            pool.removeIf(x -> x.name().equals(s.name()));
            names.add(s.name());
            traits.add(SURFACE + s.name());
            for (String key : s.apply().apply(values, random)) {
                traits.add(SURFACE_KEY + key);
            }
        }
        return new FuzzScenario(start.description() + "; surfaces " + String.join(", ", names), traits, values);
    }

    @Override
    public List<String> preferredKeys() {
        return PREFERRED_KEYS;
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

    /** Arguments users add to the endpoint picker's: harmless ones, deprecated ones it exits on, repeats of the chart's. */
    static final List<List<String>> EPP_EXTRA_ARGS = List.of(
            List.of("--v=2"), List.of("--refresh-metrics-interval=100ms"), List.of("--secure-serving=false"),
            List.of("--ha-enable-leader-election"), List.of("--ha-enable-leader-election=false"), List.of("--enable-pprof=false"),
            List.of("--metrics-staleness-threshold", "5s"), List.of("--zap-log-level=debug"),
            List.of("--total-queued-requests-metric=num_requests_waiting"), List.of("--kv-cache-usage-percentage-metric", "gpu_cache_usage_perc"),
            List.of("--total-running-requests-metric=num_requests_running"), List.of("--lora-info-metric=vllm:lora_requests_info"),
            List.of("--cache-info-metric", "vllm:cache_config_info"),
            List.of("--pool-name", "other-pool"), List.of("--pool-group=inference.networking.k8s.io"), List.of("--grpc-port=9100"),
            List.of("--metrics-port", "9091"), List.of("--grpc-health-port=9003"), List.of("--tracing=false"),
            List.of("--model-server-metrics-scheme=https"), List.of("--model-server-metrics-scheme=ftp"),
            List.of("--model-server-metrics-path=/v1/metrics"), List.of("--endpoint-selector=app=nim"),
            List.of("--config-text=apiVersion: inference.networking.x-k8s.io/v1alpha1"), List.of("--kubeconfig=/etc/kube/config"),
            List.of("--refresh-metrics-interval=100"), List.of("-v", "3"), List.of("-v=x"), List.of("--zap-encoder=text"),
            List.of("--zap-encoder", "console"), List.of("--enable-pprof=maybe"), List.of("--endpoint-target-ports=8000"));

    /** The InferencePool and its picker's settings: replicas, ports, objective, route, labels, metrics, config, image. */
    private static List<String> inferencePool(Map<String, Object> v, Random r) {
        Map<String, Object> pool = child(v, "inferencePool");
        pool.put("enabled", true);
        List<String> keys = new ArrayList<>(List.of("inferencePool.enabled"));
        Map<String, Object> epp = child(pool, "epp");
        epp.put("replicas", pick(r, 1, 1, 2, 3));
        keys.add("inferencePool.epp.replicas");
        if (r.nextInt(3) == 0) {
            pool.put("targetPort", pick(r, 0, 8000, 9000, 8080));
            pool.put("appProtocol", pick(r, "http", "kubernetes.io/h2c"));
            pool.put("failureMode", pick(r, "FailOpen", "FailClose"));
            keys.addAll(List.of("inferencePool.targetPort", "inferencePool.appProtocol", "inferencePool.failureMode"));
        }
        if (r.nextInt(3) == 0) {
            Map<String, Object> objective = child(pool, "objective");
            objective.put("enabled", true);
            objective.put("apiVersion", pick(r, "inference.networking.x-k8s.io/v1alpha2", "inference.networking.x-k8s.io/v1alpha2", "llm-d.ai/v1alpha2"));
            objective.put("priority", pick(r, 0, 1, 10, -1));
            keys.addAll(List.of("inferencePool.objective.apiVersion", "inferencePool.objective.priority", "inferencePool.objective.enabled"));
        }
        if (r.nextInt(4) == 0) {
            epp.put("objectiveGroup", pick(r, "inference.networking.x-k8s.io", "llm-d.ai"));
            keys.add("inferencePool.epp.objectiveGroup");
        }
        if (r.nextInt(3) == 0) {
            Map<String, Object> route = child(pool, "httpRoute");
            route.put("enabled", true);
            route.put("parentRefs", pick(r, List.of(), List.of(map("name", "inference-gateway")),
                    List.of(map("name", "gw", "namespace", "infra", "sectionName", "https"))));
            route.put("hostnames", pick(r, List.of(), List.of("nim.example.com"), List.of("*.example.com"), List.of("Bad_Host")));
            route.put("path", pick(r, "/", "/v1", "/v1/"));
            route.put("requestTimeout", pick(r, "300s", "5m", "1h30m", "0s", ""));
            keys.addAll(List.of("inferencePool.httpRoute.enabled", "inferencePool.httpRoute.parentRefs", "inferencePool.httpRoute.hostnames",
                    "inferencePool.httpRoute.path", "inferencePool.httpRoute.requestTimeout"));
        }
        if (r.nextInt(5) == 0) {
            pool.put("matchLabels", map("team", "a"));
            if (r.nextBoolean()) {
                child(v, "model").put("labels", map("team", "a"));
            }
            keys.add("inferencePool.matchLabels");
        }
        if (r.nextInt(5) == 0) {
            child(epp, "engineMetrics").put("queuedRequests", pick(r, "num_requests_waiting", "vllm:num_requests_waiting", "queue_depth"));
            keys.add("inferencePool.epp.engineMetrics.queuedRequests");
        }
        if (r.nextInt(5) == 0) {
            epp.put("config", pick(r, EPP_CONFIGS.toArray()));
            keys.add("inferencePool.epp.config");
        }
        if (r.nextInt(6) == 0) {
            Map<String, Object> image = child(epp, "image");
            image.put("tag", pick(r, "v1.5.0", ""));
            image.put("digest", pick(r, "", "sha256:" + "a".repeat(64)));
            keys.add("inferencePool.epp.image.tag");
        }
        return keys;
    }

    /** Custom EndpointPickerConfigs (GAIE v1.5.0's plugin types). */
    static final List<Object> EPP_CONFIGS = List.of(
            map("apiVersion", "inference.networking.x-k8s.io/v1alpha1", "kind", "EndpointPickerConfig",
                    "plugins", List.of(map("type", "queue-scorer"), map("type", "max-score-picker")),
                    "schedulingProfiles", List.of(map("name", "default", "plugins", List.of(map("pluginRef", "queue-scorer"),
                            map("pluginRef", "max-score-picker"))))),
            map("apiVersion", "inference.networking.x-k8s.io/v1alpha1", "kind", "EndpointPickerConfig",
                    "plugins", List.of(map("type", "kv-cache-utilization-scorer"), map("type", "queue-scorer")),
                    "schedulingProfiles", List.of(map("name", "default", "plugins", List.of(map("pluginRef", "kv-cache-utilization-scorer", "weight", 2),
                            map("pluginRef", "queue-scorer", "weight", 1))))));

    /** The picker's own command line: extra arguments, or the whole list replaced. */
    private static List<String> pickerArgs(Map<String, Object> v, Random r) {
        Map<String, Object> pool = child(v, "inferencePool");
        pool.put("enabled", true);
        Map<String, Object> epp = child(pool, "epp");
        if (r.nextInt(4) == 0) {
            v.put("fullnameOverride", "nim-pool");
            List<String> args = new ArrayList<>();
            if (r.nextInt(6) != 0) {
                args.add("--pool-name=" + pick(r, "nim-pool", "nim-pool", "nim-pool", "other-pool"));
            }
            args.add("--config-file=" + pick(r, "/config/endpoint-picker.yaml", "/config/endpoint-picker.yaml", "/config/plugins.yaml"));
            if (r.nextBoolean()) {
                args.add("--grpc-port=" + pick(r, 9002, 9002, 9100));
            }
            if (r.nextBoolean()) {
                args.add("--grpc-health-port=" + pick(r, 9003, 9003, 9004));
            }
            args.addAll(List.of("--metrics-endpoint-auth=false", "--tracing=false"));
            if (r.nextInt(3) == 0) {
                args.add("--ha-enable-leader-election");
            }
            if (r.nextInt(4) == 0) {
                args.add("--pool-name=nim-pool");
            }
            epp.put("args", args);
            epp.put("replicas", pick(r, 1, 2));
            return List.of("inferencePool.epp.args", "inferencePool.epp.replicas", "fullnameOverride");
        }
        List<String> extra = new ArrayList<>();
        for (int i = 1 + r.nextInt(2); i > 0; i--) {
            extra.addAll(EPP_EXTRA_ARGS.get(r.nextInt(EPP_EXTRA_ARGS.size())));
        }
        epp.put("extraArgs", extra);
        epp.put("replicas", pick(r, 1, 1, 2));
        return List.of("inferencePool.epp.extraArgs", "inferencePool.epp.replicas");
    }

    /** A KEDA trigger of the given type: a cron, another Prometheus query, cpu or memory. */
    private static Map<String, Object> trigger(String type, Random r) {
        Map<String, Object> t = map("type", type);
        switch (type) {
            case "cron" -> t.put("metadata", map("timezone", "UTC", "start", "0 8 * * 1-5", "end", "0 20 * * 1-5", "desiredReplicas", "1"));
            case "prometheus" -> t.put("metadata", map("serverAddress", "http://prometheus-operated.monitoring.svc:9090",
                    "query", "sum(rate(inference_pool_requests_total[1m]))", "threshold", "10"));
            default -> {
                t.put("metricType", "Utilization");
                t.put("metadata", map("value", "80"));
            }
        }
        String name = pick(r, "", "", "wake", "wake", "num-requests-waiting", "gateway");
        if (!name.isEmpty()) {
            t.put("name", name);
        }
        if (r.nextInt(3) == 0) {
            t.put("useCachedMetrics", r.nextInt(3) != 0);
        }
        return t;
    }

    private static List<String> keda(Map<String, Object> v, Random r) {
        Map<String, Object> a = child(v, "autoscaling");
        a.put("enabled", r.nextInt(10) != 0);
        a.put("minReplicas", pick(r, 1, 1, 2, 3));
        a.put("maxReplicas", pick(r, 3, 4, 10));
        Map<String, Object> keda = child(a, "keda");
        keda.put("enabled", true);
        List<String> keys = new ArrayList<>(List.of("autoscaling.keda.enabled", "autoscaling.enabled", "autoscaling.minReplicas",
                "autoscaling.maxReplicas", "autoscaling.keda.triggers"));
        if (r.nextInt(3) == 0) {
            keda.put("idleReplicaCount", pick(r, 0, 0, 1, 2));
            keys.add("autoscaling.keda.idleReplicaCount");
        }
        keda.put("pollingInterval", pick(r, 15, 30));
        keda.put("cooldownPeriod", pick(r, 60, 300, 900));
        Map<String, Object> prom = child(keda, "prometheus");
        prom.put("enabled", pick(r, true, true, false));
        prom.put("serverAddress", pick(r, "http://prometheus-operated.monitoring.svc:9090", "http://prometheus-operated.monitoring.svc:9090", ""));
        if (r.nextInt(3) == 0) {
            prom.put("metricName", pick(r, "num_requests_waiting", "gpu_cache_usage_perc", "vllm:num_requests_waiting", "queue"));
            keys.add("autoscaling.keda.prometheus.metricName");
        }
        if (r.nextInt(4) == 0) {
            prom.put("query", "sum(num_requests_waiting)");
            prom.put("threshold", pick(r, "4", "0.5"));
            prom.put("activationThreshold", pick(r, "0", "1"));
        }
        if (r.nextInt(5) == 0) {
            prom.put("authenticationRef", map("name", "prometheus-auth", "kind", pick(r, "TriggerAuthentication", "ClusterTriggerAuthentication")));
        }
        List<Object> triggers = new ArrayList<>();
        for (int i = r.nextInt(4); i > 0; i--) {
            triggers.add(trigger(pick(r, "cron", "cron", "prometheus", "cpu", "memory"), r));
        }
        keda.put("triggers", triggers);
        if (triggers.stream().anyMatch(t -> List.of("cpu", "memory").contains(((Map<?, ?>) t).get("type"))) && r.nextBoolean()) {
            // The chart's default requests cpu and memory; a user's values may take one away (null deletes it).
            Map<String, Object> requests = new LinkedHashMap<>();
            requests.put(pick(r, "cpu", "memory"), null);
            child(v, "resources").put("requests", requests);
            keys.add("resources");
        }
        if (r.nextInt(4) == 0) {
            a.put("nimMetrics", List.of(map("name", "num_requests_waiting", "type", "Pods", "averageValue", "4")));
            keys.add("autoscaling.nimMetrics");
        }
        if (r.nextInt(6) == 0) {
            a.put("metrics", List.of(map("type", "Resource", "resource", map("name", "cpu", "target", map("type", "Utilization", "averageUtilization", 80)))));
            keys.add("autoscaling.metrics");
        }
        if (r.nextInt(4) == 0) {
            a.put("behavior", map("scaleDown", map("stabilizationWindowSeconds", pick(r, 60, 600))));
            keys.add("autoscaling.behavior");
        }
        return keys;
    }

    /** The HorizontalPodAutoscaler on NIM's own metrics: types, targets, selectors. */
    private static List<String> hpaMetrics(Map<String, Object> v, Random r) {
        Map<String, Object> a = child(v, "autoscaling");
        a.put("enabled", true);
        a.put("minReplicas", pick(r, 1, 2));
        a.put("maxReplicas", pick(r, 2, 8));
        List<Object> metrics = new ArrayList<>();
        for (int i = 1 + r.nextInt(2); i > 0; i--) {
            String type = pick(r, "Pods", "Object", "External");
            Map<String, Object> m = map("name", pick(r, "num_requests_waiting", "gpu_cache_usage_perc", "vllm:num_requests_waiting",
                    "vllm:kv_cache_usage_perc"), "type", type);
            if (r.nextInt(4) == 0) {
                m.put("value", pick(r, "4", "800m"));
            } else {
                m.put("averageValue", pick(r, "4", "800m", "0.5"));
            }
            if (r.nextInt(4) == 0) {
                m.put("selector", map("model", "llama"));
            }
            metrics.add(m);
        }
        a.put("nimMetrics", metrics);
        return List.of("autoscaling.nimMetrics", "autoscaling.minReplicas", "autoscaling.maxReplicas");
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
