package dev.nimchart.startup;

import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.objects.KubeObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One container's sandbox as {@code pod-sandbox.sh} makes it: the files it reads from the container's directory (its
 * mounts ({@link PodVolumes}), its security settings ({@link ContainerSecurity}) and its environment
 * ({@link ContainerEnvironment}), NUL-separated in {@code env}), and the command line that starts the container in it.
 */
final class ContainerSandbox {

    private final Path sandbox;
    private final PodVolumes volumes;

    /** Sandboxes made by the script at {@code sandbox}, with the volumes of {@code volumes}. */
    ContainerSandbox(Path sandbox, PodVolumes volumes) {
        this.sandbox = sandbox;
        this.volumes = volumes;
    }

    /**
     * Writes the container's files into {@code cdir} (its volumes' sources under the pod directory {@code podDir}) and
     * returns its environment.
     */
    Map<String, String> writeFiles(Path cdir, NamespaceState state, KubeObject pod, KubeObject container, Path podDir, PodUser user,
            String host, Map<String, String> overrides) throws IOException {
        volumes.writeMounts(cdir, state, pod, container, podDir, user.fsGroup());
        ContainerSecurity.write(cdir, container);
        Map<String, String> env = ContainerEnvironment.of(state, pod, container, host, user.uid(), overrides);
        StringBuilder envFile = new StringBuilder();
        env.forEach((k, v) -> envFile.append(k).append('=').append(v).append('\0'));
        Files.writeString(cdir.resolve("env"), envFile.toString());
        return env;
    }

    /**
     * The command line that runs {@code command} in the sandbox of {@code cdir} as {@code user} on {@code host}, inside
     * the namespaces {@code unshare} makes (its arguments, without the program).
     */
    List<String> commandLine(List<String> unshare, Path cdir, String host, PodUser user, List<String> command) {
        List<String> argv = new ArrayList<>(List.of("unshare"));
        argv.addAll(unshare);
        argv.addAll(List.of("bash", sandbox.toString(), cdir.toString(), host));
        argv.addAll(user.sandboxArguments());
        argv.add("--");
        argv.addAll(command);
        return argv;
    }
}
