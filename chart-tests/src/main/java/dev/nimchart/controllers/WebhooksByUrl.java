package dev.nimchart.controllers;

import dev.nimchart.cluster.KubeApi;
import dev.nimchart.objects.KubeObject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A controller's admission webhooks as its kustomize manifests declare them (called through an in-cluster Service),
 * registered instead at {@code https://127.0.0.1:<port><path>} under the tier's CA, where the tier runs the controller
 * as a local process.
 */
final class WebhooksByUrl {

    private WebhooksByUrl() {
    }

    /** The webhook with its Service reference replaced by the URL of the same path on the local port. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> local(Map<String, Object> webhook, int port, String caBundle) {
        Map<String, Object> w = new LinkedHashMap<>(webhook);
        Map<String, Object> service = (Map<String, Object>) ((Map<String, Object>) w.get("clientConfig")).get("service");
        w.put("clientConfig", Map.of("url", "https://127.0.0.1:" + port + service.get("path"), "caBundle", caBundle));
        return w;
    }

    /** Creates the configuration (the kind of {@code config}) named prefix + its name with these webhooks; returns its API path. */
    static String register(KubeApi api, KubeObject config, List<Map<String, Object>> webhooks, String prefix) {
        String collection = "/apis/admissionregistration.k8s.io/v1/" + config.kind().toLowerCase() + "s";
        String name = prefix + config.name();
        KubeApi.require(api.post(collection + "?fieldValidation=Strict", Map.of("apiVersion", config.apiVersion(),
                "kind", config.kind(), "metadata", Map.of("name", name), "webhooks", webhooks)), "register " + name);
        return collection + "/" + name;
    }
}
