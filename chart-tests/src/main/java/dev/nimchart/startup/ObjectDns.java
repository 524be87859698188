package dev.nimchart.startup;

import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.objects.KubeObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Cluster DNS answered from objects, as CoreDNS's kubernetes plugin answers a pod (zone {@value #ZONE}, the pod's
 * search path {@code <ns>.svc.cluster.local svc.cluster.local cluster.local}, ndots 5): {@code <svc>.<ns>.svc} names a
 * Service (a headless one with a single pod behind it: that pod), {@code <hostname>.<svc>.<ns>.svc} the endpoint of a headless Service with that hostname, whether its pod
 * is ready or not when the Service publishes not-ready addresses. No DNS server runs in the controller tier; this is
 * what one would answer from the objects the controllers made.
 */
public final class ObjectDns {

    public static final String ZONE = "cluster.local";

    private final NamespaceState state;

    public ObjectDns(NamespaceState state) {
        this.state = state;
    }

    /** What a name resolves to for a pod of the snapshot's namespace: "Pod/<name>", "Service/<name>", or empty. */
    public Optional<String> resolve(String name) {
        String n = name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
        List<String> candidates = new ArrayList<>();
        boolean absolute = name.endsWith(".") || n.chars().filter(c -> c == '.').count() >= 5;
        if (!absolute) {
            for (String search : List.of(state.namespace() + ".svc." + ZONE, "svc." + ZONE, ZONE)) {
                candidates.add(n + "." + search);
            }
        }
        candidates.add(n);
        for (String candidate : candidates) {
            Optional<String> answer = answer(candidate);
            if (answer.isPresent()) {
                return answer;
            }
        }
        return Optional.empty();
    }

    private Optional<String> answer(String fqdn) {
        if (!fqdn.endsWith(".svc." + ZONE)) {
            return Optional.empty();
        }
        String[] labels = fqdn.substring(0, fqdn.length() - (".svc." + ZONE).length()).split("\\.");
        if (labels.length == 2 && labels[1].equals(state.namespace())) {
            Optional<KubeObject> svc = state.named("Service", labels[0]);
            if (svc.isPresent() && "None".equals(svc.get().at("spec.clusterIP"))) {
                // A headless Service's name answers its endpoints' addresses: a single pod is that pod.
                List<String> pods = endpointPods(svc.get());
                return pods.size() == 1 ? Optional.of("Pod/" + pods.get(0)) : svc.map(s -> "Service/" + s.name());
            }
            return svc.map(s -> "Service/" + s.name());
        }
        if (labels.length == 3 && labels[2].equals(state.namespace())) {
            return endpointHost(labels[1], labels[0]);
        }
        return Optional.empty();
    }

    /** The pods a headless Service's name answers (ready ones, and the others when it publishes not-ready addresses). */
    private List<String> endpointPods(KubeObject svc) {
        boolean notReadyToo = Boolean.TRUE.equals(svc.at("spec.publishNotReadyAddresses"));
        List<String> pods = new ArrayList<>();
        for (KubeObject slice : state.endpointSlicesOf(svc.name())) {
            for (KubeObject endpoint : slice.list("endpoints")) {
                boolean ready = !Boolean.FALSE.equals(endpoint.at("conditions.ready"));
                Object target = endpoint.at("targetRef.name");
                if ((ready || notReadyToo) && target != null && !pods.contains(target.toString())) {
                    pods.add(target.toString());
                }
            }
        }
        return pods;
    }

    /** The pod behind hostname {@code host} among the endpoints of headless Service {@code service}. */
    private Optional<String> endpointHost(String service, String host) {
        Optional<KubeObject> svc = state.named("Service", service);
        if (svc.isEmpty() || !"None".equals(svc.get().at("spec.clusterIP"))) {
            return Optional.empty();
        }
        boolean notReadyToo = Boolean.TRUE.equals(svc.get().at("spec.publishNotReadyAddresses"));
        for (KubeObject slice : state.endpointSlicesOf(service)) {
            for (KubeObject endpoint : slice.list("endpoints")) {
                boolean ready = !Boolean.FALSE.equals(endpoint.at("conditions.ready"));
                if (host.equals(endpoint.at("hostname")) && (ready || notReadyToo)) {
                    return Optional.of("Pod/" + endpoint.at("targetRef.name"));
                }
            }
        }
        return Optional.empty();
    }
}
