package dev.nimchart.controllers;

import dev.nimchart.cluster.Pki;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.cluster.KubeApi;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.Yaml;

/**
 * The LeaderWorkerSet webhooks registered with the API server as upstream's kustomize build registers them (the
 * manifests of the controller's module version with its pod-webhook patches: only pods labelled
 * {@code leaderworkerset.sigs.k8s.io/name}), but called at {@code https://127.0.0.1:<port>} under the tier's CA. The
 * pod webhook injects the LWS environment and labels; without it no LWS ever becomes Available.
 */
final class LwsWebhooks {

    private LwsWebhooks() {
    }

    /** Registers both configurations; returns their API paths, to delete first at teardown (they fail closed). */
    static List<String> register(KubeApi api, ControllerBinaries binaries, Pki pki, int port) {
        Path dir = binaries.home("lws").resolve("webhook");
        Map<String, Map<String, Object>> patched = patchedWebhooks(dir);
        List<String> paths = new ArrayList<>();
        try {
            for (KubeObject config : RenderedManifest.parse(Files.readString(dir.resolve("manifests.yaml"))).objects()) {
                List<Map<String, Object>> webhooks = new ArrayList<>();
                for (KubeObject webhook : config.list("webhooks")) {
                    webhooks.add(WebhooksByUrl.local(patched.getOrDefault(webhook.at("name").toString(), webhook.raw()), port, pki.caBundle()));
                }
                paths.add(WebhooksByUrl.register(api, config, webhooks, "nim-chart-tests-lws-"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the LWS webhook manifests in " + dir, e);
        }
        return paths;
    }

    /** The webhooks upstream's kustomize patches replace (JSON patch "replace" values), by webhook name. */
    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> patchedWebhooks(Path dir) {
        Map<String, Map<String, Object>> byName = new LinkedHashMap<>();
        for (String patch : List.of("mutating-patch.yaml", "validating-patch.yaml")) {
            try {
                List<Map<String, Object>> ops = new Yaml().load(Files.readString(dir.resolve(patch)));
                for (Map<String, Object> op : ops) {
                    Map<String, Object> value = (Map<String, Object>) op.get("value");
                    byName.put(value.get("name").toString(), value);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + dir.resolve(patch), e);
            }
        }
        return byName;
    }
}
