package dev.nimchart.startup;

import dev.nimchart.objects.KubeObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * The executor of the start-up tier's runtime plans ({@value #EXECUTOR}): every pod's start, exec and probe run goes
 * through it. The Java side writes each pod's plan ({@code POD_DIR/plan.json}); the executor runs it, here in the pod's
 * network namespace or elsewhere (ServingPodRun, the GPU check's bundle).
 */
final class PodExecutor {

    /** The executor's file name (a resource of this package). */
    static final String EXECUTOR = "pod-run.py";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Path executor;

    /** The executor written into {@code workDir}. */
    PodExecutor(Path workDir) throws IOException {
        this.executor = StartupResources.executable(EXECUTOR, workDir.resolve(EXECUTOR));
    }

    /** The Python that runs the executor (standard library only): the system's. */
    static String python() {
        return Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : "python3";
    }

    /**
     * Mounts the pod's emptyDirs ({@link PodVolumes#writeEmptyDirs}) in this JVM's mount namespace, where every later
     * start of a container of the pod finds them (each starts in a copy of this namespace): the kubelet's set-up of a
     * pod's volumes before its first container. Those already mounted stay as they are.
     */
    void mountVolumes(Path podDir) {
        StartupHost.must(List.of(python(), executor.toString(), "volumes", podDir.toString()));
    }

    /** The command that starts the pod of {@code podDir} in the network namespace {@code netns}: its process is the pod's. */
    List<String> startCommand(String netns, Path podDir) {
        return List.of("ip", "netns", "exec", netns, python(), executor.toString(), "start", podDir.toString());
    }

    /** The command that starts the pod's main container again (the kubelet's restart: its init containers do not run again). */
    List<String> restartCommand(String netns, Path podDir) {
        return List.of("ip", "netns", "exec", netns, python(), executor.toString(), "restart", podDir.toString());
    }

    /** The executor's command on this pod, run in its network namespace: {@code pod-run.py VERB POD_DIR [ARG] --pid PID}. */
    List<String> command(PodGroupRun.PodRun run, String verb, String... args) {
        List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", run.netns(), python(), executor.toString(), verb,
                run.dir().toString()));
        command.addAll(List.of(args));
        command.addAll(List.of("--pid", Long.toString(run.process().pid())));
        return command;
    }

    /** Exit code of a command run in the pod's namespaces, as its user, with its environment, ended (and failed) after timeoutSeconds. */
    int exec(PodGroupRun.PodRun run, List<String> command, int timeoutSeconds) {
        List<String> full = command(run, "exec", "--timeout", Integer.toString(timeoutSeconds));
        full.add("--");
        full.addAll(command);
        return StartupHost.run(full, timeoutSeconds + 10).exit();
    }

    /**
     * POD_DIR/plan.json, the pod's runtime plan as the executor reads it: its name, host name, address, user, group and
     * supplementary groups, the command line that starts it (init driver and sandbox included), the one that starts its
     * main container alone (a restart: {@code containerArgv}) and the nim container's probes with their ports resolved
     * to numbers ({@link PodProbes#planned}).
     */
    static void writePlan(Path dir, KubeObject pod, KubeObject nim, String host, String ip, PodUser user, List<String> argv,
            List<String> containerArgv) throws IOException {
        Map<String, Object> plan = new LinkedHashMap<>();
        plan.put("pod", pod.name());
        plan.put("host", host);
        plan.put("ip", ip);
        plan.put("uid", user.uid());
        plan.put("gid", user.gid());
        plan.put("groups", user.groupList());
        plan.put("argv", argv);
        plan.put("containerArgv", containerArgv);
        plan.put("probes", PodProbes.planned(nim));
        Files.writeString(dir.resolve("plan.json"), JSON.writeValueAsString(plan));
    }
}
