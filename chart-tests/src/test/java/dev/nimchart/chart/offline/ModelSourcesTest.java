package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nimchart.chart.repository.Example;
import dev.nimchart.chart.repository.Examples;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.PodTemplate;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartRefusedException;
import dev.nimchart.render.ChartUnderTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Model sources, the cache pre-fill Job, air-gap mode, LoRA adapters, proxies with a private CA and the health port
 * (docs/model-sources.md), on the examples that use them and on variations of them.
 */
class ModelSourcesTest {

    private static final Path AIR_GAPPED = Examples.named("multi-node-air-gapped-405b-prefilled-cache.yaml");
    private static final Path MODEL_FREE = Examples.named("single-node-model-free-huggingface.yaml");
    private static final Path LORA = Examples.named("single-node-lora-adapters.yaml");
    private static final Path PROXY = Examples.named("single-node-proxy-private-ca.yaml");
    /** The keys this feature added, as a values file sets them (the merged values always hold their defaults). */
    private static final java.util.regex.Pattern NEW_KEYS = java.util.regex.Pattern.compile(
            "^(modelSource|cachePrefill|airGap|lora|proxy):|^\\s+healthPort:", java.util.regex.Pattern.MULTILINE);
    private static final Set<String> CREDENTIALS = Set.of("NGC_API_KEY", "NGC_CLI_API_KEY", "HF_TOKEN", "MODELSCOPE_API_TOKEN");

    static List<Path> examplesWithoutTheNewKeys() {
        return Examples.all().filter(f -> !NEW_KEYS.matcher(read(f)).find()).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examplesWithoutTheNewKeys")
    void withoutTheKeysNothingChanges(Path file) {
        Example e = Example.of(file);
        assertThat(e.manifest.ofKind("Job")).as("%s: no pre-fill Job", e.name()).isEmpty();
        for (PodTemplate t : e.gpuTemplates()) {
            Map<String, KubeObject> env = PodTemplate.env(t.nim());
            assertThat(env.get("NGC_API_KEY").at("valueFrom.secretKeyRef")).as("%s: %s keeps the required NGC key", e.name(), t)
                    .isEqualTo(Map.of("name", e.text("model.ngcAPISecret"), "key", "NGC_API_KEY"));
            assertThat(env).as("%s: %s", e.name(), t).doesNotContainKeys("NIM_MODEL_PATH", "HF_TOKEN", "NIM_PEFT_SOURCE", "HTTPS_PROXY",
                    "NO_PROXY", "SSL_CERT_FILE", "NIM_HEALTH_PORT");
            assertThat(t.initContainers()).as("%s: %s", e.name(), t).noneMatch(c -> "wait-for-model-cache".equals(c.at("name")));
        }
    }

    @Test
    void airGappedServingPodsCarryNoCredentialAndWaitForTheJobsMarker() {
        Example e = Example.of(AIR_GAPPED);
        KubeObject job = e.manifest.one("Job");
        KubeObject prefill = job.list("spec.template.spec.containers").get(0);
        Map<String, KubeObject> jobEnv = PodTemplate.env(prefill);
        String marker = (String) jobEnv.get("NIM_LLM_PREFILL_MARKER").at("value");
        assertThat(e.gpuTemplates()).extracting(PodTemplate::role).containsExactly("leader", "worker");
        for (PodTemplate t : e.gpuTemplates()) {
            for (KubeObject c : concat(t.initContainers(), t.containers())) {
                assertThat(PodTemplate.env(c).keySet()).as("%s: container %s of the %s in air-gap mode", e.name(), c.at("name"), t.role())
                        .doesNotContainAnyElementsOf(CREDENTIALS);
            }
            KubeObject wait = t.initContainers().stream().filter(c -> "wait-for-model-cache".equals(c.at("name"))).findFirst().orElseThrow();
            assertThat(PodTemplate.env(wait).get("NIM_LLM_PREFILL_MARKER").at("value")).as("%s: the %s waits for the Job's marker", e.name(), t.role())
                    .isEqualTo(marker);
            String selector = (String) PodTemplate.env(wait).get("NIM_LLM_PREFILL_JOBS").at("value");
            assertThat(job.labels()).as("the waiting container's log names the Job by %s", selector)
                    .containsAllEntriesOf(java.util.Arrays.stream(selector.split(",")).map(kv -> kv.split("=", 2))
                            .collect(java.util.stream.Collectors.toMap(kv -> kv[0], kv -> (Object) kv[1])));
            assertThat(wait.at("volumeMounts")).as("the waiting container reads the shared cache, read-only")
                    .isEqualTo(List.of(Map.of("name", "model-store", "mountPath", "/model-store", "readOnly", true), Map.of("name", "tmp", "mountPath", "/tmp")));
            assertThat(PodTemplate.env(t.nim()).get("NIM_MODEL_PROFILE").at("value")).isEqualTo("vllm-fp8-tp8-pp2");
        }
        assertThat(jobEnv.get("NGC_API_KEY").at("valueFrom.secretKeyRef")).as("the Job alone has the key")
                .isEqualTo(Map.of("name", "ngc-api", "key", "NGC_API_KEY"));
        assertThat(prefill.at("args")).as("NIM's own download command").isEqualTo(List.of("download-to-cache", "--profile", "vllm-fp8-tp8-pp2"));
        assertThat(prefill.at("resources.limits")).as("no GPU").isEqualTo(Map.of("memory", "16Gi"));
        assertThat(job.at("spec.template.spec.nodeSelector")).isEqualTo(Map.of("node.kubernetes.io/instance-type", "cpu-standard"));
        assertThat(job.at("spec.activeDeadlineSeconds")).isEqualTo(43200);
        assertThat(job.at("spec.template.spec.restartPolicy")).isEqualTo("Never");
        assertThat(job.name().length()).as("the Job controller puts the name in a label").isLessThanOrEqualTo(63);
        assertThat(marker).startsWith("/model-store/.nim-llm/prefill-");
        KubeObject claim = job.list("spec.template.spec.volumes").get(0);
        assertThat(claim.at("persistentVolumeClaim.claimName")).as("the Job fills the group's shared claim")
                .isEqualTo(e.gpuTemplates().get(0).volumes().stream().filter(v -> "model-store".equals(v.at("name"))).findFirst().orElseThrow()
                        .at("persistentVolumeClaim.claimName"));
        boolean selectable = ((Map<?, ?>) job.at("spec.template.metadata.labels")).containsKey("app.kubernetes.io/name");
        assertThat(selectable).as("no selector of the release picks the Job's pod (no app.kubernetes.io/name)").isFalse();
    }

    @Test
    void onlyAnUpgradeThatChangesTheModelFillsAgain() {
        String first = Example.of(AIR_GAPPED).manifest.one("Job").name();
        String firstMarker = marker(Map.of());
        Object leader = PodTemplate.of(Example.of(AIR_GAPPED).manifest).get(0).pod().raw();
        assertThat(jobName(Map.of("replicaCount", "2"))).as("more groups: the same Job, left alone").isEqualTo(first);
        assertThat(jobName(Map.of("startupProbe.failureThreshold", "900"))).as("a probe").isEqualTo(first);
        // A Job's pod template cannot change: a change to the Job itself is a new Job (its name hashes its spec), of
        // the same fill (it finds the marker and ends), and the NIM pods, waiting for the same marker, stay as they are.
        Map<String, String> jobOnly = Map.of("cachePrefill.resources.requests.cpu", "4");
        assertThat(jobName(jobOnly)).as("the Job's own resources: a new Job").isNotEqualTo(first);
        assertThat(marker(jobOnly)).as("... of the same fill").isEqualTo(firstMarker);
        assertThat(PodTemplate.of(ChartUnderTest.render(AIR_GAPPED, jobOnly)).get(0).pod().raw()).as("... which restarts no NIM pod").isEqualTo(leader);
        assertThat(jobName(Map.of("modelSource.profile", "vllm-bf16-tp8-pp2"))).as("another profile").isNotEqualTo(first);
        assertThat(marker(Map.of("modelSource.profile", "vllm-bf16-tp8-pp2"))).as("another profile is another fill").isNotEqualTo(firstMarker);
        assertThat(marker(Map.of("image.tag", "2.0.14"))).as("another image is another fill").isNotEqualTo(firstMarker);
        RenderedManifest otherProfile = ChartUnderTest.render(AIR_GAPPED, Map.of("modelSource.profile", "vllm-bf16-tp8-pp2"));
        KubeObject job = otherProfile.one("Job");
        String marker = (String) PodTemplate.env(job.list("spec.template.spec.containers").get(0)).get("NIM_LLM_PREFILL_MARKER").at("value");
        for (PodTemplate t : PodTemplate.of(otherProfile)) {
            assertThat(t.initContainers()).as("the %s waits for the new fill", t.role())
                    .anyMatch(c -> marker.equals(PodTemplate.env(c).getOrDefault("NIM_LLM_PREFILL_MARKER", new KubeObject(Map.of())).at("value")));
        }
    }

    private static String marker(Map<String, String> set) {
        KubeObject job = ChartUnderTest.render(AIR_GAPPED, set).one("Job");
        return (String) PodTemplate.env(job.list("spec.template.spec.containers").get(0)).get("NIM_LLM_PREFILL_MARKER").at("value");
    }

    private static String jobName(Map<String, String> set) {
        return ChartUnderTest.render(AIR_GAPPED, set).one("Job").name();
    }

    @Test
    void modelFreeNimGetsItsSourceAndTheRightToken() {
        Example e = Example.of(MODEL_FREE);
        Map<String, KubeObject> env = PodTemplate.env(e.gpuTemplates().get(0).nim());
        assertThat(env.get("NIM_MODEL_PATH").at("value")).isEqualTo("hf://meta-llama/Llama-3.1-8B-Instruct");
        assertThat(env.get("HF_TOKEN").at("valueFrom.secretKeyRef")).isEqualTo(Map.of("name", "hf-token", "key", "HF_TOKEN"));
        assertThat(env.get("NGC_API_KEY").at("valueFrom.secretKeyRef.optional")).as("NIM needs no NGC key for a Hugging Face model").isEqualTo(true);
        Map<String, KubeObject> modelScope = PodTemplate.env(PodTemplate.of(ChartUnderTest.render(MODEL_FREE,
                Map.of("modelSource.uri", "modelscope://Qwen/Qwen2.5-7B-Instruct", "modelSource.tokenSecret", "ms-token"))).get(0).nim());
        assertThat(modelScope.get("MODELSCOPE_API_TOKEN").at("valueFrom.secretKeyRef")).isEqualTo(Map.of("name", "ms-token", "key", "MODELSCOPE_API_TOKEN"));
        assertThat(modelScope).doesNotContainKey("HF_TOKEN");
        Map<String, KubeObject> ngc = PodTemplate.env(PodTemplate.of(ChartUnderTest.render(MODEL_FREE,
                Map.of("modelSource.uri", "ngc://nim/meta/llama-3.1-8b-instruct:hf-8c22764", "modelSource.tokenSecret", ""))).get(0).nim());
        assertThat(ngc.get("NGC_API_KEY").at("valueFrom.secretKeyRef")).as("ngc:// needs the NGC key")
                .isEqualTo(Map.of("name", "ngc-api", "key", "NGC_API_KEY"));
    }

    @Test
    void modelFreePrefillDownloadsTheUriWithItsManifest() {
        RenderedManifest m = ChartUnderTest.render(MODEL_FREE, Map.of("cachePrefill.enabled", "true"));
        KubeObject prefill = m.one("Job").list("spec.template.spec.containers").get(0);
        assertThat(prefill.at("args")).isEqualTo(List.of("download-to-cache", "--model-uri", "hf://meta-llama/Llama-3.1-8B-Instruct",
                "--manifest-file", "/model-store/model_manifest.json"));
        assertThat(PodTemplate.env(prefill).get("HF_TOKEN").at("valueFrom.secretKeyRef.name")).isEqualTo("hf-token");
    }

    @Test
    void loraAdaptersReachEveryPodThatLoadsWeights() {
        Map<String, KubeObject> env = PodTemplate.env(Example.of(LORA).gpuTemplates().get(0).nim());
        assertThat(env.get("NIM_PEFT_SOURCE").at("value")).isEqualTo("/model-store/loras");
        assertThat(env.get("NIM_PEFT_REFRESH_INTERVAL").at("value")).isEqualTo("300");
        assertThat(env.get("NIM_MODEL_PROFILE").at("value")).isEqualTo("vllm-bf16-tp1-pp1-lora");
        RenderedManifest multiNode = ChartUnderTest.render(AIR_GAPPED, Map.of("lora.enabled", "true", "lora.existingClaim", "adapters",
                "lora.source", "/opt/nim/loras/prod"));
        List<PodTemplate> templates = PodTemplate.of(multiNode);
        assertThat(templates).extracting(PodTemplate::role).containsExactly("leader", "worker");
        for (PodTemplate t : templates) {
            assertThat(PodTemplate.env(t.nim()).get("NIM_PEFT_SOURCE").at("value")).as(t.role()).isEqualTo("/opt/nim/loras/prod");
            assertThat(t.volumes()).as(t.role()).anyMatch(v -> "adapters".equals(v.at("persistentVolumeClaim.claimName"))
                    && Boolean.TRUE.equals(v.at("persistentVolumeClaim.readOnly")));
            assertThat(t.nim().list("volumeMounts")).as(t.role())
                    .anyMatch(v -> "lora-adapters".equals(v.at("name")) && "/opt/nim/loras".equals(v.at("mountPath")) && Boolean.TRUE.equals(v.at("readOnly")));
        }
    }

    @Test
    void everyDownloadingContainerGoesThroughTheProxyButNotForTheClustersOwnNames() {
        Example e = Example.of(PROXY);
        Map<String, KubeObject> env = PodTemplate.env(e.gpuTemplates().get(0).nim());
        for (String name : List.of("HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy")) {
            assertThat(env.get(name).at("value")).as(name).isEqualTo("http://proxy.corp.example:3128");
        }
        String noProxy = (String) env.get("NO_PROXY").at("value");
        assertThat(env.get("no_proxy").at("value")).isEqualTo(noProxy);
        assertThat(List.of(noProxy.split(","))).contains(".svc", ".cluster.local", "localhost", "127.0.0.1", "10.244.0.0/16", "10.96.0.0/12",
                ".corp.example", e.manifest.ofKind("Service").stream().filter(s -> s.at("spec.clusterIP") == null).findFirst().orElseThrow().name());
        for (KubeObject s : e.manifest.ofKind("Service")) {
            assertThat(List.of(noProxy.split(","))).as("Service %s", s.name()).contains(s.name(), s.name() + "." + ChartUnderTest.NAMESPACE);
        }
        assertThat(env.get("SSL_CERT_FILE").at("value")).isEqualTo("/etc/nim-llm/ca/ca-bundle.pem");
        assertThat(env.get("REQUESTS_CA_BUNDLE").at("value")).isEqualTo("/etc/nim-llm/ca/ca-bundle.pem");
        assertThat(env.get("NIM_SDK_USE_NATIVE_TLS").at("value")).isEqualTo("1");
        PodTemplate t = e.gpuTemplates().get(0);
        assertThat(t.volumes()).anyMatch(v -> "corp-ca".equals(v.at("configMap.name"))
                && List.of(Map.of("key", "ca-bundle.pem", "path", "ca-bundle.pem")).equals(v.at("configMap.items")));
        assertThat(t.nim().list("volumeMounts")).anyMatch(v -> "/etc/nim-llm/ca".equals(v.at("mountPath")) && Boolean.TRUE.equals(v.at("readOnly")));
        for (KubeObject c : concat(t.initContainers(), t.containers())) {
            assertThat(c.at("securityContext.runAsUser")).as("no container installs the CA as root").isNotEqualTo(0);
        }
        // The pre-fill Job downloads through the same proxy with the same bundle; in a LeaderWorkerSet the group's
        // pods also keep their leader's address off the proxy (Ray's gRPC honours https_proxy), the Job has no leader.
        RenderedManifest lws = ChartUnderTest.render(AIR_GAPPED, Map.of("proxy.httpsProxy", "http://proxy.corp.example:3128",
                "proxy.caBundle.configMap", "corp-ca", "proxy.caBundle.key", "ca-bundle.pem"));
        KubeObject prefill = lws.one("Job").list("spec.template.spec.containers").get(0);
        Map<String, KubeObject> jobEnv = PodTemplate.env(prefill);
        assertThat(jobEnv.get("HTTPS_PROXY").at("value")).isEqualTo("http://proxy.corp.example:3128");
        assertThat(jobEnv.get("SSL_CERT_FILE").at("value")).isEqualTo("/etc/nim-llm/ca/ca-bundle.pem");
        assertThat((String) jobEnv.get("NO_PROXY").at("value")).doesNotContain("$(");
        for (PodTemplate p : PodTemplate.of(lws)) {
            assertThat(List.of(((String) PodTemplate.env(p.nim()).get("NO_PROXY").at("value")).split(","))).as(p.role())
                    .contains("$(LWS_LEADER_ADDRESS)", "." + p.owner().name() + "." + ChartUnderTest.NAMESPACE);
        }
    }

    @Test
    void userInitContainersGetTheProxyAndTheBundleTheyDoNotSetThemselves() {
        Path production = Examples.named("single-node-production-features.yaml");
        PodTemplate t = PodTemplate.of(ChartUnderTest.render(production, Map.of("proxy.httpsProxy", "http://proxy.corp.example:3128",
                "proxy.caBundle.secret", "corp-ca"))).get(0);
        assertThat(t.initContainers()).isNotEmpty();
        for (KubeObject c : t.initContainers()) {
            Map<String, KubeObject> env = PodTemplate.env(c);
            assertThat(env.get("https_proxy").at("value")).as("%s", c.at("name")).isEqualTo("http://proxy.corp.example:3128");
            assertThat(env.get("SSL_CERT_FILE").at("value")).isEqualTo("/etc/nim-llm/ca/ca.crt");
            assertThat(c.list("volumeMounts")).anyMatch(m -> "ca-bundle".equals(m.at("name")) && Boolean.TRUE.equals(m.at("readOnly")));
        }
        assertThat(PodTemplate.of(ChartUnderTest.render(production)).get(0).initContainers())
                .allMatch(c -> !PodTemplate.env(c).containsKey("HTTPS_PROXY"));
    }

    @Test
    void probesAndTheServiceFollowTheHealthPort() {
        Example e = Example.of(PROXY);
        KubeObject nim = e.gpuTemplates().get(0).nim();
        assertThat(PodTemplate.env(nim).get("NIM_HEALTH_PORT").at("value")).isEqualTo("8001");
        assertThat(nim.list("ports")).anyMatch(p -> "http-health".equals(p.at("name")) && Integer.valueOf(8001).equals(p.at("containerPort")));
        for (String probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
            assertThat(nim.at(probe + ".httpGet.port")).as(probe).isEqualTo("http-health");
        }
        KubeObject service = e.manifest.ofKind("Service").stream().filter(s -> s.at("spec.clusterIP") == null).findFirst().orElseThrow();
        assertThat(service.list("spec.ports")).anyMatch(p -> "http-health".equals(p.at("targetPort")) && Integer.valueOf(8001).equals(p.at("port")));
    }

    @Test
    void aCaBundleSecretThatExistsMustHoldPemUnderTheKey() {
        String name = "model-sources-test-ca";
        Map<String, String> set = new HashMap<>(Map.of("proxy.caBundle.configMap", "", "proxy.caBundle.secret", name, "proxy.caBundle.key", "ca.crt"));
        try {
            ChartUnderTest.renderer().lookups().putSecret(ChartUnderTest.NAMESPACE, name, Map.of("other.pem", b64("-----BEGIN CERTIFICATE-----\nx\n")));
            assertThatThrownBy(() -> ChartUnderTest.render(PROXY, set)).isInstanceOf(ChartRefusedException.class)
                    .hasMessageContaining("proxy.caBundle.key is \"ca.crt\", but the Secret \"" + name + "\"").hasMessageContaining("other.pem");
            ChartUnderTest.renderer().lookups().putSecret(ChartUnderTest.NAMESPACE, name, Map.of("ca.crt", b64("not a certificate")));
            assertThatThrownBy(() -> ChartUnderTest.render(PROXY, set)).isInstanceOf(ChartRefusedException.class)
                    .hasMessageContaining("holds no PEM certificate");
            ChartUnderTest.renderer().lookups().putSecret(ChartUnderTest.NAMESPACE, name, Map.of("ca.crt", b64("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n")));
            assertThat(PodTemplate.of(ChartUnderTest.render(PROXY, set)).get(0).volumes()).anyMatch(v -> name.equals(v.at("secret.secretName")));
        } finally {
            ChartUnderTest.renderer().lookups().removeSecret(ChartUnderTest.NAMESPACE, name);
        }
    }

    private static String read(Path file) {
        try {
            return java.nio.file.Files.readString(file);
        } catch (java.io.IOException ex) {
            throw new java.io.UncheckedIOException(ex);
        }
    }

    private static String b64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    private static List<KubeObject> concat(List<KubeObject> a, List<KubeObject> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }
}
