package dev.nimchart.chart.repository;

import dev.nimchart.chart.offline.SecureDefaultsTest;
import java.util.List;
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
