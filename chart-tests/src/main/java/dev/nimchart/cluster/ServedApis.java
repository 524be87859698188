package dev.nimchart.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What an API server serves, read from its own discovery (as kubectl api-resources reads it): its version
 * ({@code /version}) and every kind at every group version it serves, not only each group's preferred one, top-level
 * resources only (no subresources). Built-in groups and the CRDs installed so far alike.
 */
public record ServedApis(String gitVersion, Set<String> kinds) {

    /** Reads the discovery of the API server behind {@code api} now. */
    @SuppressWarnings("unchecked")
    public static ServedApis of(KubeApi api) {
        String version = String.valueOf(KubeApi.require(api.get("/version"), "read the server's version").get("gitVersion"));
        Set<String> kinds = new TreeSet<>();
        addKinds(api, "v1", "/api/v1", kinds);
        Map<String, Object> groups = KubeApi.require(api.get("/apis"), "discover API groups");
        for (Object group : (List<Object>) groups.getOrDefault("groups", List.of())) {
            for (Object v : (List<Object>) ((Map<String, Object>) group).getOrDefault("versions", List.of())) {
                String groupVersion = String.valueOf(((Map<String, Object>) v).get("groupVersion"));
                addKinds(api, groupVersion, "/apis/" + groupVersion, kinds);
            }
        }
        return new ServedApis(version, kinds);
    }

    /** Whether the server serves this kind at this apiVersion ({@code group/version} or {@code v1}). */
    public boolean serves(String apiVersion, String kind) {
        return kinds.contains(key(apiVersion, kind));
    }

    /** The group versions that serve this kind (another version of the kind's group, say, when the asked one is gone). */
    public List<String> versionsOf(String kind) {
        List<String> found = new ArrayList<>();
        for (String k : kinds) {
            if (k.endsWith(" " + kind)) {
                found.add(k.substring(0, k.length() - kind.length() - 1));
            }
        }
        return found;
    }

    private static String key(String apiVersion, String kind) {
        return apiVersion + " " + kind;
    }

    @SuppressWarnings("unchecked")
    private static void addKinds(KubeApi api, String groupVersion, String path, Set<String> kinds) {
        Map<String, Object> list = KubeApi.require(api.get(path), "discover the resources of " + groupVersion);
        for (Object r : (List<Object>) list.getOrDefault("resources", List.of())) {
            Map<String, Object> resource = (Map<String, Object>) r;
            if (!String.valueOf(resource.get("name")).contains("/")) {
                kinds.add(key(groupVersion, String.valueOf(resource.get("kind"))));
            }
        }
    }
}
