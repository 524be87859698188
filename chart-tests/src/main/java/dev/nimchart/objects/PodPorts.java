package dev.nimchart.objects;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The ports a pod's containers bind in its one network namespace, in the order the kubelet starts them, and the binds
 * that would collide. Every container of a pod shares the pod's network namespace, so two processes binding one port
 * and protocol at the same time make the second fail with EADDRINUSE; the API server only warns ("duplicate port
 * definition", k8s.io/kubernetes pkg/api/pod/warnings.go). What runs at the same time follows the kubelet's start order
 * (KEP-753, pkg/kubelet/kuberuntime computeInitContainerActions): init containers one after another, each native sidecar
 * ({@code restartPolicy: Always}) staying up once started, then every regular container beside all the sidecars.
 *
 * <p>One implementation for the offline check (every rendered pod template) and the start-up tier (which binds each
 * phase's ports for real in the pod's network namespace).
 */
public final class PodPorts {

    /**
     * One declared port of one container.
     *
     * @param container the container's name
     * @param field     where it is declared: {@code spec.initContainers[1].ports[0]}
     */
    public record Binding(String container, String field, int port, String protocol) {
        /** The port as the kernel tells binds apart: number and protocol. */
        public String key() {
            return port + "/" + protocol;
        }
    }

    /** Two binds of one port and protocol that run at the same time; {@code second} is the one that fails. */
    public record Collision(Binding first, Binding second) {
        @Override
        public String toString() {
            return second.field() + " (container " + second.container() + ") binds " + second.key() + ", which "
                    + first.field() + " (container " + first.container() + ") already binds in the same pod";
        }
    }

    private PodPorts() {
    }

    /**
     * The sets of ports bound at the same time, in start order: one phase per regular init container (the sidecars
     * started before it, then its own ports), and last the sidecars with every regular container. A phase lists binds
     * in the order their containers start.
     */
    public static List<List<Binding>> phases(KubeObject pod) {
        List<List<Binding>> phases = new ArrayList<>();
        List<Binding> sidecars = new ArrayList<>();
        List<KubeObject> inits = pod.list("spec.initContainers");
        for (int i = 0; i < inits.size(); i++) {
            KubeObject init = inits.get(i);
            List<Binding> own = bindings(init, "spec.initContainers[" + i + "]");
            if ("Always".equals(init.at("restartPolicy"))) {
                sidecars.addAll(own);
                phases.add(List.copyOf(sidecars));
            } else {
                List<Binding> phase = new ArrayList<>(sidecars);
                phase.addAll(own);
                phases.add(phase);
            }
        }
        List<Binding> running = new ArrayList<>(sidecars);
        List<KubeObject> containers = pod.list("spec.containers");
        for (int i = 0; i < containers.size(); i++) {
            running.addAll(bindings(containers.get(i), "spec.containers[" + i + "]"));
        }
        phases.add(running);
        return phases;
    }

    /** Every bind that would fail (each once), in start order. */
    public static List<Collision> collisions(KubeObject pod) {
        Set<Collision> out = new LinkedHashSet<>();
        for (List<Binding> phase : phases(pod)) {
            Map<String, Binding> bound = new LinkedHashMap<>();
            for (Binding b : phase) {
                Binding first = bound.putIfAbsent(b.key(), b);
                if (first != null && !Objects.equals(first, b)) {
                    out.add(new Collision(first, b));
                }
            }
        }
        return List.copyOf(out);
    }

    private static List<Binding> bindings(KubeObject container, String path) {
        List<Binding> out = new ArrayList<>();
        List<KubeObject> ports = container.list("ports");
        for (int j = 0; j < ports.size(); j++) {
            Object number = ports.get(j).at("containerPort");
            if (number == null) {
                continue;
            }
            Object protocol = ports.get(j).at("protocol");
            out.add(new Binding(String.valueOf(container.at("name")), path + ".ports[" + j + "]",
                    Integer.parseInt(number.toString()), protocol == null ? "TCP" : protocol.toString()));
        }
        return out;
    }
}
