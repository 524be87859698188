package dev.nimchart.startup;

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
 * {@code ci/install-startup-tools.sh} installs when they are missing (as the other tiers build their Go binaries), and
 * Ray in a virtual environment of its own ({@code ci/install-ray.sh}, pinned, from PyPI) for the Ray groups.
 */
public final class StartupHost {

    private StartupHost() {
    }

    /** Empty when the tier can run here, else why not. Installs the packages when missing and possible. */
    public static Optional<String> unavailableReason(Path repoRoot) {
        if (!"root".equals(System.getProperty("user.name"))) {
            return Optional.of("the start-up tier needs root (network namespaces, mounts, setpriv); running as " + System.getProperty("user.name"));
        }
        if (!Files.isExecutable(Path.of("/usr/sbin/sshd")) || !onPath("mpirun") || !onPath("ip") || !onPath("ssh-keygen")) {
            Path script = repoRoot.resolve("ci/install-startup-tools.sh");
            Result r = run(List.of("bash", script.toString()), 900);
            if (r.exit != 0) {
                return Optional.of("ci/install-startup-tools.sh failed: " + r.output);
            }
        }
        if (!Files.isExecutable(rayDir().resolve("bin/ray"))) {
            Result r = run(List.of("bash", repoRoot.resolve("ci/install-ray.sh").toString(), rayDir().toString()), 900);
            if (r.exit != 0) {
                return Optional.of("ci/install-ray.sh failed: " + r.output);
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

    static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            if (Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }

    /** The output and exit code of a command. */
    public record Result(int exit, String output) {
    }

    /**
     * Where Ray is installed for the start-up tier's Ray groups: {@code -Dnim.ray.dir}, else the default directory of
     * {@code ci/install-ray.sh}.
     */
    public static Path rayDir() {
        return Path.of(System.getProperty("nim.ray.dir", "/usr/local/lib/nim-llm-chart/ray"));
    }

    /** Runs a command to completion (output and errors together), failing on a time-out. */
    static Result run(List<String> command, int timeoutSeconds) {
        try {
            Process p = new ProcessBuilder(new ArrayList<>(command)).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Result(-1, "timed out: " + String.join(" ", command));
            }
            return new Result(p.exitValue(), new String(out).strip());
        } catch (IOException e) {
            return new Result(-1, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted");
        }
    }

    /** Runs a command that must succeed. */
    static String must(List<String> command) {
        Result r = run(command, 60);
        if (r.exit != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed (" + r.exit + "): " + r.output);
        }
        return r.output;
    }
}
