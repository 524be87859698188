package dev.nimchart.chart.startup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.Examples;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.render.TestHookRenderer;
import dev.nimchart.startup.GpuCheck;
import dev.nimchart.startup.ServingPodRun;
import dev.nimchart.startup.ServingPodRun.Report;
import dev.nimchart.startup.StartupHost;
import dev.nimchart.values.FileTrees;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The start-up tier's single-node pod, run as the kubelet and runc run it (the pod's user and fsGroup, a read-only
 * root filesystem, emptyDirs as tmpfs of their sizeLimit, HOME as the runtime sets it from the image's passwd entry,
 * every capability dropped, no_new_privs), with the stand-in in the GPU engine's place, writing each engine's caches
 * where the engine writes them by default: what {@code ci/gpu-check.sh} runs with a real engine on a GPU. With CI=true
 * it runs or fails; otherwise it is skipped with the reason, like the rest of the start-up tier.
 *
 * <p>Its tests run side by side (each mostly waits, at least the startup probe's 40 s initialDelaySeconds): every run has
 * a directory of its own under REPORT_DIR and its own network and mount namespaces (the bundle's {@code run} is
 * {@code unshare --net --mount}; the bundle tests' /opt is a tmpfs in an {@code unshare --mount} of their own), so the
 * pods' fixed address and ports, /opt and emptyDirs never meet; the one thing shared, the engine's Python under /opt, is
 * made once ({@link #enginePython}).
 */
@Execution(ExecutionMode.CONCURRENT)
class ServingPodIT {

    static final Path REPORT_DIR = Path.of("target", "serving-pod");
    /** The variables through which the chart points every engine cache into the home (home.path). */
    static final List<String> CACHE_VARIABLES = List.of("HOME", "XDG_CACHE_HOME", "TRITON_HOME", "TRITON_CACHE_DIR", "VLLM_CACHE_ROOT",
            "TORCHINDUCTOR_CACHE_DIR", "TORCH_HOME", "FLASHINFER_WORKSPACE_BASE", "CUDA_CACHE_PATH", "OUTLINES_CACHE_DIR");

    @BeforeAll
    static void startupHost() {
        StartupIT.requireStartupHost();
    }

    @Test
    void theDefaultPodStartsWithEveryEngineCacheInItsHomeAndPassesItsProbesHelmTestAndAChatCompletion() throws Exception {
        Path file = Examples.named("single-node-minimal.yaml");
        Report r = ServingPodRun.run(render(file, Map.of()), REPORT_DIR.resolve("minimal").toAbsolutePath(),
                Duration.ofMinutes(3));
        String home = String.valueOf(ChartUnderTest.values(file).get("home") instanceof Map<?, ?> h ? h.get("path") : null);
        System.out.println("[serving pod] single-node-minimal.yaml with the stand-in:\n" + r.text());
        assertThat(r.routes()).as("the pod's network has no route out:%n%s", r.text()).isEmpty();
        assertThat(r.passed()).as("the default pod on the runtime:%n%s", r.text()).isTrue();
        assertThat(r.home()).as("HOME of the server process").isEqualTo(home);
        for (String cache : List.of("/.triton/cache", "/.cache/vllm", "/.cache/torch", "/.cache/flashinfer", "/.nv/ComputeCache",
                "/.cache/torchinductor")) {
            assertThat(r.written().keySet()).as("the engine cache %s written in the home %s:%n%s", cache, home, r.text())
                    .contains(home + cache);
        }
        assertThat(r.written().keySet()).as("every directory the pod wrote is one of its writable mounts:%n%s", r.text())
                .allMatch(d -> d.startsWith(home + "/") || d.equals("/tmp") || d.startsWith("/tmp/") || d.startsWith("/model-store"));
        assertThat(r.timeToReady()).as("Ready no sooner than the startup probe's initialDelaySeconds (40 s)")
                .isGreaterThanOrEqualTo(Duration.ofSeconds(40));
    }

    @Test
    void theDynamoExampleStartsItsWorkerOnDynamoAndPassesItsProbesHelmTestAndAChatCompletion() throws Exception {
        Report r = ServingPodRun.run(render(Examples.named("single-node-dynamo-nim3.yaml"), Map.of()),
                REPORT_DIR.resolve("dynamo").toAbsolutePath(), Duration.ofMinutes(3));
        System.out.println("[serving pod] single-node-dynamo-nim3.yaml with the stand-in:\n" + r.text());
        assertThat(r.passed()).as("the Dynamo single-container pod on the runtime:%n%s", r.text()).isTrue();
        assertThat(r.log()).as("the worker's log").contains("Starting Dynamo worker: python -m dynamo.vllm");
    }

    @Test
    void theEngineSettingsExampleServesItsServedModelNameAndItsEngineGetsEveryArgumentWhole() throws Exception {
        Report r = ServingPodRun.run(render(Examples.named("single-node-engine-settings-speculative.yaml"), Map.of()),
                REPORT_DIR.resolve("engine-settings").toAbsolutePath(), Duration.ofMinutes(3));
        assertThat(r.passed()).as("the engine settings example on the runtime:%n%s", r.text()).isTrue();
        assertThat(r.log()).as("the engine's arguments, as split from NIM_PASSTHROUGH_ARGS").contains("nim-standin: engine arguments "
                + "[\"--max-num-seqs\", \"384\", \"--compilation-config\", \"{\\\"cudagraph_capture_sizes\\\": [1, 2, 4, 8]}\"]");
    }

    @Test
    void aDynamoWorkerThatFellBackToPlainVllmFailsHelmTest() throws Exception {
        // An image without the Dynamo package (the stand-in's STANDIN_DYNAMO_ABSENT=1): the worker falls back to plain vLLM.
        RenderedManifest m = render(Examples.named("single-node-dynamo-nim3.yaml"), Map.of());
        withEnv(m, "STANDIN_DYNAMO_ABSENT", "1");
        Report r = ServingPodRun.run(m, REPORT_DIR.resolve("dynamo-fallback").toAbsolutePath(), Duration.ofMinutes(3));
        assertThat(r.log()).as("the worker's log").contains("Launching vLLM: vllm serve").doesNotContain("Starting Dynamo worker");
        assertThat(r.passed()).as("the fallback on the runtime:%n%s", r.text()).isFalse();
        assertThat(r.helmTest()).as("helm test on the fallback:%n%s", r.text()).isFalse();
    }

    @Test
    void withoutTheWritableHomeTheEngineExitsAtStartOnTheReadOnlyRoot() throws Exception {
        // The chart before home.path existed: the same pod without HOME, the engine cache variables and the home mount.
        Report r = ServingPodRun.run(withoutHome(render(Examples.named("single-node-minimal.yaml"), Map.of())),
                REPORT_DIR.resolve("without-home").toAbsolutePath(), Duration.ofMinutes(2));
        assertThat(r.passed()).as("the old pod on the runtime:%n%s", r.text()).isFalse();
        assertThat(r.started()).as("started").isFalse();
        assertThat(r.home()).as("HOME from the image's passwd entry of uid 1000").isEqualTo("/home/ubuntu");
        assertThat(r.log()).as("the server's log").contains("Read-only file system: '/home/ubuntu/.triton'");
    }

    @Test
    void aUidWithoutAPasswdEntryGetsHomeSlashWhereTheOldPodCrashes() throws Exception {
        Map<String, String> uid = Map.of("podSecurityContext.runAsUser", "1001", "podSecurityContext.runAsGroup", "1001",
                "podSecurityContext.fsGroup", "1001");
        Report old = ServingPodRun.run(withoutHome(render(Examples.named("single-node-minimal.yaml"), uid)),
                REPORT_DIR.resolve("uid-1001-without-home").toAbsolutePath(), Duration.ofMinutes(2));
        assertThat(old.home()).as("HOME of a uid the image's passwd does not know").isEqualTo("/");
        assertThat(old.log()).as("the old pod's log:%n%s", old.text()).contains("Read-only file system").contains("'/.triton");
    }

    /**
     * The GPU check's bundle as a GPU host without Java runs it: made by the command, carried to another directory, run
     * by {@code DIR/run} with nothing but the system's PATH, the stand-in in the engine's place and its Python under
     * /opt (a copy of the system's interpreter, mounted there in a mount namespace of the test's own), which the pod's
     * sandbox covers with the pod's own /opt unless the executor binds it in as an image's files.
     */
    @ParameterizedTest
    @ValueSource(strings = {"single-node-minimal.yaml", "single-node-deployment-static-volume.yaml"})
    void theGpuCheckBundleRunsOnAHostWithoutJavaWithItsPythonUnderOpt(String example) throws Exception {
        Path made = REPORT_DIR.resolve("bundle-made-" + example).toAbsolutePath();
        Command c = gpuCheckBundle(example, made);
        assertThat(c.exit()).as("exit code; output:%n%s", c.output()).isZero();
        assertThat(FileTrees.size(made)).as("the bundle's size").isLessThan(20L << 20);
        try (var files = Files.walk(made)) {
            assertThat(files.map(p -> p.getFileName().toString())).as("nothing of Java in the bundle")
                    .noneMatch(n -> n.endsWith(".jar") || n.endsWith(".class"));
        }
        Path carried = REPORT_DIR.resolve("bundle-carried-" + example).toAbsolutePath();
        FileTrees.delete(carried);
        StartupHost.must(List.of("cp", "-a", made.toString(), carried.toString()));
        Path venv = enginePython();
        // The host's /opt in this run: an empty tmpfs with the engine's Python at /opt/engine-python (the host's /opt untouched).
        // The Deployment's run has a host without curl (its curl covered by /dev/null): helm test then runs on the bundle's own.
        boolean noCurl = example.contains("deployment");
        List<String> wrap = List.of("unshare", "--mount", "--propagation", "private", "bash", "-c",
                "mount -t tmpfs -o mode=755 tmpfs /opt && mkdir /opt/engine-python && mount --bind \"$0\" /opt/engine-python"
                        + (noCurl ? " && for c in /usr/bin/curl /usr/local/bin/curl; do if [[ -e $c ]]; then mount --bind /dev/null $c; fi; done" : "")
                        + " && exec \"$@\"",
                venv.toString());
        Report r = ServingPodRun.execute(carried, List.of("--ready-timeout", "180"), Map.of("NIM_STANDIN_PYTHON", "/opt/engine-python/bin/python3"),
                wrap);
        System.out.println("[gpu-check bundle] " + example + ":\n" + r.text());
        assertThat(r.passed()).as("the bundle's run:%n%s", r.text()).isTrue();
        assertThat(r.mode()).as("no GPU here: the stand-in").isEqualTo("standin");
        assertThat(r.gpu()).isEqualTo("no GPU: the stand-in");
        assertThat(r.python()).as("the engine's Python, under /opt").isEqualTo("/opt/engine-python/bin/python3");
        assertThat(r.log()).as("the server ran on the Python under /opt, inside the pod").contains("interpreter /opt/engine-python/bin/python3");
        assertThat(r.timeToReady()).as("Ready").isNotNull();
        assertThat(r.text()).contains("time to Ready: ").contains("tokens/s").contains("helm test: passed").contains("gpu-check: PASSED")
                .contains("routes of the pod's network: none (no route out)");
        assertThat(r.routes()).as("no route out of the pod's network").isEmpty();
        assertThat(r.text()).as("helm test's curl").contains(noCurl ? "the bundle's standard-library curl: the host has none" : "the host's curl");
        assertThat(r.helmTest() && r.chat()).as("helm test and chat completion").isTrue();
        String home = r.home();
        assertThat(r.written().keySet()).as("the engine caches in the home %s:%n%s", home, r.text()).contains(home + "/.triton/cache");
        assertThat(r.written().keySet()).as("every directory the pod wrote is one of its writable mounts:%n%s", r.text())
                .allMatch(d -> d.equals(home) || d.startsWith(home + "/") || d.equals("/tmp") || d.startsWith("/tmp/") || d.startsWith("/model-store"));
    }

    /**
     * The engine's Python the bundle tests mount at /opt/engine-python: a copy of the system's interpreter, made once for
     * both (synchronized: the two run side by side, and a venv made twice at once in one directory is a broken one).
     */
    static synchronized Path enginePython() {
        Path venv = REPORT_DIR.resolve("opt-python").toAbsolutePath();
        if (!Files.isExecutable(venv.resolve("bin/python3"))) {
            StartupHost.must(List.of("/usr/bin/python3", "-m", "venv", "--without-pip", "--copies", venv.toString()));
        }
        return venv;
    }

    @Test
    void theGpuCheckCommandRefusesAMultiNodeValuesFile() {
        Command c = gpuCheck("multi-node-llama-3.1-405b-lws.yaml", "gpu-check-multi-node");
        assertThat(c.exit()).as("exit code; output:%n%s", c.output()).isEqualTo(2);
        assertThat(c.output()).contains("runs a single-node release").contains("single-node values file");
    }

    record Command(int exit, String output) {
    }

    /** The GPU check's command making the bundle of an example into {@code dir}. */
    static Command gpuCheckBundle(String example, Path dir) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int exit = GpuCheck.run(dev.nimchart.junit.RunSettings.get(), new String[] {"--chart", ChartUnderTest.chartDir().toString(), "--values", Examples.named(example).toString(),
                "--bundle", dir.toString()}, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return new Command(exit, bytes.toString(StandardCharsets.UTF_8));
    }

    /** The GPU check's command (without --engine: the stand-in) on an example, its results under REPORT_DIR/results. */
    static Command gpuCheck(String example, String results) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int exit = GpuCheck.run(dev.nimchart.junit.RunSettings.get(), new String[] {"--chart", ChartUnderTest.chartDir().toString(), "--values", Examples.named(example).toString(),
                "--results", REPORT_DIR.resolve(results).toAbsolutePath().toString()}, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return new Command(exit, bytes.toString(StandardCharsets.UTF_8));
    }

    static RenderedManifest render(Path file, Map<String, String> sets) {
        return TestHookRenderer.of(ChartUnderTest.chartDir(), dev.nimchart.junit.RunSettings.get()).render("serving", "serving-pod", List.of(file.toAbsolutePath()), sets);
    }

    /** The manifest with one more variable in the serving workload's NIM container. */
    @SuppressWarnings("unchecked")
    static void withEnv(RenderedManifest m, String name, String value) {
        for (KubeObject workload : m.ofKind("StatefulSet")) {
            for (Map<String, Object> c : (List<Map<String, Object>>) workload.at("spec.template.spec.containers")) {
                if ("nim".equals(c.get("name"))) {
                    ((List<Object>) c.get("env")).add(new java.util.LinkedHashMap<>(Map.of("name", name, "value", value)));
                }
            }
        }
    }

    /** The manifest with the serving workload's pod as the chart rendered it before home.path: no home mount, no cache variables. */
    @SuppressWarnings("unchecked")
    static RenderedManifest withoutHome(RenderedManifest m) {
        for (KubeObject workload : m.ofKind("StatefulSet")) {
            Map<String, Object> spec = (Map<String, Object>) workload.at("spec.template.spec");
            ((List<Map<String, Object>>) spec.get("volumes")).removeIf(v -> "home".equals(v.get("name")));
            for (Map<String, Object> c : (List<Map<String, Object>>) spec.get("containers")) {
                ((List<Map<String, Object>>) c.get("volumeMounts")).removeIf(v -> "home".equals(v.get("name")));
                ((List<Map<String, Object>>) c.get("env")).removeIf(e -> CACHE_VARIABLES.contains(String.valueOf(e.get("name"))));
            }
        }
        return m;
    }
}
