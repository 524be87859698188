package dev.nimchart.cluster;

import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import tools.jackson.databind.json.JsonMapper;

/**
 * A Helm release revision as Helm 3 stores it: the Secret {@code sh.helm.release.v1.NAME.vREVISION} whose
 * {@code release} key holds base64(gzip(JSON)). Read from the cluster, it tells exactly what Helm applied.
 */
public record ReleaseRecord(String name, int revision, String status, String manifest, List<Hook> hooks) {

    /** A hook of the revision as Helm recorded it: its object's manifest and the events it runs on (pre-install, test, ...). */
    public record Hook(String kind, String name, List<String> events, String manifest) {
    }

    /** The release's Secrets in a namespace (Helm labels them owner=helm, name=RELEASE), oldest revision first. */
    @SuppressWarnings("unchecked")
    public static List<ReleaseRecord> history(KubeApi api, String namespace, String release) {
        Map<String, Object> secrets = KubeApi.require(api.get("/api/v1/namespaces/" + namespace
                + "/secrets?labelSelector=owner%3Dhelm%2Cname%3D" + release), "list the release records of " + release);
        return ((List<Map<String, Object>>) secrets.getOrDefault("items", List.of())).stream()
                .map(KubeObject::new)
                .filter(o -> "helm.sh/release.v1".equals(o.at("type")))
                .map(ReleaseRecord::decode)
                .sorted(java.util.Comparator.comparingInt(ReleaseRecord::revision))
                .toList();
    }

    /** The newest revision. */
    public static ReleaseRecord latest(KubeApi api, String namespace, String release) {
        List<ReleaseRecord> all = history(api, namespace, release);
        if (all.isEmpty()) {
            throw new IllegalStateException("no Helm release " + release + " in namespace " + namespace);
        }
        return all.get(all.size() - 1);
    }

    @SuppressWarnings("unchecked")
    static ReleaseRecord decode(KubeObject secret) {
        String outer = (String) secret.at("data.release");
        byte[] gzipped = Base64.getDecoder().decode(Base64.getDecoder().decode(outer));
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped))) {
            Map<String, Object> release = JsonMapper.shared().readValue(in.readAllBytes(), Map.class);
            KubeObject r = new KubeObject(release);
            List<Hook> hooks = r.list("hooks").stream().map(h -> new Hook(String.valueOf(h.at("kind")), String.valueOf(h.at("name")),
                    h.at("events") instanceof List<?> events ? events.stream().map(String::valueOf).toList() : List.of(),
                    String.valueOf(h.at("manifest")))).toList();
            return new ReleaseRecord((String) r.at("name"), ((Number) r.at("version")).intValue(),
                    (String) r.at("info.status"), (String) r.at("manifest"), hooks);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot decode the Helm release record " + secret, e);
        }
    }

    /** The objects Helm applied in this revision (its hooks' objects are not among them: {@link #hookObjects()}). */
    public RenderedManifest objects() {
        return RenderedManifest.parse(manifest);
    }

    /** The objects of the revision's hooks, every event's (tests too), in Helm's order. */
    public RenderedManifest hookObjects() {
        return RenderedManifest.parse(String.join("\n---\n", hooks.stream().map(Hook::manifest).toList()));
    }
}
