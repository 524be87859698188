package dev.nimchart.chart.routing;

import dev.nimchart.chart.repository.OwnEnvironment;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.Example;
import dev.nimchart.chart.repository.Examples;
import dev.nimchart.chart.repository.PodSecurityExceptions;
import dev.nimchart.chart.repository.Reconciled;
import dev.nimchart.chart.repository.CiScript;
import dev.nimchart.cluster.ClusterUnavailableException;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.controllers.ControllerEnvironment;
import dev.nimchart.controllers.InstalledRelease;
import dev.nimchart.controllers.PodReadiness;
import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.controllers.Release;
import dev.nimchart.junit.ControllerTier;
import dev.nimchart.sessions.ControllerSession;
import dev.nimchart.sessions.TierNamespaces;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartUnderTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The real endpoint pickers choosing among a release's pods, each built from its Go module by {@code ci/build-epp.sh}
 * on first use: GAIE v1.5.0's full picker ({@code cmd/epp}, scoring pods by their metrics) and GAIE v1.6.0's
 * lightweight reference picker ({@code cmd/lwepp}, round robin over the pool's Ready pods, chosen by
 * {@code inferencePool.epp.picker: lwepp}), with this test as the gateway: on the controller tier, the LeaderWorkerSet
 * example behind an InferencePool (two groups of a leader and a worker) and, in the same namespace, a single-node
 * release with its own pool as a decoy. The picker of the first release runs with its pod's own arguments, environment,
 * ConfigMap and ServiceAccount token against the tier's API server ({@link EndpointPickerRun}); every pod of both
 * releases that serves or could serve (leaders, workers, the decoy's pod) has a stand-in of NIM's server at its pod IP
 * answering {@code /v1/metrics} with the names its NIM exports (NIM 1.x its own; on a NIM 2.x tag vLLM's, which the
 * chart's picker config then reads), idle unless a step says otherwise, so workers and the decoy
 * always look at least as free as the pool's pods. The test sends OpenAI chat completion requests over Envoy's ext_proc
 * protocol ({@link ExtProcClient}) and reads the endpoint the picker sets.
 *
 * <p>What stands in: the pods' processes (kwok runs none: their stand-ins only answer metrics and health), the
 * gateway's data plane (no Envoy: the test sends what a gateway sends and reads what it would route on), and the
 * pod's network and mounts (a network namespace with the pod IPs on its loopback and a bridge to the API server;
 * the ConfigMap's files in a directory the arguments are pointed at). Decision latency is recorded (target/
 * endpoint-picker/decisions.tsv, ci/benchmark.sh --epp), never asserted.
 */
@ExtendWith(ControllerTier.class)
class EndpointPickerIT {

    static final Path REPORT_DIR = Path.of("target", "endpoint-picker");
    static final String POOLED = "multi-node-inference-gateway-keda.yaml";
    static final String DECOY = "single-node-inference-gateway.yaml";
    static final Duration PICK_TIMEOUT = Duration.ofSeconds(10);
    static final int PICKS = 30;

    /** GAIE v1.6.0's lightweight picker, as the lwepp example sets it (values-examples/single-node-lwepp-gateway.yaml). */
    static final Map<String, String> LWEPP = Map.of("inferencePool.epp.picker", "lwepp",
            "inferencePool.epp.image.repository", "registry.k8s.io/gateway-api-inference-extension/lwepp", "inferencePool.epp.image.tag", "v1.6.0");

    /**
     * The pickers and NIM generations a pool is shown for: GAIE v1.5.0's full picker on the example's NIM 1.x tag with
     * NIM's own metric names, and on a NIM 2.x tag, whose stand-ins export vLLM's names (the picker's config follows the
     * tag); GAIE v1.6.0's lightweight picker on the example's tag (it reads no metrics).
     */
    static Stream<Arguments> generations() {
        return Stream.of(Arguments.of("GAIE v1.5.0 epp, NIM 1.x (the example's tag)", Map.of(), EndpointPickerRun.ExportedNames.NIM_1, "epp"),
                Arguments.of("GAIE v1.5.0 epp, NIM 2.x (image.tag 2.0.13, vLLM's names)", Map.of("image.tag", "2.0.13"),
                        EndpointPickerRun.ExportedNames.VLLM, "epp"),
                Arguments.of("GAIE v1.6.0 lwepp, NIM 1.x (the example's tag)", LWEPP, EndpointPickerRun.ExportedNames.NIM_1, "lwepp"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("generations")
    void theRealPickerSendsEachRequestToAReadyServingPodOfItsOwnRelease(String generation, Map<String, String> tag,
            EndpointPickerRun.ExportedNames names, String pickerKind, ControllerSession session) throws Exception {
        ControllerEnvironment env = OwnEnvironment.required(session, "the tier's own pod addresses (198.18.0.0/17)");
        boolean scoresMetrics = pickerKind.equals("epp");
        Path epp = requirePickerHost(pickerKind);
        KubeApi api = env.api();
        Path pooledFile = Examples.named(POOLED);
        String namespace = TierNamespaces.create(api, "endpoint-picker", PodSecurityExceptions.level(Example.of(pooledFile)));
        try {
            Map<String, String> sets = new TreeMap<>(Map.of("replicaCount", "2", "autoscaling.enabled", "false", "autoscaling.keda.enabled", "false"));
            sets.putAll(tag);
            InstalledRelease pooled = session.install(Release.of(ChartUnderTest.chartDir(), "pooled", namespace, List.of(pooledFile))
                    .withSets(sets));
            int pooledPods = expectedPods(pooled.rendered());
            pooled.awaitReady(pooledPods, Duration.ofMinutes(4));
            InstalledRelease decoy = session.install(Release.of(ChartUnderTest.chartDir(), "decoy", namespace, List.of(Examples.named(DECOY)))
                    .withSets(Map.of("replicaCount", "1", "autoscaling.enabled", "false")));
            NamespaceState state = decoy.awaitReady(pooledPods + expectedPods(decoy.rendered()), Duration.ofMinutes(4));

            KubeObject pool = pooled.rendered().ofKind("InferencePool").get(0);
            int targetPort = Integer.parseInt(String.valueOf(pool.at("spec.targetPorts[0].number")));
            List<KubeObject> leaders = podsOf(state, "pooled", p -> "0".equals(p.label(Reconciled.LWS_WORKER_INDEX)));
            List<KubeObject> workers = podsOf(state, "pooled", p -> p.label(Reconciled.LWS_WORKER_INDEX) != null
                    && !"0".equals(p.label(Reconciled.LWS_WORKER_INDEX)));
            List<KubeObject> decoys = podsOf(state, "decoy", p -> !isPicker(p));
            KubeObject picker = podsOf(state, "pooled", EndpointPickerIT::isPicker).get(0);
            assertThat(leaders).as("the pooled release's leaders").hasSize(2);
            assertThat(workers).as("the pooled release's workers").hasSize(2);
            assertThat(decoys).as("the decoy release's serving pods").hasSize(1);
            Map<String, String> podByIp = new TreeMap<>();
            for (KubeObject p : concat(leaders, workers, decoys)) {
                podByIp.put(String.valueOf(p.at("status.podIP")), p.name());
            }
            String a = ip(leaders.get(0));
            String b = ip(leaders.get(1));
            Set<String> leaderEndpoints = Set.of(a + ":" + targetPort, b + ":" + targetPort);
            String model = String.valueOf(ChartUnderTest.values(pooledFile).get("model") instanceof Map<?, ?> m ? m.get("name") : "");

            try (EndpointPickerRun run = EndpointPickerRun.start(epp, REPORT_DIR.resolve("run"), api, env.kubeConfigYaml(), state, picker,
                    List.copyOf(podByIp.keySet()), targetPort, names); ExtProcClient client = run.client()) {
                awaitFirstPick(run, client, model);

                // 1. Everything idle (workers and the decoy's pod too): only the pool's Ready leaders are chosen, both of them.
                List<ExtProcClient.Decision> idle = picks(run, client, model, Integer.getInteger("nim.epp.requests", 100));
                if (names == EndpointPickerRun.ExportedNames.NIM_1 && scoresMetrics) {
                    writeLatencies(idle); // ci/benchmark.sh --epp: one generation's figures
                }
                Map<String, Integer> idleCounts = count(idle);
                System.out.printf(Locale.ROOT, "[endpoint picker] %s: %d idle picks: %s; decision p50 %.2f ms, p99 %.2f ms (%s)%n", generation, idle.size(),
                        named(idleCounts, podByIp), percentile(idle, 50), percentile(idle, 99), run.tls() ? "TLS" : "h2c");
                assertThat(idle).as("every answer routes by header and metadata alike").allMatch(d -> d.endpoint() != null
                        && d.endpoint().equals(d.metadataEndpoint()));
                assertThat(idleCounts.keySet()).as("endpoints chosen while all are idle (leaders %s)", named(leaderEndpoints, podByIp))
                        .isEqualTo(leaderEndpoints);

                if (scoresMetrics) {
                    // 2. Leader a's KV cache is full: b gets every request.
                    setAndAwaitScrapes(run, podByIp.keySet(), Map.of(a, new double[] {0, 4, 1.0}));
                    assertThat(count(picks(run, client, model, PICKS))).as("picks with %s's KV cache full", podByIp.get(a))
                            .isEqualTo(Map.of(b + ":" + targetPort, PICKS));

                    // 3. Leader b has a long queue, a is free again: a gets every request.
                    setAndAwaitScrapes(run, podByIp.keySet(), Map.of(b, new double[] {40, 16, 0.5}));
                    assertThat(count(picks(run, client, model, PICKS))).as("picks with %s's queue long", podByIp.get(b))
                            .isEqualTo(Map.of(a + ":" + targetPort, PICKS));

                    // 4. Both idle, then leader a stops being Ready (its readiness probe failing, as the kubelet reports it).
                    setAndAwaitScrapes(run, podByIp.keySet(), Map.of());
                } else {
                    // 2. The lightweight picker reads no metrics (docs/routing-and-autoscaling.md): with leader a's KV cache
                    // full and a long queue it still sends requests to both leaders, and it never scraped any pod.
                    run.metrics(a, 40, 16, 1.0);
                    assertThat(count(picks(run, client, model, PICKS)).keySet()).as("picks with %s's KV cache full and queue long (%s)",
                            podByIp.get(a), generation).isEqualTo(leaderEndpoints);
                    run.metrics(a, 0, 0, 0);
                    for (String ip : podByIp.keySet()) {
                        assertThat(run.scrapes(ip)).as("times %s scraped %s", generation, podByIp.get(ip)).isZero();
                    }
                    // 3. Leader a stops being Ready (its readiness probe failing, as the kubelet reports it).
                }
                notReady(api, namespace, leaders.get(0).name());
                awaitNoPicksOf(run, client, model, a + ":" + targetPort);
                assertThat(count(picks(run, client, model, PICKS))).as("picks with %s not Ready", podByIp.get(a))
                        .isEqualTo(Map.of(b + ":" + targetPort, PICKS));
                for (KubeObject outside : concat(workers, decoys)) {
                    assertThat(run.scrapes(ip(outside))).as("times the picker scraped %s, outside its pool", outside.name()).isZero();
                }
                assertThat(run.log()).as("the picker's log").doesNotContain("\"level\":\"panic\"");
            }
        } finally {
            TierNamespaces.delete(api, namespace, env::requireAllRunning);
        }
    }

    /** GAIE v1.5.0's full picker ({@link #requirePickerHost(String)} with {@code epp}), for the tests that start it. */
    public static Path requirePickerHost() {
        return requirePickerHost("epp");
    }

    /**
     * The picker binary ({@code ci/build-epp.sh} {@code epp} or {@code lwepp}), once the host can run the test: else a
     * failure with CI=true, a skip with the reason otherwise.
     */
    public static Path requirePickerHost(String pickerKind) {
        String reason = null;
        Path epp = null;
        if (!"root".equals(System.getProperty("user.name"))) {
            reason = "needs root (a network namespace); running as " + System.getProperty("user.name");
        } else {
            try {
                Process p = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
                if (p.waitFor() != 0) {
                    reason = "ip netns is not usable: " + new String(p.getInputStream().readAllBytes()).strip();
                }
            } catch (IOException e) {
                reason = "ip netns is not usable: " + e.getMessage();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                reason = "interrupted";
            }
        }
        if (reason == null) {
            try {
                epp = Path.of(CiScript.run("build-epp.sh", List.of("--print-path", pickerKind), line -> System.out.println("[build-epp] " + line))
                        .lines().reduce((x, y) -> y).orElse(""));
            } catch (ClusterUnavailableException e) {
                reason = e.getMessage();
            }
        }
        if (reason != null) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new AssertionError("CI=true and the endpoint picker test cannot run here: " + reason);
            }
            System.out.println("[endpoint picker] SKIPPED (CI is not true; with CI=true this fails the build): " + reason);
            Assumptions.abort("endpoint picker test skipped: " + reason);
        }
        return epp;
    }

    /** Pods the manifest's workloads ask for: LeaderWorkerSet replicas x size, Deployment and StatefulSet replicas. */
    static int expectedPods(RenderedManifest m) {
        int pods = 0;
        for (KubeObject lws : m.ofKind("LeaderWorkerSet")) {
            pods += number(lws.at("spec.replicas"), 1) * number(lws.at("spec.leaderWorkerTemplate.size"), 1);
        }
        for (KubeObject w : concat(m.ofKind("Deployment"), m.ofKind("StatefulSet"))) {
            pods += number(w.at("spec.replicas"), 1);
        }
        return pods;
    }

    private static int number(Object o, int fallback) {
        return o == null ? fallback : Integer.parseInt(String.valueOf(o));
    }

    @SafeVarargs
    private static List<KubeObject> concat(List<KubeObject>... lists) {
        List<KubeObject> out = new ArrayList<>();
        for (List<KubeObject> l : lists) {
            out.addAll(l);
        }
        return out;
    }

    static boolean isPicker(KubeObject pod) {
        return "endpoint-picker".equals(pod.label("app.kubernetes.io/component"));
    }

    static List<KubeObject> podsOf(NamespaceState state, String release, java.util.function.Predicate<KubeObject> which) {
        return state.livePods().stream().filter(p -> release.equals(p.label("app.kubernetes.io/instance"))).filter(which)
                .sorted(java.util.Comparator.comparing(KubeObject::name)).toList();
    }

    static String ip(KubeObject pod) {
        return String.valueOf(pod.at("status.podIP"));
    }

    static String body(String model) {
        return "{\"model\":\"" + model + "\",\"max_tokens\":16,\"messages\":[{\"role\":\"user\",\"content\":\"Which pod answers "
                + UUID.randomUUID() + "?\"}]}";
    }

    static List<ExtProcClient.Decision> picks(EndpointPickerRun run, ExtProcClient client, String model, int n) {
        List<ExtProcClient.Decision> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            run.requireAlive();
            out.add(client.pick("llm.example.com", "/v1/chat/completions", body(model), UUID.randomUUID().toString(), PICK_TIMEOUT));
        }
        return out;
    }

    static Map<String, Integer> count(List<ExtProcClient.Decision> decisions) {
        Map<String, Integer> counts = new TreeMap<>();
        decisions.forEach(d -> counts.merge(String.valueOf(d.endpoint()), 1, Integer::sum));
        return counts;
    }

    static Map<String, Object> named(Map<String, Integer> counts, Map<String, String> podByIp) {
        Map<String, Object> out = new LinkedHashMap<>();
        counts.forEach((endpoint, n) -> out.put(endpoint + " (" + podByIp.getOrDefault(endpoint.replaceFirst(":\\d+$", ""), "no pod") + ")", n));
        return out;
    }

    static List<String> named(Set<String> endpoints, Map<String, String> podByIp) {
        return endpoints.stream().sorted().map(e -> e + " (" + podByIp.get(e.replaceFirst(":\\d+$", "")) + ")").toList();
    }

    /** Until the picker has synced the pool, the pods and their metrics and answers with an endpoint (at most 2 minutes). */
    static void awaitFirstPick(EndpointPickerRun run, ExtProcClient client, String model) throws InterruptedException {
        // Each round: null once an answer names an endpoint, else why not.
        run.requireAlive();
        dev.nimchart.cluster.Poll.upTo(Duration.ofMinutes(2)).every(500).checking(run::requireAlive).until(() -> {
            try {
                ExtProcClient.Decision d = client.pick("llm.example.com", "/v1/chat/completions", body(model), UUID.randomUUID().toString(),
                        PICK_TIMEOUT);
                return d.endpoint() != null ? null : new IllegalStateException("an answer without " + ExtProcClient.DESTINATION + ": " + d.setHeaders());
            } catch (RuntimeException e) {
                return e;
            }
        }, java.util.Objects::isNull).orElseThrow(last -> new AssertionError("the endpoint picker gave no endpoint within 2 minutes: " + last
                + "\nits log:\n" + EndpointPickerRun.tail(run.log(), 6000), last));
    }

    /**
     * Sets every stand-in idle but those given ({waiting, running, KV-cache use}), and waits until each the picker
     * scrapes (the pool's pods) was scraped 3 more times, so the picker holds the new values.
     */
    static void setAndAwaitScrapes(EndpointPickerRun run, Set<String> ips, Map<String, double[]> busy) throws InterruptedException {
        Map<String, Long> before = new LinkedHashMap<>();
        for (String ip : ips) {
            double[] m = busy.getOrDefault(ip, new double[] {0, 0, 0});
            run.metrics(ip, m[0], m[1], m[2]);
            before.put(ip, run.scrapes(ip));
        }
        // Pods never scraped before are not in the pool.
        List<String> pooled = ips.stream().filter(ip -> before.get(ip) != 0 || busy.containsKey(ip)).toList();
        dev.nimchart.cluster.Poll.upTo(Duration.ofSeconds(30)).every(20).checking(run::requireAlive)
                .until(() -> pooled.stream().filter(ip -> run.scrapes(ip) < before.get(ip) + 3).toList(), List::isEmpty)
                .orElseThrow(left -> new AssertionError("the picker did not scrape " + left + " three times within 30 s"));
    }

    /** Marks the pod's Ready and ContainersReady conditions False, as the kubelet does when its readiness probe fails. */
    static void notReady(KubeApi api, String namespace, String pod) {
        KubeObject live = new KubeObject(KubeApi.require(api.get("/api/v1/namespaces/" + namespace + "/pods/" + pod), "read " + pod));
        PodReadiness.markNotReady(api, live, "ContainersNotReady", "readiness probe failed (set by EndpointPickerIT)");
    }

    /** Until twenty picks in a row avoid {@code endpoint} (the picker saw the pod's update), at most 30 s. */
    static void awaitNoPicksOf(EndpointPickerRun run, ExtProcClient client, String model, String endpoint) {
        int[] inARow = {0};
        boolean avoided = dev.nimchart.cluster.Poll.upTo(Duration.ofSeconds(30)).every(0).until(() -> {
            inARow[0] = endpoint.equals(picks(run, client, model, 1).get(0).endpoint()) ? 0 : inARow[0] + 1;
            return inARow[0] >= 20;
        });
        if (!avoided) {
            throw new AssertionError("the picker still chose " + endpoint + " 30 s after its pod stopped being Ready");
        }
    }

    static double percentile(List<ExtProcClient.Decision> decisions, int p) {
        List<Long> nanos = decisions.stream().map(d -> d.latency().toNanos()).sorted().toList();
        int index = (int) Math.ceil(p / 100.0 * nanos.size()) - 1;
        return nanos.get(Math.max(0, Math.min(nanos.size() - 1, index))) / 1e6;
    }

    /** One line per decision: milliseconds from sending the request headers to the picker's answer to them. */
    static void writeLatencies(List<ExtProcClient.Decision> decisions) throws IOException {
        Files.createDirectories(REPORT_DIR);
        StringBuilder out = new StringBuilder();
        decisions.forEach(d -> out.append(String.format(Locale.ROOT, "%.3f%n", d.latency().toNanos() / 1e6)));
        Files.writeString(REPORT_DIR.resolve("decisions.tsv"), out);
    }
}
