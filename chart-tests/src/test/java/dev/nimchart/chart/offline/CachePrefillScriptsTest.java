package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.Example;
import dev.nimchart.chart.repository.Examples;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.PodTemplate;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the scripts the chart renders for the cache pre-fill (the Job's container and every NIM pod's
 * wait-for-model-cache init container of the air-gapped 405B example) with /bin/sh, each with its container's own
 * environment (the cache path moved into a temporary directory), and a stand-in for NIM's download-to-cache on PATH
 * that writes the NGC cache layout (hub/models--.../snapshots) under NGC_HOME. The leader and the worker start only
 * once the Job's download has finished; a failed download leaves them waiting with their reason; a second run of the
 * same fill downloads nothing; no waiting container sees a key.
 */
class CachePrefillScriptsTest {

    private static final Example AIR_GAPPED = Example.of(Examples.named("multi-node-air-gapped-405b-prefilled-cache.yaml"));

    @TempDir
    Path dir;

    @Test
    void theGroupStartsOnlyAfterTheJobFilledTheCache() throws Exception {
        Path cache = Files.createDirectories(dir.resolve("cache"));
        Path bin = standIn();
        List<Process> waiting = new ArrayList<>();
        for (PodTemplate t : AIR_GAPPED.gpuTemplates()) {
            waiting.add(start(waitContainer(t), cache, bin, dir.resolve(t.role() + ".log")));
        }
        Thread.sleep(1500);
        for (int i = 0; i < waiting.size(); i++) {
            String role = AIR_GAPPED.gpuTemplates().get(i).role();
            assertThat(waiting.get(i).isAlive()).as("the %s waits while the cache is empty", role).isTrue();
            assertThat(read(dir.resolve(role + ".log"))).as(role)
                    .contains("nim-llm: waiting for the model cache pre-fill Job to write " + cache + "/.nim-llm/prefill-")
                    .contains("kubectl get jobs,pods -l app.kubernetes.io/instance=");
        }
        Process prefill = start(jobContainer(), cache, bin, dir.resolve("job.log"));
        Thread.sleep(1000);
        assertThat(prefill.isAlive()).as("the download is held by the test").isTrue();
        waiting.forEach(p -> assertThat(p.isAlive()).as("nothing starts while the download runs").isTrue());
        Files.writeString(dir.resolve("release-download"), "");
        assertThat(prefill.waitFor(20, TimeUnit.SECONDS)).isTrue();
        assertThat(prefill.exitValue()).as(read(dir.resolve("job.log"))).isZero();
        assertThat(read(dir.resolve("job.log"))).contains("nim-llm: model cache filled; wrote " + cache + "/.nim-llm/prefill-");
        assertThat(cache.resolve("ngc/hub/models--nim--meta--llama-3.1-405b-instruct/snapshots/vllm-fp8-tp8-pp2/config.json"))
                .as("written where the NIM pods read (NGC_HOME)").exists();
        assertThat(read(dir.resolve("download-to-cache.args"))).isEqualTo("download-to-cache --profile vllm-fp8-tp8-pp2 key=yes\n");
        for (int i = 0; i < waiting.size(); i++) {
            String role = AIR_GAPPED.gpuTemplates().get(i).role();
            assertThat(waiting.get(i).waitFor(20, TimeUnit.SECONDS)).as("the %s starts once the marker is there", role).isTrue();
            assertThat(waiting.get(i).exitValue()).isZero();
            assertThat(read(dir.resolve(role + ".log"))).contains("nim-llm: the model cache is filled");
        }
        Process again = start(jobContainer(), cache, bin, dir.resolve("again.log"));
        assertThat(again.waitFor(20, TimeUnit.SECONDS)).isTrue();
        assertThat(again.exitValue()).isZero();
        assertThat(read(dir.resolve("again.log"))).contains("already holds this fill");
        assertThat(read(dir.resolve("download-to-cache.args")).lines()).as("the same fill downloads once").hasSize(1);
    }

    @Test
    void aFailedDownloadLeavesThePodsWaitingWithTheirReason() throws Exception {
        Path cache = Files.createDirectories(dir.resolve("cache"));
        Path bin = standIn();
        Files.writeString(dir.resolve("fail-download"), "");
        Files.writeString(dir.resolve("release-download"), "");
        PodTemplate leader = AIR_GAPPED.gpuTemplates().get(0);
        Process waiting = start(waitContainer(leader), cache, bin, dir.resolve("leader.log"));
        Process prefill = start(jobContainer(), cache, bin, dir.resolve("job.log"));
        assertThat(prefill.waitFor(20, TimeUnit.SECONDS)).isTrue();
        assertThat(prefill.exitValue()).as("the Job's pod fails, so the Job controller retries it").isNotZero();
        assertThat(Files.exists(cache.resolve(".nim-llm"))).as("no marker").isFalse();
        Thread.sleep(1500);
        try {
            assertThat(waiting.isAlive()).as("the leader keeps waiting, it does not crash or download").isTrue();
            assertThat(read(dir.resolve("leader.log"))).contains("waiting for the model cache pre-fill Job").contains("kubectl get jobs,pods -l");
        } finally {
            waiting.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void noWaitingContainerSeesAKey() {
        for (PodTemplate t : AIR_GAPPED.gpuTemplates()) {
            assertThat(waitContainer(t).env().keySet()).as(t.role()).noneMatch(n -> n.contains("KEY") || n.contains("TOKEN"));
        }
        assertThat(jobContainer().env()).containsKey("NGC_API_KEY");
    }

    /** What one container runs: argv and env as the kubelet gives them (secrets as a test value). */
    private record Container(List<String> argv, Map<String, String> env) {
    }

    private static KubeObject job() {
        return AIR_GAPPED.manifest.one("Job");
    }

    private static Container jobContainer() {
        return container(job().list("spec.template.spec.containers").get(0));
    }

    private static Container waitContainer(PodTemplate t) {
        return container(t.initContainers().stream().filter(c -> "wait-for-model-cache".equals(c.at("name"))).findFirst().orElseThrow());
    }

    @SuppressWarnings("unchecked")
    private static Container container(KubeObject c) {
        List<String> argv = new ArrayList<>((List<String>) c.at("command"));
        Object args = c.at("args");
        if (args != null) {
            argv.addAll((List<String>) args);
        }
        Map<String, String> env = new LinkedHashMap<>();
        for (KubeObject e : c.list("env")) {
            Object value = e.at("value");
            env.put((String) e.at("name"), value != null ? value.toString() : "secret-from-" + e.at("valueFrom.secretKeyRef.name"));
        }
        return new Container(argv, env);
    }

    /** Starts a container's argv with its env, /model-store moved to {@code cache}, and the stand-in first on PATH. */
    private Process start(Container c, Path cache, Path bin, Path log) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(c.argv()).redirectErrorStream(true).redirectOutput(log.toFile());
        Map<String, String> env = pb.environment();
        env.clear();
        env.put("PATH", bin + ":/usr/bin:/bin");
        env.put("STANDIN_DIR", dir.toString());
        c.env().forEach((k, v) -> env.put(k, v.replace("/model-store", cache.toString())));
        env.put("HOME", dir.toString());
        return pb.start();
    }

    /** download-to-cache as NIM lays out its NGC cache; held until the test releases it; fails on request. */
    private Path standIn() throws IOException {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path tool = bin.resolve("download-to-cache");
        Files.writeString(tool, """
                #!/bin/sh
                set -eu
                echo "download-to-cache $* key=$([ -n "${NGC_API_KEY:-}" ] && echo yes || echo no)" >> "$STANDIN_DIR/download-to-cache.args"
                until [ -f "$STANDIN_DIR/release-download" ]; do sleep 0.2; done
                if [ -f "$STANDIN_DIR/fail-download" ]; then echo "download failed: 401 Unauthorized" >&2; exit 3; fi
                profile=$2
                model="$NGC_HOME/hub/models--nim--meta--llama-3.1-405b-instruct"
                mkdir -p "$model/blobs" "$model/refs" "$model/snapshots/$profile"
                echo '{}' > "$model/blobs/0355b8d0"
                echo "$profile" > "$model/refs/$profile"
                ln -s ../../blobs/0355b8d0 "$model/snapshots/$profile/config.json"
                """, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwxr-xr-x"));
        return bin;
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file) : "";
    }
}
