package dev.nimchart.chart.repository;

import dev.nimchart.chart.offline.SecureDefaultsTest;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The documented exceptions to the chart's secure defaults, in one place. docs/security.md and the
 * chart's NOTES name each of them; {@link SecureDefaultsTest} allows exactly these and nothing else.
 *
 * <p>Secure defaults of every container of every pod: not root, no privilege escalation, seccomp RuntimeDefault,
 * every capability dropped, a read-only root filesystem with a writable /tmp, no API token mounted, secrets only from Secrets (secretKeyRef).
 */
public final class SecurityExceptions {

    /**
     * A container that needs more than the defaults when a networking provider is injected.
     *
     * @param container    the container name
     * @param provider     the multinodeNetworking provider that injects the need
     * @param capabilities the capabilities it adds
     * @param runsAsRoot   whether it runs as user 0
     * @param writableRoot whether its root filesystem stays writable (every other container's is read-only)
     * @param reason       why, as the README says it
     */
    public record Exception(String container, String provider, Set<String> capabilities, boolean runsAsRoot, boolean writableRoot,
            String reason) {
    }

    public static final List<Exception> ALL = List.of(
            new Exception("nim", "aws", Set.of("IPC_LOCK"), false, false, "EFA RDMA registers (locks) memory"),
            new Exception("nim", "azure", Set.of("IPC_LOCK"), false, false, "InfiniBand RDMA registers (locks) memory"),
            new Exception("nim", "oci", Set.of("IPC_LOCK"), false, false, "RDMA over SR-IOV registers (locks) memory"),
            new Exception("tcpxo-daemon", "gcp", Set.of("NET_ADMIN", "NET_BIND_SERVICE"), true, true,
                    "the GPUDirect-TCPXO receive-datapath manager configures the GPU NICs (its entrypoint changes a file of its image)"));

    /**
     * A host path a container mounts writable (every other host mount of the chart is read-only).
     *
     * @param container the container name
     * @param when      the values key whose {@code true} (a networking provider, {@code multinodeNetworking.<p>},
     *                  or {@code hostPath.enabled}, the model cache) under which the chart mounts it
     * @param path      the host path
     * @param reason    why it stays writable, as docs/security.md says it
     */
    public record WritableHostMount(String container, String when, String path, String reason) {
    }

    public static final List<WritableHostMount> WRITABLE_HOST_MOUNTS = List.of(
            new WritableHostMount("nim", "hostPath.enabled", null, "the model cache on the node: NIM downloads into it"),
            new WritableHostMount("nim", "multinodeNetworking.oci", "/dev/infiniband",
                    "the RDMA device nodes, which NCCL opens for reading and writing"),
            new WritableHostMount("nim", "multinodeNetworking.gcp", "/dev/aperture_devices",
                    "the GPUDirect-TCPXO device nodes, which NCCL opens for reading and writing"),
            new WritableHostMount("tcpxo-daemon", "multinodeNetworking.gcp", "/home/kubernetes/bin/nvidia/lib64",
                    "as Google's reference mounts it; no public source says the daemon runs with it read-only"),
            new WritableHostMount("tcpxo-daemon", "multinodeNetworking.gcp", "/sys",
                    "the daemon configures the GPU NICs through the host's sysfs"),
            new WritableHostMount("tcpxo-daemon", "multinodeNetworking.gcp", "/proc/sys",
                    "the daemon sets the host's network sysctls"));

    /**
     * Images the chart chooses itself that it leaves tag-only (every other is pinned by digest, the tag kept for
     * readability), by container name, with the reason docs/security.md gives.
     */
    public static final Map<String, String> TAG_ONLY_IMAGES = Map.of("epp",
            "no public source available to this project states its digest");

    /** The values key whose {@code true} lets the pods mount a service account token (the only other exception). */
    public static final String TOKEN_OPT_IN = "serviceAccount.automountServiceAccountToken";

    private SecurityExceptions() {
    }

    /** The capabilities a container may add in a pod with this networking provider (null: none injected). */
    public static Set<String> allowedCapabilities(String container, String provider) {
        return ALL.stream().filter(e -> e.container().equals(container) && e.provider().equals(provider))
                .findFirst().map(Exception::capabilities).orElse(Set.of());
    }

    /** Whether a container's root filesystem may stay writable in a pod with this networking provider. */
    public static boolean mayWriteItsRoot(String container, String provider) {
        return ALL.stream().anyMatch(e -> e.container().equals(container) && e.provider().equals(provider) && e.writableRoot());
    }

    /** Whether a container may run as root in a pod with this networking provider. */
    public static boolean mayRunAsRoot(String container, String provider) {
        return ALL.stream().anyMatch(e -> e.container().equals(container) && e.provider().equals(provider) && e.runsAsRoot());
    }
}
