package dev.nimchart.chart.packaging;

import dev.nimchart.values.FileTrees;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.CiScript;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The Helm CLI ci/build-tools.sh builds, run with Helm's homes under a work directory and GnuPG's in a temporary
 * directory of its own, and a throwaway GPG key made there that signs chart packages ({@code secring.gpg}) and verifies them ({@code pubring.gpg}).
 */
record HelmCli(Path work, Path helmBinary, Path gnupg) implements AutoCloseable {

    static final String KEY = "nim-llm chart test key";

    record Result(int exit, byte[] bytes, String text) {
    }

    /** Builds or finds Helm and makes a signing key under a new directory of target/ named after {@code prefix}. */
    static HelmCli withSigningKey(String prefix) throws Exception {
        Path work = Files.createTempDirectory(Files.createDirectories(Path.of("target")), prefix).toAbsolutePath();
        Path helm = CiScript.builtTool("helm", line -> System.err.println("[build-tools] " + line));
        // GnuPG's home is a short directory of the system's temporary one, not under target/: gpg-agent's socket lives
        // in it, and a socket's path may not be longer than 107 bytes (a deep checkout, a forked JVM's working directory).
        Path gnupg = Files.createTempDirectory("nim-gpg", java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
        HelmCli cli = new HelmCli(work, helm, gnupg);
        cli.run(List.of("gpg", "--batch", "--homedir", gnupg.toString(), "--pinentry-mode", "loopback", "--passphrase", "",
                "--quick-gen-key", KEY + " <chart-test@nim-llm.invalid>", "rsa2048", "sign", "1d"));
        // Helm reads GnuPG 1 keyrings: the exported (unprotected) secret key and the public key.
        Files.write(cli.secretKeyring(), cli.run(List.of("gpg", "--batch", "--homedir", gnupg.toString(),
                "--pinentry-mode", "loopback", "--passphrase", "", "--export-secret-keys", KEY)).bytes());
        Files.write(cli.publicKeyring(), cli.run(List.of("gpg", "--batch", "--homedir", gnupg.toString(), "--export", KEY)).bytes());
        return cli;
    }

    Path secretKeyring() {
        return work.resolve("secring.gpg");
    }

    Path publicKeyring() {
        return work.resolve("pubring.gpg");
    }

    Result helm(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(helmBinary.toString()));
        command.addAll(List.of(args));
        return exec(command);
    }

    Result run(List<String> command) throws Exception {
        Result r = exec(command);
        assertThat(r.exit()).as("%s: %s", command, r.text()).isZero();
        return r;
    }

    private Result exec(List<String> command) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("GNUPGHOME", gnupg.toString());
        builder.environment().put("HELM_CACHE_HOME", work.resolve("helm-cache").toString());
        builder.environment().put("HELM_CONFIG_HOME", work.resolve("helm-config").toString());
        builder.environment().put("HELM_DATA_HOME", work.resolve("helm-data").toString());
        builder.environment().put("HELM_REGISTRY_CONFIG", work.resolve("helm-config/registry.json").toString());
        Process p = builder.start();
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("%s finished", command).isTrue();
        return new Result(p.exitValue(), out, new String(out, StandardCharsets.UTF_8) + new String(err, StandardCharsets.UTF_8));
    }

    @Override
    public void close() throws Exception {
        new ProcessBuilder("gpgconf", "--homedir", gnupg.toString(), "--kill", "gpg-agent").start().waitFor(10, TimeUnit.SECONDS);
        // gpgconf returns once the agent is told to go; the agent removes its sockets as it exits, which raced with the
        // delete below (NoSuchFileException on S.gpg-agent.ssh under load): wait for them to be gone first
        dev.nimchart.cluster.Poll.upTo(java.time.Duration.ofSeconds(10)).every(50).until(() -> {
            try (java.util.stream.Stream<Path> files = Files.list(gnupg)) {
                return files.noneMatch(f -> f.getFileName().toString().startsWith("S.gpg-agent"));
            } catch (java.io.IOException gone) {
                return true;
            }
        });
        FileTrees.delete(gnupg);
    }
}
