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
 * A background thread polls every {@value #PERIOD_MS} ms.
 */
final class ComputeDomainStandIn implements AutoCloseable {

    static final String CHANNEL_CLASS = "compute-domain-default-channel.nvidia.com";
    static final String DRIVER = "compute-domain.nvidia.com";
    private static final long PERIOD_MS = 200;

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

    private void loop(KubeApi api) {
        while (!stopped) {
            try {
                reconcile(api);
            } catch (RuntimeException e) {
                // the API server may be starting or stopping; the next round tries again
            }
            try {
                Thread.sleep(PERIOD_MS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    @SuppressWarnings("unchecked")
    static void reconcile(KubeApi api) {
        KubeApi.Response domains = api.get("/apis/resource.nvidia.com/v1beta1/computedomains");
        if (!domains.ok()) {
            return;
        }
        for (Object item : (List<Object>) domains.body().getOrDefault("items", List.of())) {
            KubeObject cd = new KubeObject((Map<String, Object>) item);
            Object template = cd.at("spec.channel.resourceClaimTemplate.name");
            if (template == null || cd.at("metadata.deletionTimestamp") != null) {
                continue;
            }
            String path = "/apis/resource.k8s.io/v1/namespaces/" + cd.namespace() + "/resourceclaimtemplates";
            if (api.get(path + "/" + template).code() != 404) {
                continue;
            }
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
