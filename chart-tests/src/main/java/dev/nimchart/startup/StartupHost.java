package dev.nimchart.startup;

import dev.nimchart.cluster.BinaryAssets;
import dev.nimchart.settings.BinarySource;
import dev.nimchart.settings.Settings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * What the start-up tier needs of this machine: root (network, UTS and mount namespaces, setpriv), iproute2's
 * {@code ip netns}, overlayfs, and OpenSSH's sshd and Open MPI's mpirun from the distribution's packages, which
 * the settings' builder installs when they are missing (this repository's {@code ci/install-startup-tools.sh}, as the
 * other tiers build their Go binaries), and Ray in a virtual environment of its own ({@link Settings#rayDir()};
 * {@code ci/install-ray.sh}, pinned, from PyPI) for the Ray groups.
 */
public final class StartupHost {

    private StartupHost() {
    }

    /**
     * Empty when the tier can run here, else why not. Installs the packages and Ray (into {@link Settings#rayDir()})
     * with the settings' builder (this repository's ci/install-startup-tools.sh and ci/install-ray.sh) when missing.
     */
    public static Optional<String> unavailableReason(Settings settings) {
        Result uid = run(List.of("id", "-u"), 10);
        if (uid.exit != 0 || !uid.output.strip().equals("0")) {
            return Optional.of("the start-up tier needs root (network namespaces, mounts, setpriv); running as " + run(List.of("id", "-un"), 10).output.strip());
        }
        BinarySource tools = BinaryAssets.of(settings);
        if (!Files.isExecutable(Path.of("/usr/sbin/sshd")) || !onPath("mpirun") || !onPath("ip") || !onPath("ssh-keygen")) {
            try {
                tools.startupTools(line -> { });
            } catch (RuntimeException e) {
                return Optional.of(e.getMessage());
            }
        }
        Path rayDir = settings.rayDir();
        if (!Files.isExecutable(rayDir.resolve("bin/ray"))) {
            try {
                tools.ray(rayDir, line -> { });
            } catch (RuntimeException e) {
                return Optional.of(e.getMessage());
            }
        }
        Result netns = run(List.of("ip", "netns", "list"), 10);
        if (netns.exit != 0) {
            return Optional.of("ip netns is not usable: " + netns.output);
        }
        if (!Files.isExecutable(Path.of("/usr/bin/python3"))) {
            return Optional.of("the NIM stand-in needs /usr/bin/python3");
        }
        return Optional.empty();
    }

    /** Whether the shell finds the command on its PATH. */
    static boolean onPath(String command) {
        return run(List.of("sh", "-c", "command -v \"$1\" >/dev/null", "on-path", command), 10).exit == 0;
    }

    /** The output and exit code of a command. */
    public record Result(int exit, String output) {
    }

    /** Runs a command to completion (output and errors together), failing on a time-out. */
    static Result run(List<String> command, int timeoutSeconds) {
        try {
            Process p = new ProcessBuilder(new ArrayList<>(command)).redirectErrorStream(true).start();
            // Read on another thread, so that the timeout holds even when the command never closes its output.
            java.util.concurrent.CompletableFuture<byte[]> out = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try {
                    return p.getInputStream().readAllBytes();
                } catch (IOException e) {
                    return new byte[0];
                }
            });
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                return new Result(-1, "timed out after " + timeoutSeconds + " s: " + String.join(" ", command));
            }
            try {
                // A background process the command left behind may hold its output open: what came within a few seconds.
                return new Result(p.exitValue(), new String(out.get(5, TimeUnit.SECONDS)).strip());
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                return new Result(p.exitValue(), "");
            }
        } catch (IOException e) {
            return new Result(-1, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted");
        }
    }

    /** Runs a command that must succeed. */
    public static String must(List<String> command) {
        Result r = run(command, 60);
        if (r.exit != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed (" + r.exit + "): " + r.output);
        }
        return r.output;
    }
}
