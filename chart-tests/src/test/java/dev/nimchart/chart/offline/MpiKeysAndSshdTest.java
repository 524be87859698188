package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.ChartScripts;
import dev.nimchart.chart.repository.Examples;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.PodTemplate;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartUnderTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Least privilege of MPI start-up over SSH: the generated key's public half is the one OpenSSH derives from its private
 * half; a LeaderWorkerSet leader mounts the private key only and a worker the public key only; worker.sh (run with bash
 * and a stand-in sshd that reports its config) accepts that public key, turns off every kind of forwarding, tunnels,
 * X11, TTYs and user rc files, and writes its config, which carries the container's environment (the NGC key
 * included), only into the memory-backed directory it is given.
 */
class MpiKeysAndSshdTest {

    private static final String LWS = "multi-node-llama-3.1-405b-lws.yaml";

    @TempDir
    static Path scripts;

    @BeforeAll
    static void writeTheRenderedScripts() throws IOException {
        ChartScripts.writeRendered(LWS, scripts, List.of("common.sh", "worker.sh"));
    }

    @Test
    void theGeneratedPublicKeyIsThePrivateKeysOwn() throws Exception {
        KubeObject secret = sshSecret(ChartUnderTest.render(Examples.named(LWS)));
        Path key = scripts.resolve("private.key");
        Files.write(key, Base64.getDecoder().decode((String) secret.at("data[private.key]")));
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        ScriptRun derived = run(List.of("ssh-keygen", "-y", "-f", key.toString()), Map.of());
        assertThat(derived.exit()).as(derived.output()).isZero();
        String published = new String(Base64.getDecoder().decode((String) secret.at("data[public.key]")), StandardCharsets.UTF_8);
        assertThat(words(published, 2)).as("public.key is the OpenSSH form of private.key's public key").isEqualTo(words(derived.output(), 2));
        assertThat(published).startsWith("ecdsa-sha2-nistp256 ").endsWith("\n");
    }

    @Test
    void theLeaderMountsThePrivateKeyOnlyAndWorkersThePublicKeyOnly() {
        RenderedManifest m = ChartUnderTest.render(Examples.named(LWS));
        for (PodTemplate t : PodTemplate.of(m)) {
            KubeObject volume = t.volumes().stream().filter(v -> "ssh-key".equals(v.at("name"))).findFirst().orElseThrow();
            List<Object> items = volume.list("secret.items").stream().map(i -> i.at("key")).toList();
            assertThat(items).as("%s mounts", t).isEqualTo(List.of(t.role().equals("leader") ? "private.key" : "public.key"));
            Map<String, KubeObject> env = PodTemplate.env(t.nim());
            assertThat(env.containsKey("NIM_MPI_SSH_KEY")).as("%s names a private key", t).isEqualTo(t.role().equals("leader"));
            assertThat(env.containsKey("NIM_MPI_SSH_AUTHORIZED_KEYS")).as("%s names the public key", t).isEqualTo(t.role().equals("worker"));
        }
    }

    @Test
    void workerSshdAcceptsThePublicKeyForbidsForwardingAndKeepsItsConfigInMemory() throws Exception {
        Path memory = Files.createDirectories(scripts.resolve("memory"));
        Path report = scripts.resolve("sshd-config-seen");
        Path sshd = scripts.resolve("fake-sshd");
        // The stand-in sshd copies the config it was given (-f) where the test reads it, and says where it was.
        Files.writeString(sshd, "#!/bin/bash\nwhile (( $# )); do [[ $1 == -f ]] && { cp \"$2\" \"$REPORT\"; echo \"config at $2\"; }; shift; done\n");
        Files.setPosixFilePermissions(sshd, PosixFilePermissions.fromString("rwx------"));
        Path pub = scripts.resolve("public.key");
        Files.writeString(pub, "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBK nim-llm\n");
        String ngcKey = "nvapi-FAKE-sshd-config-3c1d";
        ScriptRun r = run(List.of("bash", scripts.resolve("worker.sh").toString()), Map.of("NIM_MPI_SSH_AUTHORIZED_KEYS", pub.toString(),
                "NIM_MPI_SSHD_DIR", memory.toString(), "NIM_MPI_SSH_PORT", "2222", "NIM_SSHD", sshd.toString(), "REPORT", report.toString(),
                "NGC_API_KEY", ngcKey));
        assertThat(r.exit()).as(r.output()).isZero();
        assertThat(r.output()).as("sshd reads its config from the memory-backed directory").contains("config at " + memory + "/sshd.");
        List<String> config = Files.readAllLines(report);
        assertThat(config).contains("AllowTcpForwarding no", "AllowStreamLocalForwarding no", "AllowAgentForwarding no", "GatewayPorts no",
                "PermitTunnel no", "X11Forwarding no", "PermitTTY no", "PermitUserRC no", "PasswordAuthentication no");
        assertThat(config).anyMatch(l -> l.startsWith("AuthorizedKeysFile " + memory + "/"));
        assertThat(config).as("the ranks still get the container's environment").anyMatch(l -> l.startsWith("SetEnv ") && l.contains(ngcKey));
        try (Stream<Path> files = Files.walk(memory)) {
            Path authorized = files.filter(f -> f.getFileName().toString().equals("authorized_keys")).findFirst().orElseThrow();
            assertThat(Files.readString(authorized)).isEqualTo(Files.readString(pub));
        }
        ScriptRun noDir = run(List.of("bash", scripts.resolve("worker.sh").toString()), Map.of("NIM_MPI_SSH_AUTHORIZED_KEYS", pub.toString(),
                "NIM_SSHD", sshd.toString(), "REPORT", report.toString()));
        assertThat(noDir.exit()).as("without a memory-backed directory worker.sh refuses to start").isNotZero();
        assertThat(noDir.output()).contains("NIM_MPI_SSHD_DIR is not set");
    }

    private static KubeObject sshSecret(RenderedManifest m) {
        return m.ofKind("Secret").stream().filter(s -> s.name().endsWith("-ssh")).findFirst().orElseThrow();
    }

    private static String words(String line, int n) {
        String[] w = line.strip().split("\\s+");
        return String.join(" ", List.of(w).subList(0, Math.min(n, w.length)));
    }

    private static ScriptRun run(List<String> command, Map<String, String> env) throws Exception {
        return ScriptRun.of(command, scripts, null, env);
    }
}
