package dev.nimchart.controllers;

import dev.nimchart.settings.Settings;
import dev.nimchart.cluster.KubeApi;
import java.nio.file.Path;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * The devices of the fake nodes, as data: the DeviceClasses and per-pool devices of {@code fake-resource-slices.yaml}
 * (or the file of {@value #SLICES_FILE}) become DeviceClass objects and one ResourceSlice per node and driver, as a DRA
 * driver's kubelet plugin would publish them. The real kube-scheduler allocates claims from them.
 */
public final class FakeResourceSlices {

    public static final String SLICES_FILE = "nim.slices.file";
    private static final String BUILT_IN = "/dev/nimchart/controllers/fake-resource-slices.yaml";
    private static final String API = "/apis/resource.k8s.io/v1";

    private FakeResourceSlices() {
    }

    /** Creates the DeviceClasses and the slices of every fake node whose pool lists devices; returns the slice count. */
    public static int create(KubeApi api, Settings settings, List<Map<String, Object>> nodes) {
        Map<String, Object> file = read(settings);
        for (Map<String, Object> c : list(file.get("deviceClasses"))) {
            KubeApi.require(api.post(API + "/deviceclasses?fieldValidation=Strict", deviceClass(c)), "create the DeviceClass " + c.get("name"));
        }
        List<Map<String, Object>> slices = slices(file, nodes);
        for (Map<String, Object> slice : slices) {
            KubeApi.require(api.post(API + "/resourceslices?fieldValidation=Strict", slice), "create a ResourceSlice " + slice.get("metadata"));
        }
        return slices.size();
    }

    /** The slices of one node again (after the node was deleted and created anew); slices still there are kept. */
    static void restore(KubeApi api, Settings settings, Map<String, Object> node) {
        for (Map<String, Object> slice : slices(read(settings), List.of(node))) {
            KubeApi.Response r = api.post(API + "/resourceslices?fieldValidation=Strict", slice);
            if (r.code() != 409) {
                KubeApi.require(r, "create a ResourceSlice again " + slice.get("metadata"));
            }
        }
    }

    static Map<String, Object> deviceClass(Map<String, Object> c) {
        return Map.of("apiVersion", "resource.k8s.io/v1", "kind", "DeviceClass",
                "metadata", Map.of("name", c.get("name")),
                "spec", Map.of("selectors", List.of(Map.of("cel", Map.of("expression", c.get("expression"))))));
    }

    /** The ResourceSlices of the given Node objects (those of pools the file lists). */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> slices(Map<String, Object> file, List<Map<String, Object>> nodes) {
        Map<String, Object> pools = (Map<String, Object>) file.getOrDefault("pools", Map.of());
        List<Map<String, Object>> slices = new ArrayList<>();
        for (Map<String, Object> node : nodes) {
            Map<String, Object> metadata = (Map<String, Object>) node.get("metadata");
            Map<String, Object> labels = (Map<String, Object>) metadata.get("labels");
            String nodeName = metadata.get("name").toString();
            Object pool = labels.get("nim-chart-tests/pool");
            for (Map<String, Object> entry : list(pools.get(pool))) {
                String driver = entry.get("driver").toString();
                int count = ((Number) entry.get("count")).intValue();
                List<Map<String, Object>> devices = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    Map<String, Object> attributes = new LinkedHashMap<>();
                    ((Map<String, Object>) entry.getOrDefault("attributes", Map.of())).forEach((k, v) -> attributes.put(k, attribute(v, labels, nodeName, k)));
                    attributes.put("index", Map.of("int", i));
                    Map<String, Object> device = new LinkedHashMap<>();
                    device.put("name", entry.get("prefix").toString() + i);
                    device.put("attributes", attributes);
                    if (entry.containsKey("capacity")) {
                        device.put("capacity", entry.get("capacity"));
                    }
                    devices.add(device);
                }
                String name = nodeName + "-" + driver.replace('.', '-');
                slices.add(Map.of("apiVersion", "resource.k8s.io/v1", "kind", "ResourceSlice",
                        "metadata", Map.of("name", name),
                        "spec", Map.of("driver", driver, "nodeName", nodeName,
                                "pool", Map.of("name", nodeName, "generation", 1, "resourceSliceCount", 1),
                                "devices", devices)));
            }
        }
        return slices;
    }

    @SuppressWarnings("unchecked")
    private static Object attribute(Object value, Map<String, Object> labels, String node, String name) {
        if (value instanceof Map<?, ?> m && m.containsKey("nodeLabel")) {
            Object label = labels.get(m.get("nodeLabel").toString());
            if (label == null) {
                throw new ControllerTierException("the device attribute " + name + " of node " + node + " takes the node label "
                        + m.get("nodeLabel") + ", which the node does not have");
            }
            return Map.of("string", label.toString());
        }
        return value;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Object o) {
        return o == null ? List.of() : (List<Map<String, Object>>) o;
    }

    static Map<String, Object> read(Settings settings) {
        String configured = settings.slicesFile().map(Path::toString).orElse("");
        try (InputStream in = settings.slicesFile().isEmpty() ? FakeResourceSlices.class.getResourceAsStream(BUILT_IN)
                : Files.newInputStream(settings.slicesFile().get())) {
            if (in == null) {
                throw new ControllerTierException("the built-in device file " + BUILT_IN + " is missing from the classpath");
            }
            LoaderOptions options = new LoaderOptions();
            options.setAllowDuplicateKeys(false);
            return new Yaml(options).load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the device file " + configured, e);
        }
    }
}
