package dev.nimchart.startup;

import java.util.ArrayList;
import java.util.List;

/**
 * The pods' network as a node's network plugin makes it: a bridge inside a network namespace of its own (the
 * "fabric"), and one network namespace per pod (or per host the pods reach) joined to it by a veth pair, with its
 * address from the tier's 198.18.0.0/17 and no route anywhere else. Every namespace is named after {@code base} (this
 * JVM's PID and the run) and deleted, last made first, on {@link #close()}.
 */
final class PodNetwork implements AutoCloseable {

    private final String base;
    private final String fabric;
    private final List<String> namespaces = new ArrayList<>();

    /** Makes the fabric namespace and its bridge. */
    PodNetwork(String base) {
        this.base = base;
        this.fabric = base + "f";
        StartupHost.must(List.of("ip", "netns", "add", fabric));
        namespaces.add(fabric);
        StartupHost.must(List.of("ip", "-n", fabric, "link", "add", "br0", "type", "bridge"));
        StartupHost.must(List.of("ip", "-n", fabric, "link", "set", "br0", "up"));
    }

    /** The name of the network namespace that holds the bridge. */
    String fabric() {
        return fabric;
    }

    /**
     * A network namespace {@code base + suffix} on the bridge, its eth0 with {@code address} (IP/prefix) and its loopback
     * up. Returns its name.
     */
    String attach(String suffix, String veth, String address) {
        String netns = base + suffix;
        String link = base + "v" + veth;
        StartupHost.must(List.of("ip", "netns", "add", netns));
        namespaces.add(netns);
        StartupHost.must(List.of("ip", "link", "add", link, "netns", fabric, "type", "veth", "peer", "name", "eth0", "netns", netns));
        StartupHost.must(List.of("ip", "-n", fabric, "link", "set", link, "master", "br0", "up"));
        StartupHost.must(List.of("ip", "-n", netns, "addr", "add", address, "dev", "eth0"));
        StartupHost.must(List.of("ip", "-n", netns, "link", "set", "eth0", "up"));
        StartupHost.must(List.of("ip", "-n", netns, "link", "set", "lo", "up"));
        return netns;
    }

    /** Deletes a namespace {@link #attach} made (its veth pair goes with it), once no process is left in it. */
    void detach(String netns) {
        if (namespaces.remove(netns)) {
            // A pod's deletion ends every process of it, also one that left the pod's process tree (a daemon).
            for (String pid : StartupHost.run(List.of("ip", "netns", "pids", netns), 30).output().split("\\s+")) {
                if (pid.matches("\\d+")) {
                    ProcessHandle.of(Long.parseLong(pid)).ifPresent(ProcessHandle::destroyForcibly);
                }
            }
            StartupHost.run(List.of("ip", "netns", "delete", netns), 30);
        }
    }

    @Override
    public void close() {
        for (int i = namespaces.size() - 1; i >= 0; i--) {
            StartupHost.run(List.of("ip", "netns", "delete", namespaces.get(i)), 30);
        }
        namespaces.clear();
    }
}
