package dev.nimchart.chart.controllers;

import dev.nimchart.chart.repository.OwnEnvironment;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.ChartReleases;
import dev.nimchart.chart.repository.Example;
import dev.nimchart.chart.repository.PodSecurityExceptions;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.controllers.ControllerEnvironment;
import dev.nimchart.controllers.InstalledRelease;
import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.junit.ControllerTier;
import dev.nimchart.sessions.ControllerSession;
import dev.nimchart.sessions.TierNamespaces;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.render.ChartUnderTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real HorizontalPodAutoscaler controller of kube-controller-manager scales the release's workload from NIM's own
 * signals ({@code autoscaling.nimMetrics}), read through the real kube-apiserver's aggregator from a metrics API
 * server: {@link MetricsApiStandIn}, a STAND-IN for a metrics adapter such as prometheus-adapter, whose values the test
 * sets as Prometheus would hold them. Single node: a Pods metric (requests waiting, averaged over the serving pods)
 * and an Object metric (KV-cache use described on the inference Service) scale the StatefulSet up, hold it while either
 * is high, and scale it down when both are low. Multi-node: a Pods metric read from the LeaderWorkerSet's leaders only
 * (its {@code hpaPodSelector}) and an External metric scale the LeaderWorkerSet's groups through its scale subresource,
 * with the real LWS controller adding and removing whole groups. The chart's {@code behavior.scaleDown} stabilization
 * window of 0 s lets the downscale show within the test (the Kubernetes default is 300 s); the tier's
 * kube-controller-manager syncs autoscalers every second.
 */
@ExtendWith(ControllerTier.class)
class AutoscalingIT {

    private static final Duration STEP = Duration.ofSeconds(45);

    private static final String SINGLE_NODE = """
            image:
              repository: nvcr.io/nim/meta/llama-3.1-8b-instruct
              tag: "1.8.4"
            imagePullSecrets:
              - name: ngc-secret
            model:
              name: meta/llama-3.1-8b-instruct
            """ + autoscaling(3, "Object");

    private static final String MULTI_NODE = """
            image:
              repository: nvcr.io/nim/meta/llama-3.1-405b-instruct
              tag: 1.0.3
            imagePullSecrets:
              - name: ngc-secret
            model:
              name: meta/llama-3_1-405b-instruct
            persistence:
              enabled: true
              size: 100Gi
              accessMode: ReadWriteMany
              storageClass: nfs
            resources:
              limits:
                nvidia.com/gpu: 8
            multiNode:
              enabled: true
              workers: 2
              gpusPerNode: 8
            """ + autoscaling(2, "External") + """
                  selector:
                    service: autoscale-mn-nim-llm
            """;

    /**
     * Both releases' autoscaling: from one replica to {@code maxReplicas}, scaling down at once, on the requests waiting
     * per pod and on the KV cache usage as a metric of type {@code cacheMetricType} (last in the document, so a caller
     * may add to that metric).
     */
    private static String autoscaling(int maxReplicas, String cacheMetricType) {
        return """
                autoscaling:
                  enabled: true
                  minReplicas: 1
                  maxReplicas: %d
                  behavior:
                    scaleDown:
                      stabilizationWindowSeconds: 0
                  nimMetrics:
                    - name: num_requests_waiting
                      type: Pods
                      averageValue: "4"
                    - name: gpu_cache_usage_perc
                      type: %s
                      value: 800m
                """.formatted(maxReplicas, cacheMetricType);
    }

    /**
     * A release of {@code values} in a namespace of its own, with the metrics API stand-in in another; closing it stops
     * the stand-in and deletes both namespaces.
     */
    private static final class Autoscaled implements AutoCloseable {
        final ControllerEnvironment env;
        final KubeApi api;
        final Path file;
        final String release;
        final String ns;
        final String adapterNs;
        final MetricsApiStandIn metrics;

        Autoscaled(ControllerSession session, Path tmp, String name, String values, String standInSuffix) throws IOException {
            env = OwnEnvironment.required(session, "the metrics API stand-in on host loopback");
            api = env.api();
            file = Files.writeString(tmp.resolve(name + ".yaml"), values);
            release = ChartUnderTest.releaseName(file);
            ns = TierNamespaces.create(api, "hpa-" + release, PodSecurityExceptions.level(Example.of(file)));
            adapterNs = TierNamespaces.create(api, "metrics-stand-in-" + standInSuffix, "restricted");
            metrics = MetricsApiStandIn.start(api, tmp.resolve("pki"), adapterNs);
        }

        @Override
        public void close() {
            metrics.close();
            TierNamespaces.delete(api, ns, env::requireAllRunning);
            TierNamespaces.delete(api, adapterNs, env::requireAllRunning);
        }
    }

    @Test
    void theAutoscalerScalesTheStatefulSetOnRequestsWaitingAndKvCacheUse(ControllerSession session, @TempDir Path tmp) throws IOException {
        try (Autoscaled a = new Autoscaled(session, tmp, "autoscale-sn", SINGLE_NODE, "sn")) {
            String service = a.release + "-nim-llm";
            String workload = "/apis/apps/v1/namespaces/" + a.ns + "/statefulsets/" + a.release + "-nim-llm";
            String hpa = "/apis/autoscaling/v2/namespaces/" + a.ns + "/horizontalpodautoscalers/" + a.release + "-nim-llm";
            a.metrics.podValue(a.ns, "num_requests_waiting", 0);
            a.metrics.objectValue(a.ns, "services", service, "gpu_cache_usage_perc", 0.1);
            register(a.metrics);

            InstalledRelease installed = session.install(ChartReleases.of(a.ns, a.file));
            installed.awaitReady(1, ReconciledExampleIT.RECONCILE_TIMEOUT, a.env::requireAllRunning);
            KubeObject idle = await(a.api, hpa, "the autoscaler reads both metrics through the aggregator", h -> metricValues(h).equals(
                    Map.of("Pods/num_requests_waiting", "0", "Object/gpu_cache_usage_perc", "100m")) && condition(h, "ScalingActive"));
            assertThat(idle.at("status.desiredReplicas")).as("nothing waiting, KV cache at 10%%: one replica").isEqualTo(1);

            long up = System.nanoTime();
            a.metrics.podValue(a.ns, "num_requests_waiting", 20);
            await(a.api, workload, "20 requests waiting per pod (target 4) scale the StatefulSet to maxReplicas 3", s -> Integer.valueOf(3).equals(s.at("spec.replicas")));
            NamespaceState three = installed.awaitReady(3, STEP, a.env::requireAllRunning);
            System.out.printf("AutoscalingIT: single node 1 -> 3 replicas Ready %d ms after the metric rose%n", (System.nanoTime() - up) / 1_000_000);
            List<String> statefulPods = three.all("Pod").stream().filter(p -> p.at("metadata.deletionTimestamp") == null).map(KubeObject::name).sorted().toList();
            await(a.api, hpa, "the autoscaler asks for every serving pod's value " + statefulPods,
                    h -> lastPodsQuery(a.metrics).described().equals(statefulPods), () -> "last query: " + lastPodsQuery(a.metrics));

            // The queue drains but the KV cache is 95% full (target 80%): the Object metric alone holds the replicas.
            a.metrics.podValue(a.ns, "num_requests_waiting", 0);
            a.metrics.objectValue(a.ns, "services", service, "gpu_cache_usage_perc", 0.95);
            KubeObject held = await(a.api, hpa, "the autoscaler sees the queue empty and the KV cache at 95%", h -> metricValues(h).equals(
                    Map.of("Pods/num_requests_waiting", "0", "Object/gpu_cache_usage_perc", "950m")));
            dev.nimchart.cluster.LocalProcess.sleep(Duration.ofSeconds(3).toMillis()); // three more syncs of the autoscaler
            assertThat(new KubeObject(KubeApi.require(a.api.get(workload), "read the StatefulSet")).at("spec.replicas"))
                    .as("a full KV cache holds 3 replicas with no request waiting (%s)", held.at("status")).isEqualTo(3);

            long down = System.nanoTime();
            a.metrics.objectValue(a.ns, "services", service, "gpu_cache_usage_perc", 0.1);
            await(a.api, workload, "both signals low scale the StatefulSet down to minReplicas 1", s -> Integer.valueOf(1).equals(s.at("spec.replicas")));
            installed.awaitReady(1, STEP, a.env::requireAllRunning);
            System.out.printf("AutoscalingIT: single node 3 -> 1 replicas %d ms after both signals fell%n", (System.nanoTime() - down) / 1_000_000);
            assertThat(a.metrics.served()).as("the Object metric was read on the inference Service")
                    .anyMatch(s -> s.path().endsWith("/namespaces/" + a.ns + "/services/" + service + "/gpu_cache_usage_perc"));
        }
    }

    @Test
    void theAutoscalerScalesLeaderWorkerSetGroupsOnTheLeadersMetrics(ControllerSession session, @TempDir Path tmp) throws IOException {
        try (Autoscaled a = new Autoscaled(session, tmp, "autoscale-mn", MULTI_NODE, "mn")) {
            String lws = "/apis/leaderworkerset.x-k8s.io/v1/namespaces/" + a.ns + "/leaderworkersets/" + a.release + "-nim-llm-lws";
            String hpa = "/apis/autoscaling/v2/namespaces/" + a.ns + "/horizontalpodautoscalers/" + a.release + "-nim-llm";
            a.metrics.podValue(a.ns, "num_requests_waiting", 0);
            a.metrics.externalValue(a.ns, "gpu_cache_usage_perc", 0.1);
            register(a.metrics);

            InstalledRelease installed = session.install(ChartReleases.of(a.ns, a.file));
            NamespaceState one = installed.awaitReady(2, ReconciledExampleIT.RECONCILE_TIMEOUT, a.env::requireAllRunning);
            await(a.api, hpa, "the autoscaler reads both metrics through the aggregator", h -> metricValues(h).equals(
                    Map.of("Pods/num_requests_waiting", "0", "External/gpu_cache_usage_perc", "100m")) && condition(h, "ScalingActive"));
            assertThat(lastPodsQuery(a.metrics).described()).as("the Pods metric is read from the leaders only (hpaPodSelector %s)",
                    lastPodsQuery(a.metrics).labelSelector()).isEqualTo(leaders(one)).hasSize(1);
            assertThat(a.metrics.served()).as("the External metric is asked for with the chart's selector")
                    .anyMatch(s -> s.path().endsWith("/gpu_cache_usage_perc") && s.labelSelector().equals("service=" + a.release + "-nim-llm"));

            long up = System.nanoTime();
            a.metrics.podValue(a.ns, "num_requests_waiting", 20);
            await(a.api, lws, "20 requests waiting on the leader (target 4) scale the LeaderWorkerSet to 2 groups", s -> Integer.valueOf(2).equals(s.at("spec.replicas")));
            NamespaceState two = installed.awaitReady(4, STEP, a.env::requireAllRunning);
            System.out.printf("AutoscalingIT: multi-node 1 -> 2 groups Ready %d ms after the metric rose%n", (System.nanoTime() - up) / 1_000_000);
            assertThat(leaders(two)).as("two groups, each a leader and a worker").hasSize(2);
            await(a.api, hpa, "the autoscaler reads both leaders, never a worker " + leaders(two),
                    h -> lastPodsQuery(a.metrics).described().equals(leaders(two)), () -> "last query: " + lastPodsQuery(a.metrics));

            // The queue drains but the external KV-cache signal stays above its target: it alone holds the second group.
            a.metrics.podValue(a.ns, "num_requests_waiting", 0);
            a.metrics.externalValue(a.ns, "gpu_cache_usage_perc", 0.95);
            await(a.api, hpa, "the autoscaler sees the queue empty and the KV cache at 95%", h -> metricValues(h).equals(
                    Map.of("Pods/num_requests_waiting", "0", "External/gpu_cache_usage_perc", "950m")));
            dev.nimchart.cluster.LocalProcess.sleep(Duration.ofSeconds(3).toMillis());
            assertThat(new KubeObject(KubeApi.require(a.api.get(lws), "read the LeaderWorkerSet")).at("spec.replicas"))
                    .as("the External metric holds 2 groups with no request waiting").isEqualTo(2);

            a.metrics.externalValue(a.ns, "gpu_cache_usage_perc", 0.1);
            await(a.api, lws, "both signals low scale the LeaderWorkerSet down to 1 group", s -> Integer.valueOf(1).equals(s.at("spec.replicas")));
            NamespaceState back = installed.awaitReady(2, STEP, a.env::requireAllRunning);
            assertThat(leaders(back)).as("the first group stays").isEqualTo(leaders(one));
        }
    }

    /** Registers the stand-in and waits until the aggregator has found it (both APIServices Available). */
    private static void register(MetricsApiStandIn metrics) {
        metrics.register();
        dev.nimchart.cluster.Poll.upTo(STEP).every(250)
                .until(metrics::availability, a -> a.values().stream().allMatch(s -> s.startsWith("True")))
                .orElseThrow(a -> new AssertionError("the aggregator did not reach the metrics API stand-in within " + STEP.toSeconds()
                        + " s: " + a + "; requests it refused: " + metrics.refused()));
    }

    /** The HPA's current metric values by type/name, as its status reports them. */
    private static Map<String, String> metricValues(KubeObject hpa) {
        Map<String, String> out = new java.util.TreeMap<>();
        for (KubeObject m : hpa.list("status.currentMetrics")) {
            String type = String.valueOf(m.at("type"));
            String key = switch (type) {
                case "Pods" -> "pods";
                case "Object" -> "object";
                case "External" -> "external";
                default -> type.toLowerCase(java.util.Locale.ROOT);
            };
            Object value = m.at(key + ".current.averageValue");
            if (value == null) {
                value = m.at(key + ".current.value");
            }
            out.put(type + "/" + m.at(key + ".metric.name"), String.valueOf(value));
        }
        return out;
    }

    private static boolean condition(KubeObject hpa, String type) {
        return hpa.list("status.conditions").stream().anyMatch(c -> type.equals(c.at("type")) && "True".equals(c.at("status")));
    }

    private static MetricsApiStandIn.Served lastPodsQuery(MetricsApiStandIn metrics) {
        List<MetricsApiStandIn.Served> pods = metrics.served().stream().filter(s -> s.path().contains("/pods/*/")).toList();
        assertThat(pods).as("Pods-metric queries the stand-in answered").isNotEmpty();
        return pods.get(pods.size() - 1);
    }

    /** The live LeaderWorkerSet leaders (worker index 0), by name. */
    private static List<String> leaders(NamespaceState state) {
        return state.all("Pod").stream().filter(p -> p.at("metadata.deletionTimestamp") == null)
                .filter(p -> "0".equals(p.labels().get("leaderworkerset.sigs.k8s.io/worker-index")))
                .map(KubeObject::name).sorted().toList();
    }

    private static KubeObject await(KubeApi api, String path, String what, java.util.function.Predicate<KubeObject> done) {
        return await(api, path, what, done, () -> "");
    }

    private static KubeObject await(KubeApi api, String path, String what, java.util.function.Predicate<KubeObject> done, Supplier<String> more) {
        KubeApi.Response found = dev.nimchart.cluster.Poll.upTo(STEP).every(250)
                .until(() -> api.get(path), r -> r.ok() && done.test(new KubeObject(r.body())))
                .orElseThrow(r -> new AssertionError(what + ": not within " + STEP.toSeconds() + " s; last seen " + path + " status: "
                        + (r.ok() ? String.valueOf(new KubeObject(r.body()).at("status")) : r.message()) + " " + more.get()));
        return new KubeObject(found.body());
    }
}
