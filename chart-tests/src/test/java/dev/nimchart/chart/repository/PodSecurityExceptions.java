package dev.nimchart.chart.repository;

import dev.nimchart.cluster.PodSecurityVerdict;
import dev.nimchart.objects.PodTemplate;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The documented exceptions to the restricted Pod Security level (docs/tiers.md, "Pod Security"): which checks a pod fails
 * because a feature the values enable needs it. Everything else must pass restricted. The names are the server's.
 */
public final class PodSecurityExceptions {

    /** hostPath or NFS volumes: a hostPath or NFS model cache, the EFA libraries, /dev/infiniband, GPUDirect-TCPXO's host mounts. */
    static final String VOLUME_TYPES = "restricted volume types";
    /** IPC_LOCK (RDMA memory registration on EFA and InfiniBand), NET_ADMIN (the TCPXO daemon). */
    static final String CAPABILITIES = "unrestricted capabilities";
    /** The TCPXO daemon runs as root. */
    static final String RUN_AS_NON_ROOT = "runAsNonRoot != true";
    static final String RUN_AS_ROOT = "runAsUser=0";

    private PodSecurityExceptions() {
    }

    /** The checks this example's pods from this template are documented to fail. */
    public static Set<String> expectedChecks(Example e, PodTemplate t) {
        Set<String> checks = new TreeSet<>();
        if (!t.gpuPod()) {
            return checks;
        }
        if (e.flag("hostPath.enabled") || e.flag("nfs.enabled")) {
            checks.add(VOLUME_TYPES);
        }
        String provider = e.networkingProvider();
        if (provider != null) {
            checks.add(CAPABILITIES);
            switch (provider) {
                case "aws", "oci" -> checks.add(VOLUME_TYPES);
                case "gcp" -> checks.addAll(List.of(VOLUME_TYPES, RUN_AS_NON_ROOT, RUN_AS_ROOT));
                default -> {
                }
            }
        }
        return checks;
    }

    /** The checks any pod of this example is documented to fail. */
    public static Set<String> expectedChecks(Example e) {
        Set<String> all = new TreeSet<>();
        e.templates.forEach(t -> all.addAll(expectedChecks(e, t)));
        return all;
    }

    /** The Pod Security level the README tells users to give this example's namespace. */
    public static String level(Example e) {
        return expectedChecks(e).isEmpty() ? "restricted" : "privileged";
    }

    /** Whether a warning of the API server is a Pod Security warning about documented checks only. */
    static boolean documents(Example e, String warning) {
        List<String> checks = PodSecurityVerdict.checksIn(warning);
        return !checks.isEmpty() && expectedChecks(e).containsAll(checks);
    }
}
