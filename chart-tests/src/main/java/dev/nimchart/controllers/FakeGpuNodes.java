package dev.nimchart.controllers;

import dev.nimchart.settings.Settings;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.cluster.KubeApi;
import java.nio.file.Path;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
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
    public static List<String> create(KubeApi api, Settings settings) {
        List<Map<String, Object>> nodes = nodes(readPools(settings));
        for (Map<String, Object> node : nodes) {
            KubeApi.require(api.post("/api/v1/nodes?fieldValidation=Strict", node), "create the fake node " + name(node));
        }
        List<String> names = nodes.stream().map(FakeGpuNodes::name).toList();
        dev.nimchart.cluster.Poll.upTo(Duration.ofSeconds(60)).every(50)
                .until(() -> names.stream().filter(name -> !ready(api, name)).toList(), List::isEmpty)
                .orElseThrow(left -> new ControllerTierException("kwok did not make the fake nodes " + left + " Ready within 60 s"));
        return names;
    }

    /**
     * A node failing as a machine does: kwok stops managing it (its annotation removed, so no heartbeat and no pod
     * updates from it), and its kubelet's last reports arrive: the node's Ready condition False, and every pod on it
     * with its Ready and ContainersReady conditions False (the node lifecycle controller itself marks pods not Ready
     * only once a silent node's lease has expired, 40 s or more, which the suite does not wait for).
     */
    @SuppressWarnings("unchecked")
    public static void turnNotReady(KubeApi api, String name) {
        Map<String, Object> annotations = new LinkedHashMap<>();
        annotations.put(KwokProcess.NODE_ANNOTATION, null);
        KubeApi.require(api.mergePatch("/api/v1/nodes/" + name, Map.of("metadata", Map.of("annotations", annotations))),
                "take the fake node " + name + " from kwok");
        Map<String, Object> notReady = Map.of("type", "Ready", "status", "False", "reason", "KubeletNotReady",
                "message", "turned NotReady by the fault suite", "lastHeartbeatTime", java.time.Instant.now().toString(),
                "lastTransitionTime", java.time.Instant.now().toString());
        KubeApi.require(api.mergePatch("/api/v1/nodes/" + name + "/status", Map.of("status", Map.of("conditions", List.of(notReady)))),
                "turn the fake node " + name + " NotReady");
        Map<String, Object> pods = KubeApi.require(api.get("/api/v1/pods?fieldSelector=spec.nodeName%3D" + name), "list the pods on " + name);
        for (Object item : (List<Object>) pods.getOrDefault("items", List.of())) {
            PodReadiness.markNotReady(api, new KubeObject((Map<String, Object>) item), "NodeNotReady", null);
        }
    }

    /** Creates a node of the pools file again (after a test deleted it) and waits until kwok reports it Ready. */
    public static void restore(KubeApi api, Settings settings, String name) {
        Map<String, Object> node = nodes(readPools(settings)).stream().filter(n -> name(n).equals(name)).findFirst()
                .orElseThrow(() -> new ControllerTierException("the node pools define no node " + name));
        KubeApi.Response existing = api.get("/api/v1/nodes/" + name);
        if (existing.code() != 404) {
            KubeApi.require(api.delete("/api/v1/nodes/" + name), "delete the node " + name + " before restoring it");
            dev.nimchart.cluster.Poll.upTo(Duration.ofSeconds(30)).every(50).until(() -> api.get("/api/v1/nodes/" + name).code() == 404);
        }
        KubeApi.require(api.post("/api/v1/nodes?fieldValidation=Strict", node), "create the fake node " + name + " again");
        if (!dev.nimchart.cluster.Poll.upTo(Duration.ofSeconds(60)).every(50).until(() -> ready(api, name))) {
            throw new ControllerTierException("kwok did not make the restored node " + name + " Ready within 60 s");
        }
        FakeResourceSlices.restore(api, settings, node);
    }

    /** The Node objects of the pools file, as {@link #create} makes them. */
    static List<Map<String, Object>> nodeObjects(Settings settings) {
        return nodes(readPools(settings));
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
    private static Map<String, Object> readPools(Settings settings) {
        String configured = settings.nodesFile().map(Path::toString).orElse("");
        try (InputStream in = settings.nodesFile().isEmpty() ? FakeGpuNodes.class.getResourceAsStream(BUILT_IN)
                : Files.newInputStream(settings.nodesFile().get())) {
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
