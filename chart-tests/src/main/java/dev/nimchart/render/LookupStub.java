package dev.nimchart.render;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.json.JsonMapper;

/**
 * A loopback stand-in for the Kubernetes API that answers Helm's {@code lookup} calls during offline renders.
 *
 * <p>helm-java's {@code template} (unlike the {@code helm template} CLI) performs real lookups against the cluster of
 * {@code KUBECONFIG}. The build points {@code KUBECONFIG} at a file named {@value #KUBECONFIG_FILE_NAME}; this stub
 * writes that file to address itself, so renders never reach a real cluster, and tests can hand the chart "lookup
 * data" (an existing Secret) the way an upgrade would see it.
 */
public final class LookupStub {

    public static final String KUBECONFIG_FILE_NAME = "lookup-stub.kubeconfig";
    /**
     * The stub at the address of this process's KUBECONFIG file. helm-java reads {@code KUBECONFIG} from the process
     * environment, which a JVM cannot change, so every renderer of the process reaches the same address: the renderers
     * share the one stub serving it ({@link ChartRenderer#lookups()}), and nothing else starts or asks for it.
     */
    private static LookupStub serving;

    private final HttpServer server;
    private final Map<String, Map<String, String>> secrets = new ConcurrentHashMap<>();
    /** Live objects by collection path (e.g. /apis/apps/v1/namespaces/nim/statefulsets), then by name. */
    private final Map<String, Map<String, Map<String, Object>>> objects = new ConcurrentHashMap<>();

    /** The resources the chart looks up, by API group version, as the discovery endpoints list them. */
    private static final Map<String, List<Map<String, Object>>> RESOURCES = Map.of(
            "/api/v1", List.of(resource("secrets", "Secret"), resource("persistentvolumeclaims", "PersistentVolumeClaim")),
            "/apis/apps/v1", List.of(resource("statefulsets", "StatefulSet"), resource("deployments", "Deployment")));

    private LookupStub(Path kubeconfig) throws IOException {
        // Without TCP_NODELAY every answer waits for the client's delayed ACK (~40 ms): a render's six lookup requests
        // took 300 ms of its time. The JDK's HTTP server reads this property when its first server starts.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::answer);
        server.start();
        Files.createDirectories(kubeconfig.toAbsolutePath().getParent());
        Files.writeString(kubeconfig, kubeconfigText(server.getAddress().getPort()));
    }

    /**
     * The stub serving this process's KUBECONFIG file, which the renderer's settings name
     * ({@code Settings.lookupKubeconfig()}), started by the first renderer that renders; fails clearly when they name
     * no stub file.
     */
    static synchronized LookupStub forRenderers(java.util.Optional<Path> lookupKubeconfig) {
        if (serving == null) {
            // Helm's lookups read the process's KUBECONFIG, which a JVM cannot change: whoever built the settings read it
            String kubeconfig = lookupKubeconfig.map(Path::toString).orElse(null);
            if (kubeconfig == null || !Path.of(kubeconfig).getFileName().toString().equals(KUBECONFIG_FILE_NAME)) {
                throw new IllegalStateException("helm-java renders perform Helm lookups against the cluster of the process's "
                        + "KUBECONFIG, so the renderer needs a lookup stub there: start the JVM with KUBECONFIG set to a writable "
                        + "path ending in " + KUBECONFIG_FILE_NAME + " (in Maven: Surefire's <environmentVariables>) and give that "
                        + "path as Settings.withLookupKubeconfig(PATH) (found: " + kubeconfig + ")");
            }
            try {
                serving = new LookupStub(Path.of(kubeconfig));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start the lookup stub", e);
            }
        }
        return serving;
    }

    /** Makes {@code lookup "v1" "Secret" namespace name} return a Secret with these (base64) data entries. */
    public void putSecret(String namespace, String name, Map<String, String> base64Data) {
        secrets.put(namespace + "/" + name, Map.copyOf(base64Data));
    }

    /** Makes that lookup find nothing again. */
    public void removeSecret(String namespace, String name) {
        secrets.remove(namespace + "/" + name);
    }

    /**
     * Makes lookups of this object's kind in its namespace (by name, or the whole list) find it, as a live object of
     * the cluster: {@code object} is the object as the API server would return it (apiVersion, kind, metadata.name and
     * metadata.namespace set). Kinds: those of {@link #RESOURCES}.
     */
    public void putObject(Map<String, Object> object) {
        objects.computeIfAbsent(collection(object), k -> new ConcurrentHashMap<>()).put(name(object), object);
    }

    /** Forgets every object {@link #putObject} stored in this namespace. */
    public void clearObjects(String namespace) {
        objects.keySet().removeIf(path -> path.contains("/namespaces/" + namespace + "/"));
    }

    @SuppressWarnings("unchecked")
    private static String name(Map<String, Object> object) {
        return ((Map<String, Object>) object.get("metadata")).get("name").toString();
    }

    @SuppressWarnings("unchecked")
    private static String collection(Map<String, Object> object) {
        String apiVersion = object.get("apiVersion").toString();
        String group = apiVersion.contains("/") ? "/apis/" + apiVersion : "/api/" + apiVersion;
        String kind = object.get("kind").toString();
        String plural = RESOURCES.getOrDefault(group, List.of()).stream().filter(r -> r.get("kind").equals(kind))
                .map(r -> r.get("name").toString()).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("the lookup stub serves no " + kind + " of " + apiVersion));
        String namespace = ((Map<String, Object>) object.get("metadata")).get("namespace").toString();
        return group + "/namespaces/" + namespace + "/" + plural;
    }

    private static Map<String, Object> resource(String plural, String kind) {
        return Map.of("name", plural, "singularName", kind.toLowerCase(java.util.Locale.ROOT), "namespaced", true, "kind", kind,
                "verbs", List.of("get", "list"));
    }

    /**
     * The answers that never change, serialized once: the discovery lists of {@link #RESOURCES} by path, and the 404
     * of everything the stub does not hold (most of an offline render's requests: every lookup of an object that is
     * not there).
     */
    private static final Map<String, byte[]> DISCOVERY = discoveryAnswers();
    private static final byte[] NOT_FOUND = JsonMapper.shared().writeValueAsBytes(
            Map.of("kind", "Status", "apiVersion", "v1", "status", "Failure", "reason", "NotFound", "code", 404));

    private static Map<String, byte[]> discoveryAnswers() {
        Map<String, byte[]> answers = new java.util.HashMap<>();
        RESOURCES.forEach((path, resources) -> answers.put(path, JsonMapper.shared().writeValueAsBytes(Map.of("kind", "APIResourceList",
                "apiVersion", "v1", "groupVersion", path.replaceFirst("^/apis?/", ""), "resources", resources))));
        return Map.copyOf(answers);
    }

    private void answer(HttpExchange exchange) throws IOException {
        String[] path = exchange.getRequestURI().getPath().split("/");
        Map<String, Object> body;
        String requested = exchange.getRequestURI().getPath();
        String parent = requested.substring(0, Math.max(requested.lastIndexOf('/'), 0));
        if (DISCOVERY.containsKey(requested)) {
            send(exchange, 200, DISCOVERY.get(requested));
            return;
        } else if (objects.containsKey(requested)) {
            body = Map.of("kind", "List", "apiVersion", "v1", "metadata", Map.of(), "items", List.copyOf(objects.get(requested).values()));
        } else if (objects.containsKey(parent) && objects.get(parent).containsKey(requested.substring(parent.length() + 1))) {
            body = objects.get(parent).get(requested.substring(parent.length() + 1));
        } else if (path.length == 7 && path[5].equals("secrets")
                && secrets.containsKey(path[4] + "/" + path[6])) {
            body = secret(path[4], path[6], secrets.get(path[4] + "/" + path[6]));
        } else {
            send(exchange, 404, NOT_FOUND);
            return;
        }
        send(exchange, 200, JsonMapper.shared().writeValueAsBytes(body));
    }

    private static void send(HttpExchange exchange, int status, byte[] bytes) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    private static Map<String, Object> secret(String namespace, String name, Map<String, String> data) {
        Map<String, Object> secret = new LinkedHashMap<>();
        secret.put("kind", "Secret");
        secret.put("apiVersion", "v1");
        secret.put("metadata", Map.of("name", name, "namespace", namespace));
        secret.put("type", "Opaque");
        secret.put("data", data);
        return secret;
    }

    private static String kubeconfigText(int port) {
        return String.join("\n",
                "# Written by dev.nimchart.render.LookupStub: a loopback stand-in for Helm lookups during offline renders.",
                "apiVersion: v1",
                "kind: Config",
                "clusters:",
                "  - name: lookup-stub",
                "    cluster:",
                "      server: http://127.0.0.1:" + port,
                "contexts:",
                "  - name: lookup-stub",
                "    context: {cluster: lookup-stub, user: lookup-stub}",
                "current-context: lookup-stub",
                "users:",
                "  - name: lookup-stub",
                "    user: {}",
                "");
    }
}
