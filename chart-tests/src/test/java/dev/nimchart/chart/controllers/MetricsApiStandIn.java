package dev.nimchart.chart.controllers;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.nimchart.cluster.FreePort;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.cluster.Pki;
import dev.nimchart.objects.KubeObject;
import java.io.IOException;
import java.io.Reader;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import tools.jackson.databind.json.JsonMapper;

/**
 * A STAND-IN for a metrics adapter (prometheus-adapter, KEDA's metrics server): a small HTTPS server on host loopback
 * that speaks the two metrics APIs the HorizontalPodAutoscaler controller reads, registered with the tier's real
 * kube-apiserver as APIServices, so the autoscaler reaches it through the API server's aggregator as on a cluster:
 * {@code custom.metrics.k8s.io/v1beta2} (discovery; {@code pods/*}/metric by label selector, one value per pod the
 * selector lists; an object's metric, such as one described on a Service) and {@code external.metrics.k8s.io/v1beta1}
 * (discovery; a metric by name and label selector). The values are the test's: it plays Prometheus, which a real
 * adapter would query. It does not authenticate the aggregator (a real adapter checks the front-proxy client
 * certificate; the tier's API server sends none). Every request is recorded.
 *
 * <p>Reaching it: an APIService names a Service; for a Service of type ExternalName the aggregator dials the external
 * name at the APIService's port ({@code k8s.io/apiserver} v0.34.10 {@code pkg/util/proxy.ResolveCluster}), here
 * {@code localhost}. It verifies the serving certificate against the APIService's {@code caBundle} for the name
 * {@code <service>.<namespace>.svc} ({@code kube-aggregator} {@code handler_proxy.go}), which the certificate carries.
 */
final class MetricsApiStandIn implements AutoCloseable {

    static final String CUSTOM = "custom.metrics.k8s.io";
    static final String CUSTOM_VERSION = "v1beta2";
    static final String EXTERNAL = "external.metrics.k8s.io";
    static final String EXTERNAL_VERSION = "v1beta1";
    static final String SERVICE = "nim-metrics-stand-in";
    private static final char[] PASSWORD = "stand-in".toCharArray();

    /** What the stand-in answered: the path, the label selector asked for, and the pods (or objects) it gave values for. */
    record Served(String path, String labelSelector, List<String> described) {
    }

    private final HttpsServer server;
    private final KubeApi api;
    private final Pki pki;
    private final String serviceNamespace;
    private final Map<String, Double> values = new ConcurrentHashMap<>();
    private final List<Served> served = new CopyOnWriteArrayList<>();
    private final List<String> refused = new CopyOnWriteArrayList<>();
    private boolean registered;

    private MetricsApiStandIn(HttpsServer server, KubeApi api, Pki pki, String serviceNamespace) {
        this.server = server;
        this.api = api;
        this.pki = pki;
        this.serviceNamespace = serviceNamespace;
    }

    /**
     * Starts the server on 127.0.0.1 with a certificate of a fresh CA under {@code dir}, for the Service
     * {@value #SERVICE} in {@code serviceNamespace} (not created yet: {@link #register}). {@code api} lists the pods a
     * {@code pods/*} query's selector selects.
     */
    static MetricsApiStandIn start(KubeApi api, Path dir, String serviceNamespace) {
        Pki pki = Pki.create(dir, List.of("127.0.0.1"), List.of("localhost", SERVICE + "." + serviceNamespace + ".svc"));
        try {
            SSLContext tls = SSLContext.getInstance("TLS");
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(keyStore(pki.file("apiserver.crt"), pki.file("apiserver.key")), PASSWORD);
            tls.init(keys.getKeyManagers(), null, null);
            HttpsServer server = HttpsServer.create(new InetSocketAddress("127.0.0.1", FreePort.take()), 16);
            server.setHttpsConfigurator(new HttpsConfigurator(tls));
            server.setExecutor(Executors.newFixedThreadPool(4, r -> {
                Thread t = new Thread(r, "metrics-api-stand-in");
                t.setDaemon(true);
                return t;
            }));
            MetricsApiStandIn standIn = new MetricsApiStandIn(server, api, pki, serviceNamespace);
            server.createContext("/", standIn::handle);
            server.start();
            return standIn;
        } catch (IOException | java.security.GeneralSecurityException e) {
            throw new IllegalStateException("cannot start the metrics API stand-in", e);
        }
    }

    int port() {
        return server.getAddress().getPort();
    }

    /** Sets the value every pod of {@code namespace} reports for {@code metric} ({@code pods/*} queries). */
    void podValue(String namespace, String metric, double value) {
        values.put(key(namespace, "pods", "*", metric), value);
    }

    /** Sets the value of {@code metric} described on the object {@code resource/name} of {@code namespace}. */
    void objectValue(String namespace, String resource, String name, String metric, double value) {
        values.put(key(namespace, resource, name, metric), value);
    }

    /** Sets the value of the external {@code metric} in {@code namespace} (whatever the selector). */
    void externalValue(String namespace, String metric, double value) {
        values.put(key(namespace, "external", "", metric), value);
    }

    /** The requests answered with values, oldest first. */
    List<Served> served() {
        return List.copyOf(served);
    }

    /** The requests answered 404 (a metric or path the test set no value for). */
    List<String> refused() {
        return List.copyOf(refused);
    }

    /**
     * Creates the ExternalName Service {@value #SERVICE} ({@code localhost}) and the two APIServices pointing at it
     * with this server's port and CA; replaces APIServices of those names left behind.
     */
    void register() {
        KubeApi.require(api.post("/api/v1/namespaces/" + serviceNamespace + "/services", Map.of("apiVersion", "v1", "kind", "Service",
                "metadata", Map.of("name", SERVICE, "namespace", serviceNamespace),
                "spec", Map.of("type", "ExternalName", "externalName", "localhost"))), "create the Service " + SERVICE);
        for (String[] gv : List.of(new String[] {CUSTOM, CUSTOM_VERSION, "200"}, new String[] {EXTERNAL, EXTERNAL_VERSION, "100"})) {
            String name = gv[1] + "." + gv[0];
            api.delete("/apis/apiregistration.k8s.io/v1/apiservices/" + name);
            Map<String, Object> spec = new LinkedHashMap<>();
            spec.put("group", gv[0]);
            spec.put("version", gv[1]);
            spec.put("service", Map.of("namespace", serviceNamespace, "name", SERVICE, "port", port()));
            spec.put("caBundle", pki.caBundle());
            spec.put("groupPriorityMinimum", 100);
            spec.put("versionPriority", Integer.parseInt(gv[2]));
            KubeApi.require(api.post("/apis/apiregistration.k8s.io/v1/apiservices", Map.of("apiVersion", "apiregistration.k8s.io/v1",
                    "kind", "APIService", "metadata", Map.of("name", name), "spec", spec)), "create the APIService " + name);
        }
        registered = true;
    }

    /** The APIServices' Available conditions, by name ("True" once the aggregator reached this server). */
    Map<String, String> availability() {
        Map<String, String> out = new LinkedHashMap<>();
        for (String name : List.of(CUSTOM_VERSION + "." + CUSTOM, EXTERNAL_VERSION + "." + EXTERNAL)) {
            KubeApi.Response r = api.get("/apis/apiregistration.k8s.io/v1/apiservices/" + name);
            String status = "absent";
            if (r.ok()) {
                KubeObject o = new KubeObject(r.body());
                status = o.list("status.conditions").stream().filter(c -> "Available".equals(c.at("type")))
                        .map(c -> c.at("status") + " " + c.at("reason") + ": " + c.at("message")).findFirst().orElse("no condition");
            }
            out.put(name, status);
        }
        return out;
    }

    /**
     * Deletes the APIServices (first: an APIService whose server is gone makes discovery fail for every client, the
     * namespace controller and Helm included) and stops the server. The Service goes with its namespace.
     */
    @Override
    public void close() {
        try {
            if (registered) {
                for (String name : List.of(CUSTOM_VERSION + "." + CUSTOM, EXTERNAL_VERSION + "." + EXTERNAL)) {
                    api.delete("/apis/apiregistration.k8s.io/v1/apiservices/" + name);
                }
            }
        } finally {
            server.stop(0);
        }
    }

    private static String key(String namespace, String resource, String name, String metric) {
        return namespace + "/" + resource + "/" + name + "/" + metric;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
            Object answer = "GET".equals(exchange.getRequestMethod()) ? answer(path, query) : null;
            byte[] body;
            int code;
            if (answer == null) {
                refused.add(exchange.getRequestMethod() + " " + exchange.getRequestURI());
                code = 404;
                body = JsonMapper.shared().writeValueAsBytes(Map.of("kind", "Status", "apiVersion", "v1", "metadata", Map.of(),
                        "status", "Failure", "reason", "NotFound", "code", 404, "message", "the stand-in has no value for " + path));
            } else {
                code = 200;
                body = JsonMapper.shared().writeValueAsBytes(answer);
            }
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(code, body.length);
            exchange.getResponseBody().write(body);
        }
    }

    private Object answer(String path, Map<String, String> query) {
        String[] p = path.replaceAll("^/+|/+$", "").split("/");
        String selector = query.getOrDefault("labelSelector", "");
        if (p.length == 3 && p[0].equals("apis") && p[1].equals(CUSTOM) && p[2].equals(CUSTOM_VERSION)) {
            return resourceList(CUSTOM + "/" + CUSTOM_VERSION, "MetricValueList", "custom");
        }
        if (p.length == 3 && p[0].equals("apis") && p[1].equals(EXTERNAL) && p[2].equals(EXTERNAL_VERSION)) {
            return resourceList(EXTERNAL + "/" + EXTERNAL_VERSION, "ExternalMetricValueList", "external");
        }
        // /apis/custom.metrics.k8s.io/v1beta2/namespaces/{ns}/{resource}/{name}/{metric}
        if (p.length == 8 && p[1].equals(CUSTOM) && p[2].equals(CUSTOM_VERSION) && p[3].equals("namespaces")) {
            String ns = p[4];
            String resource = p[5];
            String name = decode(p[6]);
            String metric = decode(p[7]);
            List<String> names = new ArrayList<>();
            Double value;
            if (resource.equals("pods") && name.equals("*")) {
                value = values.get(key(ns, "pods", "*", metric));
                if (value != null) {
                    names.addAll(pods(ns, selector));
                }
            } else {
                value = values.get(key(ns, resource, name, metric));
                names.add(name);
            }
            if (value == null) {
                return null;
            }
            String kind = switch (resource) {
                case "pods" -> "Pod";
                case "services" -> "Service";
                default -> resource;
            };
            List<Object> items = new ArrayList<>();
            for (String n : names) {
                items.add(Map.of("describedObject", Map.of("kind", kind, "namespace", ns, "name", n, "apiVersion", "/v1"),
                        "metric", Map.of("name", metric), "timestamp", now(), "windowSeconds", 30, "value", quantity(value)));
            }
            served.add(new Served(path, selector, List.copyOf(names)));
            return Map.of("kind", "MetricValueList", "apiVersion", CUSTOM + "/" + CUSTOM_VERSION, "metadata", Map.of(), "items", items);
        }
        // /apis/external.metrics.k8s.io/v1beta1/namespaces/{ns}/{metric}
        if (p.length == 6 && p[1].equals(EXTERNAL) && p[2].equals(EXTERNAL_VERSION) && p[3].equals("namespaces")) {
            String metric = decode(p[5]);
            Double value = values.get(key(p[4], "external", "", metric));
            if (value == null) {
                return null;
            }
            Map<String, String> labels = new LinkedHashMap<>();
            for (String term : selector.split(",")) {
                String[] kv = term.split("=", 2);
                if (kv.length == 2) {
                    labels.put(kv[0], kv[1]);
                }
            }
            served.add(new Served(path, selector, List.of(metric)));
            return Map.of("kind", "ExternalMetricValueList", "apiVersion", EXTERNAL + "/" + EXTERNAL_VERSION, "metadata", Map.of(),
                    "items", List.of(Map.of("metricName", metric, "metricLabels", labels, "timestamp", now(), "value", quantity(value))));
        }
        return null;
    }

    /** Discovery: the metrics the test set values for, as a real adapter lists the series it has. */
    private Map<String, Object> resourceList(String groupVersion, String kind, String which) {
        List<Object> resources = new ArrayList<>();
        values.keySet().stream().map(k -> k.split("/", 4)).filter(k -> which.equals("external") == k[1].equals("external"))
                .map(k -> which.equals("external") ? k[3] : k[1] + "/" + k[3]).distinct().sorted()
                .forEach(name -> resources.add(Map.of("name", name, "singularName", "", "namespaced", true, "kind", kind,
                        "verbs", List.of("get"))));
        return Map.of("kind", "APIResourceList", "apiVersion", "v1", "groupVersion", groupVersion, "resources", resources);
    }

    @SuppressWarnings("unchecked")
    private List<String> pods(String namespace, String selector) {
        KubeApi.Response r = api.get("/api/v1/namespaces/" + namespace + "/pods?labelSelector="
                + URLEncoder.encode(selector, StandardCharsets.UTF_8));
        Map<String, Object> body = KubeApi.require(r, "list the pods of " + namespace + " for " + selector);
        return ((List<Object>) body.getOrDefault("items", List.of())).stream()
                .map(o -> new KubeObject((Map<String, Object>) o)).map(KubeObject::name).sorted().toList();
    }

    private static String quantity(double value) {
        return Math.round(value * 1000) + "m";
    }

    private static String now() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> out = new LinkedHashMap<>();
        if (raw != null) {
            for (String pair : raw.split("&")) {
                String[] kv = pair.split("=", 2);
                out.put(decode(kv[0]), kv.length > 1 ? decode(kv[1]) : "");
            }
        }
        return out;
    }

    private static KeyStore keyStore(Path certFile, Path keyFile) throws IOException, java.security.GeneralSecurityException {
        Certificate cert;
        try (var in = Files.newInputStream(certFile)) {
            cert = CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
        PrivateKey key;
        try (Reader reader = Files.newBufferedReader(keyFile); PEMParser parser = new PEMParser(reader)) {
            Object parsed = parser.readObject();
            JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
            key = parsed instanceof PEMKeyPair pair ? converter.getKeyPair(pair).getPrivate() : converter.getPrivateKey((PrivateKeyInfo) parsed);
        }
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry("serving", key, PASSWORD, new Certificate[] {cert});
        return store;
    }
}
