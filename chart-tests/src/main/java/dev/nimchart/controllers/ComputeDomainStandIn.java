package dev.nimchart.controllers;

import dev.nimchart.cluster.KubeApi;
import dev.nimchart.objects.KubeObject;
import java.util.List;
import java.util.Map;

/**
 * Stands in for the ComputeDomain controller of NVIDIA's DRA driver, which the Go module proxy does not serve: for every
 * ComputeDomain it creates what that controller creates for the pods (the channel ResourceClaimTemplate named in
 * {@code spec.channel.resourceClaimTemplate.name}, of DeviceClass {@value #CHANNEL_CLASS}, with the driver's opaque
 * channel configuration, owned by the ComputeDomain). The channel devices themselves are fake ResourceSlices
 * ({@link FakeResourceSlices}). It does not run IMEX daemons or their DaemonSet, and never sets the domain's status.
 * A background thread lists the ComputeDomains once and then watches them (as a controller's informer does), so it adds
 * no load to the API server while nothing changes.
 */
final class ComputeDomainStandIn implements AutoCloseable {

    static final String CHANNEL_CLASS = "compute-domain-default-channel.nvidia.com";
    static final String DRIVER = "compute-domain.nvidia.com";
    private static final String DOMAINS = "/apis/resource.nvidia.com/v1beta1/computedomains";
    private static final int WATCH_SECONDS = 8; // under the client's 10 s read timeout

    private final Thread thread;
    private volatile boolean stopped;

    private ComputeDomainStandIn(KubeApi api) {
        this.thread = new Thread(() -> loop(api), "compute-domain-stand-in");
        this.thread.setDaemon(true);
    }

    static ComputeDomainStandIn start(KubeApi api) {
        ComputeDomainStandIn s = new ComputeDomainStandIn(api);
        s.thread.start();
        return s;
    }

    @SuppressWarnings("unchecked")
    private void loop(KubeApi api) {
        String version = null;
        while (!stopped) {
            try {
                version = version == null ? reconcile(api) : api.watch(DOMAINS, version, WATCH_SECONDS, event -> {
                    if (!"DELETED".equals(event.at("type")) && event.at("object") instanceof Map<?, ?> object) {
                        reconcile(api, new KubeObject((Map<String, Object>) object));
                    }
                });
            } catch (RuntimeException e) {
                // the API server may be starting or stopping: list again after a pause
                version = null;
                try {
                    Thread.sleep(200);
                } catch (InterruptedException interrupted) {
                    return;
                }
            }
        }
    }

    /** Makes the channel template of every ComputeDomain that lacks one; returns the list's resource version. */
    @SuppressWarnings("unchecked")
    static String reconcile(KubeApi api) {
        Map<String, Object> domains = KubeApi.require(api.get(DOMAINS), "list ComputeDomains");
        for (Object item : (List<Object>) domains.getOrDefault("items", List.of())) {
            reconcile(api, new KubeObject((Map<String, Object>) item));
        }
        return String.valueOf(new KubeObject(domains).at("metadata.resourceVersion"));
    }

    private static void reconcile(KubeApi api, KubeObject cd) {
        Object template = cd.at("spec.channel.resourceClaimTemplate.name");
        if (template == null || cd.at("metadata.deletionTimestamp") != null) {
            return;
        }
        String path = "/apis/resource.k8s.io/v1/namespaces/" + cd.namespace() + "/resourceclaimtemplates";
        if (api.get(path + "/" + template).code() == 404) {
            api.post(path, channelTemplate(cd, template.toString()));
        }
    }

    static Map<String, Object> channelTemplate(KubeObject cd, String name) {
        Object mode = cd.at("spec.channel.allocationMode") == null ? "Single" : cd.at("spec.channel.allocationMode");
        Map<String, Object> owner = Map.of("apiVersion", "resource.nvidia.com/v1beta1", "kind", "ComputeDomain",
                "name", cd.name(), "uid", cd.at("metadata.uid"), "controller", true);
        Map<String, Object> config = Map.of("opaque", Map.of("driver", DRIVER, "parameters",
                Map.of("apiVersion", "resource.nvidia.com/v1beta1", "kind", "ComputeDomainChannelConfig",
                        "domainID", cd.at("metadata.uid"), "allocationMode", mode)));
        return Map.of("apiVersion", "resource.k8s.io/v1", "kind", "ResourceClaimTemplate",
                "metadata", Map.of("name", name, "namespace", cd.namespace(), "ownerReferences", List.of(owner),
                        "labels", Map.of("resource.nvidia.com/computeDomain", cd.at("metadata.uid").toString())),
                "spec", Map.of("spec", Map.of("devices", Map.of(
                        "requests", List.of(Map.of("name", "channel", "exactly", Map.of("deviceClassName", CHANNEL_CLASS,
                                "allocationMode", "ExactCount", "count", 1))),
                        "config", List.of(config)))));
    }

    @Override
    public void close() {
        stopped = true;
        thread.interrupt();
    }
}
