package dev.nimchart.tools.commands;

import dev.nimchart.render.ChartRefusedException;
import dev.nimchart.settings.Settings;
import dev.nimchart.settings.SettingsFromProperties;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.report.ManifestSummary;
import dev.nimchart.render.ChartRenderer;
import dev.nimchart.render.ChartYaml;
import dev.nimchart.values.ValuesMerger;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.cluster.ClusterUnavailableException;
import dev.nimchart.cluster.HelmReleases;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.controllers.ControllerEnvironment;
import dev.nimchart.controllers.ControllerTierException;
import dev.nimchart.controllers.ExpectedPods;
import dev.nimchart.controllers.InstalledRelease;
import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.controllers.ReconciledSummary;
import dev.nimchart.render.Release;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The README's main job, {@code ci/show-example.sh}'s command (this repository's, outside the library's jar: it uses
 * the library's public API only): refuses a values file the chart refuses before starting anything;
 * otherwise starts the controller tier, installs the file with Helm (default: the seed's Llama 3.1 405B
 * LeaderWorkerSet example), waits until the controllers have reconciled it, prints what the release is and what the
 * cluster made of it, and stops everything. Its {@code main} is the one place it reads system properties and names
 * this repository's default example; the rest takes the settings.
 */
public final class ReconciledExample {

    static final String DEFAULT_EXAMPLE = "multi-node-llama-3.1-405b-lws.yaml";
    private static final String NAMESPACE = "nim";

    private ReconciledExample() {
    }

    /** What the command writes, one whole line or the whole picture at a time, so progress never cuts into the picture. */
    private static final Object OUTPUT = new Object();

    public static void main(String[] args) {
        long started = System.nanoTime();
        Consumer<String> progress = line -> {
            synchronized (OUTPUT) {
                System.err.printf("[%5.1fs] %s%n", (System.nanoTime() - started) / 1e9, line);
                System.err.flush();
            }
        };
        Settings settings = SettingsFromProperties.fromSystemProperties(); // a command line of this repository (ci/show-example.sh)
        Path file = Path.of(args.length > 0 && !args[0].isBlank() ? args[0] : settings.examplesDir().resolve(DEFAULT_EXAMPLE).toString());
        if (!Files.isRegularFile(file)) {
            System.err.println("no such values file: " + file.toAbsolutePath());
            System.exit(2);
        }
        progress.accept("rendering " + file.getFileName() + " (a file the chart refuses is refused before anything starts)");
        RenderedManifest rendered;
        ChartRenderer renderer = new ChartRenderer(settings.chartDir(), settings);
        try {
            rendered = renderer.render(ChartRenderer.releaseName(file), NAMESPACE, List.of(file), Map.of());
        } catch (ChartRefusedException refused) {
            System.err.println("The chart refuses " + file + " (nothing was started):\n" + refused.getMessage().strip());
            System.exit(1);
            return;
        }
        int exit;
        try (ControllerEnvironment env = ControllerEnvironment.start(settings, settings.workDir().resolve("show-example"), progress)) {
            exit = show(env, renderer, file, progress);
            progress.accept("stopping the controller tier");
        } catch (ControllerTierException | ClusterUnavailableException e) {
            System.err.println(e.getMessage());
            exit = 3;
        }
        System.exit(exit);
    }

    private static int show(ControllerEnvironment env, ChartRenderer renderer, Path file, Consumer<String> progress) {
        Path chartDir = env.settings().chartDir();
        String release = ChartRenderer.releaseName(file);
        KubeApi.require(env.api().post("/api/v1/namespaces", Map.of("apiVersion", "v1", "kind", "Namespace",
                "metadata", Map.of("name", NAMESPACE))), "create the namespace " + NAMESPACE);
        HelmReleases releases = new HelmReleases(env.kubeConfigYaml(),
                env.settings().workDir().resolve("show-example").resolve("helm"), env.settings());
        NamespaceState state;
        try {
            InstalledRelease installed = InstalledRelease.install(env, releases, chart -> renderer,
                    Release.of(chartDir, release, NAMESPACE, List.of(file)));
            installed.prepared().forEach(made -> progress.accept("cluster has " + made));
            state = installed.awaitReady(ExpectedPods.of(ValuesMerger.mergedValues(chartDir, List.of(file))), Duration.ofSeconds(120));
            progress.accept("reconciled in " + installed.sinceInstall().toMillis() + " ms after helm install");
        } catch (AssertionError notReconciled) {
            System.err.println(notReconciled.getMessage());
            return 1;
        }
        List<KubeObject> released = env.api().objectsIn(NAMESPACE).stream()
                .filter(o -> release.equals(o.labels().get("app.kubernetes.io/instance")))
                .filter(o -> o.list("metadata.ownerReferences").isEmpty() && !o.kind().equals("Endpoints")).toList();
        StringBuilder picture = new StringBuilder("\n");
        picture.append(ChartYaml.read(chartDir).name()).append(" release \"").append(release).append("\" from ").append(file).append(", namespace ").append(NAMESPACE)
                .append("\n\n");
        picture.append("What the release asks for (").append(released.size()).append(" objects, as the API server stored them):\n");
        picture.append(ManifestSummary.describe(RenderedManifest.of(released)).indent(2)).append('\n');
        picture.append("What the controllers made of it (").append(env.nodes().size()).append(" fake GPU nodes, kwok; no container runs):\n");
        picture.append(ReconciledSummary.describe(state).indent(2));
        synchronized (OUTPUT) {
            System.out.print(picture);
            System.out.flush();
        }
        return 0;
    }
}
