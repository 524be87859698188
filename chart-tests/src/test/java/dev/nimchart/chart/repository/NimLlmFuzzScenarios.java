package dev.nimchart.chart.repository;

import dev.nimchart.fuzz.FuzzScenario;
import dev.nimchart.fuzz.FuzzScenarios;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * nim-llm's fuzz documents start from a coherent deployment, so that random documents reach every kind of workload:
 * a workload kind (StatefulSet, Deployment, LeaderWorkerSet, MPIJob), a model cache backend, and for multi-node a
 * networking provider, with the GPU counts, device counts and access modes the chart's rules ask for. The traits a
 * fuzz run counts among rendered documents: the workload, {@code cache <backend>}, and for multi-node
 * {@code multi-node networking <provider>}. Switched on by {@link NimLlmRules#fuzzScenario(Random)}.
 */
public final class NimLlmFuzzScenarios implements FuzzScenarios {

    public static final List<String> WORKLOADS = List.of("statefulset", "deployment", "leaderworkerset", "mpijob");
    public static final List<String> CACHES = List.of("emptyDir", "pvc", "existingClaim", "hostPath", "nfs");
    public static final List<String> PROVIDERS = List.of("none", "aws", "azure", "gcp", "oci");

    @Override
    public FuzzScenario draw(Random random) {
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
        List<String> traits = new ArrayList<>(List.of(workload, "cache " + cache));
        if (multiNode) {
            traits.add("multi-node networking " + provider);
        }
        return new FuzzScenario(workload + ", cache " + cache + ", networking " + provider, traits, values);
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
