package dev.nimchart.fuzz;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A coherent deployment to start a fuzz document from, so that random documents reach every kind of workload:
 * a workload kind (StatefulSet, Deployment, LeaderWorkerSet, MPIJob), a model cache backend, and for multi-node a
 * networking provider, with the GPU counts, device counts and access modes the chart's rules ask for.
 */
public record FuzzScenario(String workload, String cache, String provider, Map<String, Object> values) {

    public static final List<String> WORKLOADS = List.of("statefulset", "deployment", "leaderworkerset", "mpijob");
    public static final List<String> CACHES = List.of("emptyDir", "pvc", "existingClaim", "hostPath", "nfs");
    public static final List<String> PROVIDERS = List.of("none", "aws", "azure", "gcp", "oci");

    /** No scenario: a document of a chart whose schema refuses the scenarios' keys (a chart of another shape) starts empty. */
    public static final FuzzScenario NONE = new FuzzScenario("none", "none", "none", Map.of());

    static FuzzScenario random(Random random) {
        String workload = pick(random, WORKLOADS);
        boolean multiNode = workload.equals("leaderworkerset") || workload.equals("mpijob");
        String cache = pick(random, multiNode ? CACHES.subList(1, CACHES.size()) : CACHES);
        String provider = multiNode || random.nextInt(10) == 0 ? pick(random, PROVIDERS) : "none";
        int gpus = provider.equals("gcp") && multiNode ? 8 : pick(random, List.of(1, 2, 4, 8));
        int replicas = 1 + random.nextInt(3);

        Map<String, Object> values = new LinkedHashMap<>();
        values.put("replicaCount", replicas);
        values.put("resources", map("limits", map("nvidia.com/gpu", gpus)));
        if (multiNode) {
            Map<String, Object> m = map("enabled", true, "workers", 1 + random.nextInt(4), "gpusPerNode", gpus,
                    "leaderWorkerSet", map("enabled", workload.equals("leaderworkerset")));
            m.put("launchMode", pick(random, workload.equals("mpijob") ? List.of("auto", "mpi") : List.of("auto", "mpi", "native")));
            values.put("multiNode", m);
        } else {
            values.put("statefulSet", map("enabled", workload.equals("statefulset")));
        }
        boolean shared = multiNode || replicas > 1 || workload.equals("deployment");
        switch (cache) {
            case "pvc" -> values.put("persistence", map("enabled", true, "size", "100Gi",
                    "accessMode", shared && !workload.equals("statefulset") ? "ReadWriteMany" : "ReadWriteOnce"));
            case "existingClaim" -> values.put("persistence", map("enabled", true, "existingClaim", "nim-cache",
                    "accessMode", "ReadWriteMany"));
            case "hostPath" -> values.put("hostPath", map("enabled", true, "path", "/mnt/nim-cache"));
            case "nfs" -> values.put("nfs", map("enabled", true, "server", "nfs.example.com", "path", "/exports/nim"));
            default -> { }
        }
        if (!provider.equals("none")) {
            values.put("multinodeNetworking", map(provider, providerValues(provider, gpus, random)));
        }
        return new FuzzScenario(workload, cache, provider, values);
    }

    /** The provider switched on with a device count a node of that cloud can have. */
    private static Map<String, Object> providerValues(String provider, int gpus, Random random) {
        Map<String, Object> p = map("enabled", true);
        switch (provider) {
            case "aws" -> {
                if (random.nextBoolean()) {
                    p.put("instanceType", pick(random, List.of("p4d.24xlarge", "p5.48xlarge", "p5en.48xlarge", "p6-b200.48xlarge")));
                } else {
                    p.put("efaDevicesPerGPU", 1 + random.nextInt(32 / gpus));
                }
            }
            case "azure" -> p.put("vmGeneration", pick(random, List.of("ndv4", "ndv5")));
            case "oci" -> p.put("rdmaDevicesPerGPU", 1 + random.nextInt(Math.min(2, 16 / gpus)));
            default -> { }
        }
        return p;
    }

    private static <T> T pick(Random random, List<T> choices) {
        return choices.get(random.nextInt(choices.size()));
    }

    private static Map<String, Object> map(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }
}
