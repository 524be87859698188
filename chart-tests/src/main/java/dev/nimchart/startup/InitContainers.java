package dev.nimchart.startup;

import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.objects.KubeObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A pod's init containers as the kubelet runs them: in order, each to completion, before the main container, each in a
 * sandbox of its own (its own mounts, environment, user and security settings; the pod's network and files), in
 * {@code POD_DIR/init-NAME}; {@code pod-init.sh} drives them and records where they stand.
 */
final class InitContainers {

    private InitContainers() {
    }

    /**
     * An init container's directory POD_DIR/init-NAME as pod-sandbox.sh reads it: the pod's /etc files (its passwd for
     * the container's user), the image's files (/opt) and home directories, the container's own mounts, environment and
     * security settings, and its command line (argv, NUL-separated: the sandbox with the container's user and groups).
     */
    static Path write(ContainerSandbox sandbox, NamespaceState state, KubeObject pod, KubeObject init, Path dir, String host,
            PodUser podUser) throws IOException {
        Path cdir = dir.resolve("init-" + init.at("name"));
        Path etc = Files.createDirectories(cdir.resolve("etc-upper"));
        Files.createDirectories(cdir.resolve("etc-work"));
        PodUser user = podUser.forInit(pod, init);
        for (String file : List.of("hosts", "resolv.conf", "group")) {
            Files.copy(dir.resolve("etc-upper").resolve(file), etc.resolve(file));
        }
        PodImage.writeUsers(etc, user.uid());
        Files.copy(dir.resolve("image-homes"), cdir.resolve("image-homes"));
        Files.createSymbolicLink(cdir.resolve("opt"), dir.resolve("opt"));
        sandbox.writeFiles(cdir, state, pod, init, dir, user, host, Map.of());
        // A mount namespace of its own: its mounts end with it, and none is made where the driver holds its log open.
        List<String> argv = sandbox.commandLine(List.of("--uts", "--mount"), cdir, host, user, ContainerCommand.expanded(state, pod, init));
        StringBuilder file = new StringBuilder();
        argv.forEach(a -> file.append(a).append('\0'));
        Files.writeString(cdir.resolve("argv"), file.toString());
        return cdir;
    }

    /**
     * Where the pod's init containers stand: empty when it has none or none has run yet, "running NAME" while one runs,
     * "Init:Error: init container NAME exited with N" when one failed (the main container then never starts), "started"
     * once all completed and the main container was started.
     */
    static String status(Path podDir) {
        return readOrEmpty(podDir.resolve("init-status")).strip();
    }

    /** What an init container of the pod wrote (stdout and stderr), empty before it ran. */
    static String log(Path podDir, String container) {
        return readOrEmpty(podDir.resolve("init-" + container).resolve("log"));
    }

    /** The environment an init container of the pod was started with (as the kubelet expands it, plus the runtime's). */
    static Map<String, String> env(Path podDir, String container) {
        try {
            Map<String, String> env = new LinkedHashMap<>();
            for (String kv : Files.readString(podDir.resolve("init-" + container).resolve("env")).split("\0")) {
                int eq = kv.indexOf('=');
                if (eq > 0) {
                    env.put(kv.substring(0, eq), kv.substring(eq + 1));
                }
            }
            return env;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String readOrEmpty(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
