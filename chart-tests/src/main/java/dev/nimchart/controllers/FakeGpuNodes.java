package dev.nimchart.controllers;

import dev.nimchart.cluster.LocalProcess;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.cluster.KubeApi;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.Yaml;

/**
 * The fake nodes, as data: the pools of {@code fake-gpu-nodes.yaml} (or the file of {@value #NODES_FILE}) become Node
 * objects that kwok manages, with the pools' labels, taints and capacities (GPUs and network devices included).
 */
public final class FakeGpuNodes {

    public static final String NODES_FILE = "nim.nodes.file";
    private static final String BUILT_IN = "/dev/nimchart/controllers/fake-gpu-nodes.yaml";

    private FakeGpuNodes() {
    }

    /** Creates every node of every pool and returns their names once kwok reports each Ready. */
    public static List<String> create(KubeApi api) {
        List<Map<String, Object>> nodes = nodes(readPools());
        for (Map<String, Object> node : nodes) {
            KubeApi.require(api.post("/api/v1/nodes?fieldValidation=Strict", node), "create the fake node " + name(node));
        }
        List<String> names = nodes.stream().map(FakeGpuNodes::name).toList();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        for (String name : names) {
            while (!ready(api, name)) {
                if (System.nanoTime() > deadline) {
                    throw new ControllerTierException("kwok did not make the fake node " + name + " Ready within 60 s");
                }
                LocalProcess.sleep(50);
            }
        }
        return names;
    }

    /** The Node objects of the pools file, as {@link #create} makes them. */
    static List<Map<String, Object>> nodeObjects() {
        return nodes(readPools());
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> nodes(Map<String, Object> file) {
        Map<String, Object> common = (Map<String, Object>) file.getOrDefault("common", Map.of());
        List<Map<String, Object>> nodes = new ArrayList<>();
        for (Map<String, Object> pool : (List<Map<String, Object>>) file.getOrDefault("pools", List.of())) {
            String poolName = pool.get("name").toString();
            int count = ((Number) pool.getOrDefault("count", 1)).intValue();
            for (int i = 0; i < count; i++) {
                String name = poolName + "-" + i;
                Map<String, Object> labels = new LinkedHashMap<>((Map<String, Object>) common.getOrDefault("labels", Map.of()));
                labels.putAll((Map<String, Object>) pool.getOrDefault("labels", Map.of()));
                labels.put("kubernetes.io/hostname", name);
                labels.put("nim-chart-tests/pool", poolName);
                Map<String, Object> capacity = new LinkedHashMap<>((Map<String, Object>) common.getOrDefault("capacity", Map.of()));
                ((Map<String, Object>) pool.getOrDefault("capacity", Map.of())).forEach((k, v) -> capacity.put(k, v.toString()));
                capacity.replaceAll((k, v) -> v.toString());
                Map<String, Object> spec = new LinkedHashMap<>();
                if (pool.containsKey("taints")) {
                    spec.put("taints", pool.get("taints"));
                }
                nodes.add(Map.of("apiVersion", "v1", "kind", "Node",
                        "metadata", Map.of("name", name, "labels", labels,
                                "annotations", Map.of(KwokProcess.NODE_ANNOTATION, KwokProcess.NODE_ANNOTATION_VALUE,
                                        "node.alpha.kubernetes.io/ttl", "0")),
                        "spec", spec,
                        "status", Map.of("capacity", capacity, "allocatable", capacity)));
            }
        }
        if (nodes.isEmpty()) {
            throw new ControllerTierException("the node pools file defines no nodes");
        }
        return nodes;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> readPools() {
        String configured = System.getProperty(NODES_FILE, "");
        try (InputStream in = configured.isBlank() ? FakeGpuNodes.class.getResourceAsStream(BUILT_IN)
                : Files.newInputStream(Path.of(configured))) {
            if (in == null) {
                throw new ControllerTierException("the built-in node pools " + BUILT_IN + " are missing from the classpath");
            }
            return new Yaml().load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the node pools file " + configured, e);
        }
    }

    private static boolean ready(KubeApi api, String name) {
        KubeApi.Response r = api.get("/api/v1/nodes/" + name);
        return r.ok() && new KubeObject(r.body()).list("status.conditions").stream()
                .anyMatch(c -> "Ready".equals(c.at("type")) && "True".equals(c.at("status")));
    }

    @SuppressWarnings("unchecked")
    private static String name(Map<String, Object> node) {
        return ((Map<String, Object>) node.get("metadata")).get("name").toString();
    }
}
