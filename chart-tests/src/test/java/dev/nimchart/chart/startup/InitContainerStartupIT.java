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
import dev.nimchart.startup.PodGroupRun;
import dev.nimchart.startup.PodGroupRun.PodRun;
import dev.nimchart.startup.ReleasePods;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Init containers in the start-up tier, and the cache pre-fill's wait at pod level: an air-gapped single-node release
 * with the pre-fill Job ({@code air-gapped-prefill.yaml}) is rendered; its Job's pod (the download stand-in,
 * {@code download-to-cache.py}, held or failed by the test through files in the cache) and two serving pods run in the
 * pod sandbox, each pod's init containers in order before its main container (PodGroupRun). Asserts: the serving pods
 * wait in wait-for-model-cache, saying so in its log, while the Job downloads, and their server starts only after the
 * Job wrote its marker; the user's init container runs after the wait; what the user's init container fetch-repo wrote
 * into the emptyDir {@code repo} (the clone-into-an-emptyDir pattern) is what the main container reads there (the
 * emptyDir is the pod's, not the container's); a failed download leaves them waiting with
 * their reason, alive, never started; a failing init container keeps its pod's main container from starting, with the
 * reason; no serving process or init container of the air-gapped release saw NGC_API_KEY or HF_TOKEN (the Job did).
 */
class InitContainerStartupIT {

    static final Path REPORT_DIR = Path.of("target", "init-containers");
    static final String NAMESPACE = "init-containers";
    static final List<String> KEYS = List.of("NGC_API_KEY", "NGC_CLI_API_KEY", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "MODELSCOPE_API_TOKEN");
    static final String WAITING = "nim-llm: waiting for the model cache pre-fill Job to write /model-store/.nim-llm/prefill-";

    @BeforeAll
    static void startupHost() {
        StartupIT.requireStartupHost();
    }

    @Test
    void servingPodsWaitForThePrefillMarkerAndStartOnlyAfterItWithoutAnyKey() throws Exception {
        try (Release r = Release.start("wait-then-start", Map.of())) {
            r.control("hold");
            PodRun job = r.group.add(r.job);
            List<PodRun> serving = List.of(r.group.add(r.serving.get(0)), r.group.add(r.serving.get(1)));
            // While the Job downloads (held), every serving pod waits in its first init container and says why.
            assertThat(ModelProxyStartupIT.await(Duration.ofSeconds(30), () -> serving.stream().allMatch(p -> r.group.initLog(p, "wait-for-model-cache")
                    .contains(WAITING)))).as("the serving pods log that they wait; %s", r.states(serving)).isTrue();
            Thread.sleep(3000);
            for (PodRun p : serving) {
                assertThat(r.group.initStatus(p)).as("%s while the Job downloads", p.pod().name()).isEqualTo("running wait-for-model-cache");
                assertThat(p.process().isAlive()).as("%s is alive (not crashed)", p.pod().name()).isTrue();
                assertThat(r.group.httpStatus(p, 8000, "/v1/health/live")).as("%s's server has not started", p.pod().name()).isZero();
            }
            assertThat(r.group.records()).as("no serving process ran yet").isEmpty();
            assertThat(r.claim().resolve(".init-order")).as("the user's init container waits behind wait-for-model-cache").doesNotExist();

            r.control("release");
            assertThat(job.process().waitFor(60, TimeUnit.SECONDS)).as("the Job's pod ended; log:%n%s", job.logText()).isTrue();
            assertThat(job.process().exitValue()).as("the Job's exit code; log:%n%s", job.logText()).isZero();
            assertThat(ModelProxyStartupIT.await(Duration.ofSeconds(60), () -> serving.stream().allMatch(p -> r.group.httpStatus(p, 8000,
                    "/v1/health/live") == 200))).as("the serving pods' servers started after the marker; %s", r.states(serving)).isTrue();
            for (PodRun p : serving) {
                assertThat(r.group.initStatus(p)).isEqualTo("started");
                assertThat(r.group.initLog(p, "wait-for-model-cache")).contains("nim-llm: the model cache is filled");
                assertThat(r.group.exec(p, List.of("grep", "-qx", "cloned by fetch-repo as uid 1000", "/repo/checkout/README")))
                        .as("the main container of %s reads what init container fetch-repo wrote into the emptyDir repo; fetch-repo said: %s",
                                p.pod().name(), r.group.initLog(p, "fetch-repo")).isZero();
            }
            // Order: the user's init container ran after the wait (it saw the marker), once per pod, as the pod's user.
            assertThat(Files.readAllLines(r.claim().resolve(".init-order"))).as("what record-order wrote")
                    .containsExactly("record-order uid=1000 marker=1", "record-order uid=1000 marker=1");
            // Air gap: the Job was the only pod with a key.
            assertThat(Files.readString(r.claim().resolve(".nim-standin-download/runs"))).as("the Job's download")
                    .contains("download-to-cache --profile vllm-bf16-tp1-pp1 keys=NGC_API_KEY");
            assertThat(ModelProxyStartupIT.await(Duration.ofSeconds(30), () -> r.group.records().size() == 2)).as("both servers recorded").isTrue();
            for (Map<String, Object> rec : r.group.records()) {
                assertThat(((Map<?, ?>) rec.get("env")).keySet().stream().map(String::valueOf).toList()).as("the environment of the serving process on %s", rec.get("hostname"))
                        .doesNotContainAnyElementsOf(KEYS);
            }
            for (PodRun p : serving) {
                for (KubeObject init : p.pod().list("spec.initContainers")) {
                    String name = init.at("name").toString();
                    assertThat(r.group.initEnv(p, name).keySet()).as("init container %s of %s", name, p.pod().name()).isNotEmpty()
                            .doesNotContainAnyElementsOf(KEYS);
                }
            }
        }
    }

    @Test
    void aFailedPrefillLeavesTheServingPodsWaitingWithTheirReasonNotCrashing() throws Exception {
        try (Release r = Release.start("failed-prefill", Map.of())) {
            r.control("fail");
            PodRun job = r.group.add(r.job);
            PodRun serving = r.group.add(r.serving.get(0));
            assertThat(job.process().waitFor(60, TimeUnit.SECONDS)).as("the Job's pod ended").isTrue();
            assertThat(job.process().exitValue()).as("the failed Job's exit code; log:%n%s", job.logText()).isNotZero();
            assertThat(job.logText()).contains("401 Unauthorized").doesNotContain("model cache filled");
            Thread.sleep(5000);
            assertThat(serving.process().isAlive()).as("the serving pod after the Job failed: alive; %s", r.states(List.of(serving))).isTrue();
            assertThat(r.group.initStatus(serving)).isEqualTo("running wait-for-model-cache");
            assertThat(r.group.initLog(serving, "wait-for-model-cache")).as("its reason").contains(WAITING)
                    .contains("kubectl get jobs,pods -l app.kubernetes.io/instance=initc,app.kubernetes.io/component=cache-prefill");
            assertThat(r.group.httpStatus(serving, 8000, "/v1/health/live")).as("no server started").isZero();
            assertThat(serving.logText()).as("the main container wrote nothing").isEmpty();
            assertThat(r.group.records()).as("no serving process ran").isEmpty();
        }
    }

    @Test
    void aFailingInitContainerKeepsThePodFromStartingWithTheReason() throws Exception {
        Map<String, String> failing = Map.of("initContainers.extraInit[0].command[2]", "echo 'no GPU driver found'; exit 7");
        try (Release r = Release.start("failing-init", failing)) {
            Files.createDirectories(r.claim().resolve(".nim-llm"));
            Files.writeString(r.claim().resolve(CachePrefillPod.markerInClaim(r.job)), "filled before");
            PodRun serving = r.group.add(r.serving.get(0));
            assertThat(serving.process().waitFor(60, TimeUnit.SECONDS)).as("the pod's init ended; %s", r.states(List.of(serving))).isTrue();
            assertThat(r.group.initStatus(serving)).isEqualTo("Init:Error: init container record-order exited with 7");
            assertThat(r.group.initLog(serving, "wait-for-model-cache")).as("the first init container completed before").contains("is filled");
            assertThat(r.group.initLog(serving, "record-order")).contains("no GPU driver found");
            assertThat(serving.logText()).as("the main container never started").isEmpty();
            assertThat(r.group.records()).as("no serving process ran").isEmpty();
        }
    }

    /** The release rendered and its pods (the Job's and two serving pods), on a group's network with none started. */
    static final class Release implements AutoCloseable {
        final KubeObject job;
        final List<KubeObject> serving;
        final PodGroupRun group;
        final Path dir;

        private Release(KubeObject job, List<KubeObject> serving, PodGroupRun group, Path dir) {
            this.job = job;
            this.serving = serving;
            this.group = group;
            this.dir = dir;
        }

        static Release start(String name, Map<String, String> sets) throws java.io.IOException {
            RenderedManifest manifest = TestHookRenderer.of(ChartUnderTest.chartDir(), dev.nimchart.junit.RunSettings.get()).render("initc", NAMESPACE, List.of(values()), sets);
            Path dir = REPORT_DIR.resolve(name).toAbsolutePath();
            FileTrees.delete(dir);
            KubeObject job = ReleasePods.jobPod(manifest, "", "198.18.0.3");
            List<KubeObject> serving = List.of(ReleasePods.servingPod(manifest, 0, "198.18.0.4"), ReleasePods.servingPod(manifest, 1, "198.18.0.5"));
            List<KubeObject> objects = new ArrayList<>(manifest.objects());
            objects.add(job);
            objects.addAll(serving);
            List<KubeObject> pods = new ArrayList<>(serving);
            pods.add(job);
            objects.addAll(ReleasePods.placeholderSecrets(manifest, pods, List.of()));
            PodGroupRun group = PodGroupRun.start(NamespaceState.of(NAMESPACE, objects), List.of(), dir.resolve("pods"), Map.of(), SettingsFromProperties.shared().rayDir())
                    .runInitContainers(true);
            return new Release(job, serving, group, dir);
        }

        /** Writes a switch of the download stand-in (hold, release, fail) into the shared cache. */
        void control(String file) throws Exception {
            Path control = Files.createDirectories(claim().resolve(".nim-standin-download"));
            // Writable by the pods' user, as the stand-in appends its runs there.
            Files.setPosixFilePermissions(control, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
            Files.writeString(control.resolve(file), "");
        }

        /** The cache claim's directory, which the Job and the serving pods share. */
        Path claim() {
            return group.claim(CachePrefillPod.claimName(job));
        }

        String states(List<PodRun> pods) {
            StringBuilder out = new StringBuilder();
            for (PodRun p : pods) {
                out.append(String.format("%n%s: init status '%s', alive %s; init logs:%n", p.pod().name(), group.initStatus(p), p.process().isAlive()));
                for (KubeObject init : p.pod().list("spec.initContainers")) {
                    out.append("  [").append(init.at("name")).append("] ").append(group.initLog(p, init.at("name").toString())).append('\n');
                }
                out.append("  [main] ").append(p.logText()).append('\n');
            }
            return out.toString();
        }

        @Override
        public void close() {
            group.close();
        }

        static Path values() {
            return TestResources.path(InitContainerStartupIT.class, "air-gapped-prefill.yaml");
        }
    }
}
