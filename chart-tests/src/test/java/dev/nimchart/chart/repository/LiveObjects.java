package dev.nimchart.chart.repository;

import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.render.LookupStub;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A rendered release made "live" for offline renders: every object of the manifest handed to the {@link LookupStub}
 * as the API server would return it after {@code helm install} (in namespace {@value NimChart#NAMESPACE}, with the
 * annotations Helm puts on every object it manages), so the chart's lookups see an installed release.
 */
public final class LiveObjects {

    private LiveObjects() {
    }

    /** Stores every object the stub can serve (Secrets, claims, StatefulSets, Deployments) of the manifest. */
    public static void install(RenderedManifest manifest, String release) {
        for (KubeObject o : manifest.objects()) {
            if (Map.of("Secret", "v1", "PersistentVolumeClaim", "v1", "StatefulSet", "apps/v1", "Deployment", "apps/v1")
                    .containsKey(o.kind())) {
                ChartUnderTest.renderer().lookups().putObject(live(o, release));
            }
        }
    }

    /** One object as stored: namespace and Helm's ownership annotations added. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> live(KubeObject o, String release) {
        Map<String, Object> object = deepCopy(o.raw());
        Map<String, Object> metadata = (Map<String, Object>) object.get("metadata");
        metadata.put("namespace", ChartUnderTest.NAMESPACE);
        Map<String, Object> annotations = new LinkedHashMap<>((Map<String, Object>) metadata.getOrDefault("annotations", Map.of()));
        annotations.put("meta.helm.sh/release-name", release);
        annotations.put("meta.helm.sh/release-namespace", ChartUnderTest.NAMESPACE);
        metadata.put("annotations", annotations);
        return object;
    }

    @SuppressWarnings("unchecked")
    private static <T> T deepCopy(T value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put(k.toString(), deepCopy(v)));
            return (T) copy;
        }
        if (value instanceof java.util.List<?> list) {
            return (T) list.stream().map(LiveObjects::deepCopy).collect(java.util.stream.Collectors.toList());
        }
        return value;
    }
}
