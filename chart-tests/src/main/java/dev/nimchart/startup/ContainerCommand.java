package dev.nimchart.startup;

import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.objects.KubeObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A container's command line as the runtime runs it: command replaces the image's ENTRYPOINT (and its CMD), args
 * replace the CMD, neither means ENTRYPOINT then CMD; and the kubelet expands {@code $(VAR)} in each word with the
 * container's own variables ({@link KubeletEnv}, not the runtime's).
 */
public final class ContainerCommand {

    /** The NIM image's ENTRYPOINT, run when the pod sets no command (NVIDIA's nim-deploy names it NIM_ENTRYPOINT). */
    public static final List<String> IMAGE_ENTRYPOINT = List.of("/opt/nvidia/nvidia_entrypoint.sh");
    /** The NIM image's CMD, the entrypoint's arguments when the pod sets neither command nor args (NIM_CMD). */
    public static final List<String> IMAGE_CMD = List.of("/opt/nim/start_server.sh");

    private ContainerCommand() {
    }

    /** The container's command and args as the runtime runs them, before the kubelet's expansion. */
    public static List<String> of(KubeObject container) {
        List<String> command = new ArrayList<>();
        Object cmd = container.at("command");
        boolean ownCommand = cmd instanceof List<?> list && !list.isEmpty();
        if (ownCommand) {
            ((List<?>) cmd).forEach(c -> command.add(String.valueOf(c)));
        } else {
            command.addAll(IMAGE_ENTRYPOINT);
        }
        if (container.at("args") instanceof List<?> args && !args.isEmpty()) {
            args.forEach(a -> command.add(String.valueOf(a)));
        } else if (!ownCommand) {
            command.addAll(IMAGE_CMD);
        }
        return command;
    }

    /** {@link #of} with each word expanded as the kubelet expands it, with the container's own variables. */
    static List<String> expanded(NamespaceState state, KubeObject pod, KubeObject container) {
        Map<String, String> containerEnv = KubeletEnv.of(pod, container, state);
        return of(container).stream().map(word -> KubeletEnv.expand(word, containerEnv)).toList();
    }
}
