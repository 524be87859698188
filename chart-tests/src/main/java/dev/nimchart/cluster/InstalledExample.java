package dev.nimchart.cluster;

import dev.nimchart.HarnessPaths;
import dev.nimchart.KubeObject;
import dev.nimchart.ManifestSummary;
import dev.nimchart.NimChart;
import dev.nimchart.RenderedManifest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * The README's main job: starts a cluster (see {@link ClusterChoice}), installs one values file (default: the seed's
 * Llama 3.1 405B LeaderWorkerSet example) with Helm, prints what the API server now holds as a tree, and tears the
 * cluster down.
 */
public final class InstalledExample {

    static final String DEFAULT_EXAMPLE = "multi-node-llama-3.1-405b-lws.yaml";
    private static final String NAMESPACE = "nim";

    private InstalledExample() {
    }

    public static void main(String[] args) {
        HarnessPaths paths = HarnessPaths.fromSystemProperties();
        Path file = Path.of(args.length > 0 && !args[0].isBlank() ? args[0] : paths.examplesDir().resolve(DEFAULT_EXAMPLE).toString());
        if (!Files.isRegularFile(file)) {
            System.err.println("no such values file: " + file.toAbsolutePath());
            System.exit(2);
        }
        long started = System.nanoTime();
        Consumer<String> progress = line -> System.err.printf("[%5.1fs] %s%n", (System.nanoTime() - started) / 1e9, line);
        int exit;
        try (ClusterSession session = ClusterSession.start(paths.chartDir(), Path.of("target", "installed-example"), progress)) {
            exit = show(session, file, progress);
            progress.accept("tearing the cluster down");
        } catch (ClusterUnavailableException e) {
            System.err.println(e.getMessage());
            exit = 3;
        }
        System.exit(exit);
    }

    private static int show(ClusterSession session, Path file, Consumer<String> progress) {
        String release = NimChart.releaseName(file);
        session.restrictedNamespace(NAMESPACE);
        long t0 = System.nanoTime();
        try {
            session.releases().install(release, NAMESPACE, List.of(file), java.util.Map.of());
        } catch (IllegalStateException refused) {
            System.err.println("helm install refused " + file + ":\n" + refused.getMessage());
            return 1;
        }
        progress.accept("helm install " + release + " done in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
        List<KubeObject> stored = session.api().objectsIn(NAMESPACE);
        List<KubeObject> released = stored.stream().filter(o -> release.equals(o.labels().get("app.kubernetes.io/instance"))).toList();
        long records = stored.stream().filter(o -> "helm.sh/release.v1".equals(o.at("type"))).count();
        System.out.println();
        System.out.println("nim-llm release \"" + release + "\" from " + file);
        System.out.println("as stored by the API server of the " + session.cluster().description() + ", namespace " + NAMESPACE
                + " (" + released.size() + " objects, " + records + " Helm release record)");
        System.out.println();
        System.out.print(ManifestSummary.describe(RenderedManifest.of(released)));
        return 0;
    }
}
