package dev.nimchart.startup;

import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.PodPorts;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The declared ports of a pod's other containers, bound in its network namespace as their processes would bind them
 * (the tier runs a program for the serving container only: its own process binds its ports, and fails as NIM would
 * when one is taken), by {@code port-holder.py}; the holders run until {@link #close()}.
 */
final class PortHolders implements AutoCloseable {

    private final Path portHolder;
    /** The running holders of each pod's ports, by the pod's network namespace. */
    private final java.util.Map<String, List<Process>> byNetns = new java.util.HashMap<>();

    /** Holders that run the port holder script at {@code portHolder}. */
    PortHolders(Path portHolder) {
        this.portHolder = portHolder;
    }

    /**
     * Holds the pod's other containers' ports in its network namespace, in the kubelet's order ({@link PodPorts#phases}):
     * each regular init container's ports once, beside the native sidecars started before it; then every sidecar's and
     * every other regular container's ports, held while the pod runs. A bind that fails is the pod's start failing, as a
     * runtime fails it (EADDRINUSE): an init container's ends the pod in Init:Error, a sidecar's or a container's keeps it
     * from running; either way this throws with what collided. A port the serving container declares twice, or that a
     * sidecar holds, fails its own process.
     */
    void holdDeclaredPorts(KubeObject pod, KubeObject served, String netns) throws IOException {
        List<String> sidecars = new ArrayList<>();
        List<KubeObject> inits = pod.list("spec.initContainers");
        for (int i = 0; i < inits.size(); i++) {
            KubeObject init = inits.get(i);
            List<String> ports = portSpecs(init);
            if ("Always".equals(init.at("restartPolicy"))) {
                sidecars.addAll(ports);
                continue;
            }
            if (!ports.isEmpty()) {
                // A regular init container runs alone beside the sidecars started before it, then ends.
                List<Process> phase = new ArrayList<>();
                bindPorts(pod, netns, sidecars, false).ifPresent(phase::add);
                bindPorts(pod, netns, ports, true).ifPresent(phase::add);
                phase.forEach(Process::destroyForcibly);
                byNetns.getOrDefault(netns, new ArrayList<>()).removeAll(phase);
            }
        }
        List<String> held = new ArrayList<>(sidecars);
        for (KubeObject container : pod.list("spec.containers")) {
            if (container != served && !String.valueOf(container.at("name")).equals(String.valueOf(served.at("name")))) {
                held.addAll(portSpecs(container));
            }
        }
        bindPorts(pod, netns, held, false);
    }

    /** CONTAINER=PORT/PROTOCOL for each declared port of a container. */
    private static List<String> portSpecs(KubeObject container) {
        List<String> out = new ArrayList<>();
        for (KubeObject port : container.list("ports")) {
            if (port.at("containerPort") != null) {
                out.add(container.at("name") + "=" + port.at("containerPort") + "/" + (port.at("protocol") == null ? "TCP" : port.at("protocol")));
            }
        }
        return out;
    }

    /** Binds the ports in the pod's network namespace (held until {@link #close()}, or released at once); throws when one is taken. */
    private Optional<Process> bindPorts(KubeObject pod, String netns, List<String> specs, boolean once) throws IOException {
        if (specs.isEmpty()) {
            return Optional.empty();
        }
        List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", netns, "python3", portHolder.toString()));
        if (once) {
            command.add("--once");
        }
        command.addAll(specs);
        Process holder = new ProcessBuilder(command).redirectErrorStream(true).start();
        byNetns.computeIfAbsent(netns, n -> new ArrayList<>()).add(holder);
        BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (!"held".equals(line)) {
            throw new IllegalStateException("pod " + pod.name() + " cannot start: its containers bind one port twice in its one network"
                    + " namespace (" + (line == null ? "the port holder ended" : line) + "; ports " + specs + ")");
        }
        return Optional.of(holder);
    }

    /** Ends the holders of the pod whose network namespace is {@code netns} (the pod is gone). */
    void release(String netns) {
        byNetns.getOrDefault(netns, List.of()).forEach(Process::destroyForcibly);
        byNetns.remove(netns);
    }

    @Override
    public void close() {
        byNetns.values().forEach(pod -> pod.forEach(Process::destroyForcibly));
    }
}
