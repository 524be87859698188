package dev.nimchart.startup;

import dev.nimchart.objects.KubeObject;
import java.util.ArrayList;
import java.util.List;

/**
 * Who a container's process runs as, as the runtime sets it from the pod's and the container's securityContext: its
 * user and group (the container's runAsUser and runAsGroup before the pod's; uid 1000 and a group equal to the uid when
 * neither sets one), the pod's fsGroup (the group its volumes are given; the process's group when the pod sets none)
 * and the process's supplementary groups (fsGroup when the pod sets it, then supplementalGroups).
 */
record PodUser(long uid, long gid, long fsGroup, List<Long> groups) {

    /** The pod's main container's user. */
    static PodUser of(KubeObject pod, KubeObject container) {
        long uid = number(pod.at("spec.securityContext.runAsUser"), container.at("securityContext.runAsUser"), 1000);
        long gid = number(pod.at("spec.securityContext.runAsGroup"), container.at("securityContext.runAsGroup"), uid);
        long fsGroup = number(pod.at("spec.securityContext.fsGroup"), null, gid);
        List<Long> groups = new ArrayList<>();
        if (pod.at("spec.securityContext.fsGroup") != null) {
            groups.add(fsGroup);
        }
        if (pod.at("spec.securityContext.supplementalGroups") instanceof List<?> extra) {
            extra.forEach(g -> groups.add(Long.parseLong(g.toString())));
        }
        return new PodUser(uid, gid, fsGroup, List.copyOf(groups));
    }

    /** An init container's user: its own runAsUser and runAsGroup, else the pod's, else the main container's. */
    PodUser forInit(KubeObject pod, KubeObject init) {
        return new PodUser(number(init.at("securityContext.runAsUser"), pod.at("spec.securityContext.runAsUser"), uid),
                number(init.at("securityContext.runAsGroup"), pod.at("spec.securityContext.runAsGroup"), gid), fsGroup, groups);
    }

    /** setpriv's --groups argument: the supplementary groups, comma-separated, or "-" for none. */
    String groupList() {
        return groups.isEmpty() ? "-" : String.join(",", groups.stream().map(String::valueOf).toList());
    }

    /** The sandbox's arguments after the container's directory and host name: uid, gid and groups. */
    List<String> sandboxArguments() {
        return List.of(Long.toString(uid), Long.toString(gid), groupList());
    }

    private static long number(Object first, Object second, long fallback) {
        Object v = first != null ? first : second;
        return v == null ? fallback : Long.parseLong(v.toString());
    }
}
