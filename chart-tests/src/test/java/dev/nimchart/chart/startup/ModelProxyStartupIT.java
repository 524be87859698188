package dev.nimchart.chart.startup;

import dev.nimchart.chart.repository.TestResources;

import dev.nimchart.chart.repository.CachePrefillPod;
import dev.nimchart.values.FileTrees;
import dev.nimchart.settings.SettingsFromProperties;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.render.TestHookRenderer;
import dev.nimchart.startup.ModelProxy;
import dev.nimchart.startup.PodGroupRun;
import dev.nimchart.startup.PodGroupRun.PodRun;
import dev.nimchart.startup.ReleasePods;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The chart's proxy and private CA with a real proxy: Debian's tinyproxy (pinned, {@code ci/install-model-proxy.sh}) on
 * the start-up tier's pod network, and an HTTPS Hugging Face hub stand-in that only the proxy reaches, its certificate
 * signed by a CA made for the run. A model-free release ({@code model-free-behind-proxy.yaml}: {@code proxy.*}, the CA
 * bundle from the Secret hub-ca, the cache pre-fill Job, {@code HF_ENDPOINT} naming the hub) is rendered; its pre-fill
 * Job's pod runs the download stand-in ({@code download-to-cache.py}: urllib with the environment's proxy variables,
 * as requests resolves them) in the pod sandbox, then its serving pod waits in its init container for the Job's marker
 * and starts. Asserts: the download goes through the proxy (its log has the CONNECT to the hub) and succeeds only with
 * the chart's bundle mounted and named by SSL_CERT_FILE/REQUESTS_CA_BUNDLE (the same pod without it fails with a
 * certificate error); traffic to the release's Service names, the pod's address, the health port and localhost from
 * inside the pod, with the chart's NO_PROXY, never reaches the proxy (and does without NO_PROXY: the check can fail).
 */
class ModelProxyStartupIT {

    static final Path REPORT_DIR = Path.of("target", "model-proxy");
    static final String HUB = "hub.models.test";
    static final String REPO = "nim-llm-test/tiny-llama";
    static final String NAMESPACE = "model-proxy";
    static final String SERVING_IP = "198.18.0.2";
    static final String JOB_IP = "198.18.0.3";

    @BeforeAll
    static void startupHost() {
        StartupIT.requireStartupHost();
        Optional<String> reason = ModelProxy.unavailableReason(SettingsFromProperties.shared());
        if (reason.isPresent()) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new AssertionError("CI=true and the proxy check cannot run here: " + reason.get());
            }
            Assumptions.abort("proxy check skipped: " + reason.get());
        }
    }

    @Test
    void theDownloadGoesThroughTheProxyAndSucceedsOnlyWithTheChartsCaBundle() throws Exception {
        try (Release r = Release.start("with-bundle", Map.of())) {
            PodRun job = r.group.add(r.job);
            assertThat(job.process().waitFor(120, TimeUnit.SECONDS)).as("the pre-fill Job's pod ended; log:%n%s", job.logText()).isTrue();
            String log = job.logText();
            assertThat(job.process().exitValue()).as("the pre-fill Job's pod's exit code; log:%n%s%nproxy log:%n%s", log, r.proxy.proxyLog()).isZero();
            assertThat(job.env()).as("the Job's environment").containsEntry("SSL_CERT_FILE", "/etc/nim-llm/ca/ca.crt")
                    .containsEntry("REQUESTS_CA_BUNDLE", "/etc/nim-llm/ca/ca.crt").containsEntry("HTTPS_PROXY", "http://" + ModelProxy.PROXY_IP + ":3128");
            assertThat(log).contains("nim-llm: model cache filled").contains("CA bundle: /etc/nim-llm/ca/ca.crt");
            // (b) the proxy tunnelled the download: its log has the CONNECT to the hub, and the hub answered the files.
            assertThat(r.proxy.proxiedRequests()).as("the requests tinyproxy served; its log:%n%s", r.proxy.proxyLog())
                    .contains("CONNECT " + HUB + ":443");
            assertThat(r.proxy.hubLog()).as("the hub's log").contains("GET /api/models/" + REPO + "/revision/main 200 token=yes")
                    .contains("/resolve/").doesNotContain(" 404 ");
            // The files are in the shared cache as huggingface_hub lays them out, byte for byte, and the marker is written.
            Path model = r.claim().resolve("huggingface/hub/models--" + REPO.replace("/", "--"));
            String commit = Files.readString(model.resolve("refs/main")).strip();
            for (Map.Entry<String, byte[]> f : Release.MODEL_FILES.entrySet()) {
                assertThat(Files.readAllBytes(model.resolve("snapshots").resolve(commit).resolve(f.getKey()))).as(f.getKey()).isEqualTo(f.getValue());
            }
            assertThat(r.marker()).as("the Job's marker").exists();

            // The serving pod's init container found the marker, so the server starts; it waits no longer.
            PodRun serving = r.group.add(r.serving);
            assertThat(await(Duration.ofSeconds(60), () -> r.group.httpStatus(serving, 8001, "/v1/health/live") == 200))
                    .as("the serving pod started after its init container; init status %s, init log:%n%s%nlog:%n%s", r.group.initStatus(serving),
                            r.group.initLog(serving, "wait-for-model-cache"), serving.logText()).isTrue();
            assertThat(r.group.initStatus(serving)).isEqualTo("started");
            assertThat(await(Duration.ofSeconds(30), () -> r.group.readinessProbePasses(serving))).as("the readiness probe (on the health port)")
                    .isTrue();
            assertThat(r.group.httpStatus(serving, 8000, "/v1/health/ready")).as("health moved off the API port (NIM_HEALTH_PORT)").isEqualTo(404);

            // (c) cluster-internal traffic from inside the pod, with the pod's proxy variables, goes direct.
            String service = r.service.name();
            int before = r.proxy.proxiedRequests().size();
            List<String> internal = List.of("http://" + service + ":8000/v1/models", "http://" + service + "." + NAMESPACE + ":8000/v1/models",
                    "http://" + service + "." + NAMESPACE + ".svc.cluster.local:8000/v1/models", "http://" + SERVING_IP + ":8001/v1/health/ready",
                    "http://localhost:8001/v1/health/live", "http://127.0.0.1:8000/v1/models");
            for (String url : internal) {
                assertThat(r.group.exec(serving, List.of("curl", "-sSf", "--max-time", "10", "-o", "/dev/null", url)))
                        .as("%s from inside the serving pod with its proxy variables", url).isZero();
            }
            List<String> proxied = r.proxy.proxiedRequests();
            assertThat(proxied.subList(before, proxied.size())).as("requests that reached the proxy while the pod dialled cluster addresses; log:%n%s",
                    r.proxy.proxyLog()).isEmpty();
            // Without NO_PROXY the same requests reach the proxy: the check above sees proxied traffic when there is some.
            for (String url : List.of(internal.get(0), internal.get(3))) {
                r.group.exec(serving, List.of("env", "-u", "NO_PROXY", "-u", "no_proxy", "curl", "-sS", "--max-time", "10", "-o", "/dev/null", url));
            }
            proxied = r.proxy.proxiedRequests();
            assertThat(proxied.subList(before, proxied.size())).as("without NO_PROXY; the proxy's log:%n%s", r.proxy.proxyLog())
                    .contains("GET " + internal.get(0), "GET " + internal.get(3));
        }
    }

    @Test
    void theSamePodWithoutTheBundleFailsWithACertificateErrorAndWritesNoMarker() throws Exception {
        try (Release r = Release.start("without-bundle", Map.of("proxy.caBundle.secret", ""))) {
            PodRun job = r.group.add(r.job);
            assertThat(job.process().waitFor(120, TimeUnit.SECONDS)).as("the pre-fill Job's pod ended; log:%n%s", job.logText()).isTrue();
            String log = job.logText();
            assertThat(job.env()).as("the Job's environment without proxy.caBundle").doesNotContainKeys("SSL_CERT_FILE", "REQUESTS_CA_BUNDLE")
                    .containsKey("HTTPS_PROXY");
            assertThat(job.process().exitValue()).as("exit code; log:%n%s", log).isNotZero();
            assertThat(log).as("the Job's log").contains("CERTIFICATE_VERIFY_FAILED").doesNotContain("model cache filled");
            assertThat(r.proxy.proxiedRequests()).as("the tunnel was opened (the failure is the certificate, not the network); proxy log:%n%s",
                    r.proxy.proxyLog()).contains("CONNECT " + HUB + ":443");
            assertThat(r.proxy.hubLog()).as("no request reached the hub past the TLS handshake").isEmpty();
            assertThat(r.marker()).as("no marker").doesNotExist();
        }
    }

    /** The release rendered, its Job's and serving pod, and the proxy and hub on the group's network (no pod started yet). */
    record Release(RenderedManifest manifest, KubeObject job, KubeObject serving, KubeObject service, PodGroupRun group, ModelProxy proxy,
            Path dir) implements AutoCloseable {
        static final Map<String, byte[]> MODEL_FILES = modelFiles();

        static Release start(String name, Map<String, String> sets) throws Exception {
            RenderedManifest manifest = TestHookRenderer.of(ChartUnderTest.chartDir(), dev.nimchart.junit.RunSettings.get()).render("proxy", NAMESPACE, List.of(values()), sets);
            Path dir = REPORT_DIR.resolve(name).toAbsolutePath();
            FileTrees.delete(dir); // no log or cache of an earlier run counts
            String ca = ModelProxy.certificates(dir.resolve("proxy-files"), HUB);
            KubeObject job = ReleasePods.jobPod(manifest, "", JOB_IP);
            KubeObject serving = ReleasePods.servingPod(manifest);
            List<KubeObject> objects = new ArrayList<>(manifest.objects());
            objects.add(job);
            objects.add(serving);
            KubeObject bundle = ReleasePods.secret(NAMESPACE, "hub-ca", Map.of("ca.crt", ca));
            objects.add(bundle);
            objects.addAll(ReleasePods.placeholderSecrets(manifest, List.of(job, serving), List.of(bundle)));
            KubeObject service = manifest.ofKind("Service").stream().filter(s -> !"None".equals(s.at("spec.clusterIP"))).findFirst().orElseThrow();
            PodGroupRun group = PodGroupRun.start(NamespaceState.of(NAMESPACE, objects), List.of(), dir.resolve("pods"), Map.of(), SettingsFromProperties.shared().rayDir())
                    .runInitContainers(true);
            try {
                // The Service's names stand for its one endpoint's address (as cluster DNS and kube-proxy together would).
                group.addHosts(SERVING_IP + "\t" + service.name() + " " + service.name() + "." + NAMESPACE + " " + service.name() + "." + NAMESPACE
                        + ".svc " + service.name() + "." + NAMESPACE + ".svc.cluster.local");
                ModelProxy proxy = ModelProxy.start(group, dir.resolve("proxy-files"), HUB, REPO, MODEL_FILES);
                return new Release(manifest, job, serving, service, group, proxy, dir);
            } catch (RuntimeException e) {
                group.close();
                throw e;
            }
        }

        /** The cache claim's directory, which the Job and the serving pod share. */
        Path claim() {
            return group.claim(CachePrefillPod.claimName(job));
        }

        /** The Job's marker, in the claim. */
        Path marker() {
            return claim().resolve(CachePrefillPod.markerInClaim(job));
        }

        @Override
        public void close() {
            try {
                proxy.close();
            } finally {
                group.close();
            }
        }

        static Path values() {
            return TestResources.path(ModelProxyStartupIT.class, "model-free-behind-proxy.yaml");
        }

        /** A tiny Llama's files as a hub serves them: its config, tokenizer config and a safetensors file of one tensor. */
        static Map<String, byte[]> modelFiles() {
            Map<String, byte[]> files = new LinkedHashMap<>();
            files.put("config.json", ("{\"architectures\": [\"LlamaForCausalLM\"], \"model_type\": \"llama\", \"hidden_size\": 16, "
                    + "\"num_hidden_layers\": 1, \"num_attention_heads\": 2, \"vocab_size\": 32}").getBytes(StandardCharsets.UTF_8));
            files.put("tokenizer_config.json", "{\"model_max_length\": 64}".getBytes(StandardCharsets.UTF_8));
            byte[] header = "{\"embed.weight\":{\"dtype\":\"F32\",\"shape\":[2,2],\"data_offsets\":[0,16]}}".getBytes(StandardCharsets.UTF_8);
            ByteBuffer st = ByteBuffer.allocate(8 + header.length + 16).order(ByteOrder.LITTLE_ENDIAN);
            st.putLong(header.length).put(header);
            for (int i = 0; i < 4; i++) {
                st.putFloat(i);
            }
            files.put("model.safetensors", st.array());
            return files;
        }
    }

    static boolean await(Duration limit, BooleanSupplier condition) throws InterruptedException {
        return dev.nimchart.cluster.Poll.upTo(limit).every(500).until(condition);
    }
}
