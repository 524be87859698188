package dev.nimchart.cluster;

import dev.nimchart.objects.KubeObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Kubernetes REST API as plain JSON maps, over the TLS client that client-java builds from a kubeconfig. Plain
 * requests rather than typed clients, because the tier needs what typed clients hide: {@code fieldValidation=Strict},
 * {@code dryRun=All}, the server's Warning headers, and every resource kind, custom ones included.
 */
public final class KubeApi {

    private static final MediaType JSON = MediaType.get("application/json");

    private final OkHttpClient http;
    private final String base;
    private List<ApiResource> resources;

    /** A resource the server serves: {@code apps/v1 statefulsets (StatefulSet)}. */
    public record ApiResource(String groupVersion, String plural, String kind, boolean namespaced, List<String> verbs) {

        public String collectionPath(String namespace) {
            String prefix = groupVersion.contains("/") ? "/apis/" + groupVersion : "/api/" + groupVersion;
            return namespaced ? prefix + "/namespaces/" + namespace + "/" + plural : prefix + "/" + plural;
        }

        public String group() {
            return groupVersion.contains("/") ? groupVersion.substring(0, groupVersion.indexOf('/')) : "";
        }
    }

    /** One response: status code, body (a Status for errors) and the Warning headers' texts. */
    public record Response(int code, Map<String, Object> body, List<String> warnings) {

        public boolean ok() {
            return code >= 200 && code < 300;
        }

        /** The message of a Status body, or the code. */
        public String message() {
            Object message = body.get("message");
            return message == null ? "HTTP " + code : message.toString();
        }
    }

    public KubeApi(String kubeConfigYaml) {
        try {
            ApiClient client = ClientBuilder.kubeconfig(KubeConfig.loadKubeConfig(new StringReader(kubeConfigYaml))).build();
            this.http = client.getHttpClient();
            this.base = client.getBasePath().replaceAll("/+$", "");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the cluster's kubeconfig", e);
        }
    }

    public Response get(String path) {
        return call(new Request.Builder().url(base + path).get());
    }

    public Response post(String path, Object body) {
        return call(new Request.Builder().url(base + path).post(RequestBody.create(JsonMapper.shared().writeValueAsBytes(body), JSON)));
    }

    /** A JSON merge patch (RFC 7386) of the object at path (a status subresource path patches the status). */
    public Response mergePatch(String path, Object patch) {
        return call(new Request.Builder().url(base + path).patch(RequestBody.create(JsonMapper.shared().writeValueAsBytes(patch),
                MediaType.get("application/merge-patch+json"))));
    }

    /** A forced server-side apply of body to the object at path, as fieldManager (a status subresource path applies the status). */
    public Response apply(String path, Object body, String fieldManager) {
        return call(new Request.Builder().url(base + path + "?force=true&fieldManager=" + encode(fieldManager))
                .patch(RequestBody.create(JsonMapper.shared().writeValueAsBytes(body), MediaType.get("application/apply-patch+yaml"))));
    }

    /**
     * Watches a collection for up to {@code timeoutSeconds} (the server then ends the watch), from {@code resourceVersion}
     * on, and hands each event ({@code type} and {@code object}) to {@code onEvent} as it arrives. Returns the resource
     * version to go on from, or null when the server says that version is gone (list again).
     */
    @SuppressWarnings("unchecked")
    public String watch(String path, String resourceVersion, int timeoutSeconds, java.util.function.Consumer<KubeObject> onEvent) {
        Request built = new Request.Builder().url(base + path + "?watch=true&allowWatchBookmarks=true&timeoutSeconds="
                + timeoutSeconds + "&resourceVersion=" + encode(resourceVersion)).header("Accept", "application/json").build();
        String version = resourceVersion;
        try (okhttp3.Response response = http.newCall(built).execute()) {
            if (!response.isSuccessful() || response.body() == null) {
                throw new IllegalStateException("cannot watch " + path + ": HTTP " + response.code());
            }
            okio.BufferedSource source = response.body().source();
            for (String line; (line = source.readUtf8Line()) != null; ) {
                if (line.isBlank()) {
                    continue;
                }
                KubeObject event = new KubeObject(JsonMapper.shared().readValue(line, Map.class));
                if ("ERROR".equals(event.at("type"))) {
                    return null;
                }
                Object next = event.at("object.metadata.resourceVersion");
                version = next == null ? version : next.toString();
                if (!"BOOKMARK".equals(event.at("type"))) {
                    onEvent.accept(event);
                }
            }
            return version;
        } catch (IOException e) {
            throw new UncheckedIOException("watching " + path + " failed", e);
        }
    }

    public Response delete(String path) {
        return call(new Request.Builder().url(base + path).delete());
    }

    /** Creates an object in a namespace with strict field validation; with dryRun the server admits it but stores nothing. */
    public Response create(KubeObject object, String namespace, boolean dryRun) {
        ApiResource resource = resource(object.apiVersion(), object.kind());
        String query = "?fieldValidation=Strict" + (dryRun ? "&dryRun=All" : "");
        return post(resource.collectionPath(namespace) + query, object.raw());
    }

    /** The object of this kind and name, read back from the server. */
    public Optional<KubeObject> read(String apiVersion, String kind, String namespace, String name) {
        Response response = get(resource(apiVersion, kind).collectionPath(namespace) + "/" + encode(name));
        if (response.code() == 404) {
            return Optional.empty();
        }
        return Optional.of(new KubeObject(require(response, "read " + kind + "/" + name)));
    }

    /** Every object in the namespace, of every namespaced kind the server can list (events excepted). */
    @SuppressWarnings("unchecked")
    public List<KubeObject> objectsIn(String namespace) {
        List<KubeObject> objects = new ArrayList<>();
        for (ApiResource r : resources()) {
            if (!r.namespaced() || !r.verbs().contains("list") || r.kind().equals("Event")) {
                continue;
            }
            Map<String, Object> list = require(get(r.collectionPath(namespace)), "list " + r.plural());
            for (Object item : (List<Object>) list.getOrDefault("items", List.of())) {
                Map<String, Object> object = new LinkedHashMap<>((Map<String, Object>) item);
                // List items carry no apiVersion/kind of their own.
                object.put("apiVersion", r.groupVersion());
                object.put("kind", r.kind());
                objects.add(new KubeObject(object));
            }
        }
        return objects;
    }

    /** Whether the server serves this apiVersion and kind (the discovery read again after a miss, as {@link #resource}). */
    public boolean serves(String apiVersion, String kind) {
        return findResource(apiVersion, kind).or(() -> {
            resources = null;
            return findResource(apiVersion, kind);
        }).isPresent();
    }

    /** The server's resource for an apiVersion and kind; the discovery is read once and again after a miss (new CRDs). */
    public ApiResource resource(String apiVersion, String kind) {
        return findResource(apiVersion, kind).or(() -> {
            resources = null;
            return findResource(apiVersion, kind);
        }).orElseThrow(() -> new IllegalStateException("the API server serves no " + kind + " in " + apiVersion));
    }

    /** Every top-level resource the server serves, at each group's preferred version. */
    @SuppressWarnings("unchecked")
    public synchronized List<ApiResource> resources() {
        if (resources == null) {
            List<ApiResource> found = new ArrayList<>(resourcesOf("v1", "/api/v1"));
            Map<String, Object> groups = require(get("/apis"), "discover API groups");
            for (Object g : (List<Object>) groups.getOrDefault("groups", List.of())) {
                Map<String, Object> preferred = (Map<String, Object>) ((Map<String, Object>) g).get("preferredVersion");
                String groupVersion = preferred.get("groupVersion").toString();
                found.addAll(resourcesOf(groupVersion, "/apis/" + groupVersion));
            }
            resources = List.copyOf(found);
        }
        return resources;
    }

    /** The body of a successful response; otherwise an error naming what was attempted and the server's message. */
    public static Map<String, Object> require(Response response, String what) {
        if (!response.ok()) {
            throw new IllegalStateException("cannot " + what + ": " + response.message());
        }
        return response.body();
    }

    private Optional<ApiResource> findResource(String apiVersion, String kind) {
        return resources().stream().filter(r -> r.groupVersion().equals(apiVersion) && r.kind().equals(kind)).findFirst();
    }

    @SuppressWarnings("unchecked")
    private List<ApiResource> resourcesOf(String groupVersion, String path) {
        Map<String, Object> list = require(get(path), "discover " + groupVersion);
        List<ApiResource> found = new ArrayList<>();
        for (Object o : (List<Object>) list.getOrDefault("resources", List.of())) {
            Map<String, Object> r = (Map<String, Object>) o;
            String name = r.get("name").toString();
            if (!name.contains("/")) {
                found.add(new ApiResource(groupVersion, name, r.get("kind").toString(),
                        Boolean.TRUE.equals(r.get("namespaced")), (List<String>) r.getOrDefault("verbs", List.of())));
            }
        }
        return found;
    }

    @SuppressWarnings("unchecked")
    private Response call(Request.Builder request) {
        Request built = request.header("Accept", "application/json").build();
        try (okhttp3.Response response = http.newCall(built).execute()) {
            String text = response.body() == null ? "" : response.body().string();
            Map<String, Object> body = text.isBlank() ? Map.of() : text.stripLeading().startsWith("{")
                    ? JsonMapper.shared().readValue(text, Map.class) : Map.of("message", text.strip()); // /readyz, /healthz: plain text
            return new Response(response.code(), body, response.headers("Warning").stream().map(KubeApi::warningText).toList());
        } catch (IOException e) {
            throw new UncheckedIOException(built.method() + " " + built.url() + " failed", e);
        }
    }

    /** The text of a Warning header, {@code 299 - "text"}, without code, agent and quotes. */
    static String warningText(String header) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^\\d{3} \\S+ \"(.*)\"$").matcher(header.trim());
        return m.matches() ? m.group(1).replace("\\\"", "\"") : header;
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
