package dev.nimchart.controllers;

import dev.nimchart.render.ChartRefusedException;
import dev.nimchart.settings.Settings;
import dev.nimchart.settings.SettingsFromProperties;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.report.ManifestSummary;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.cluster.ClusterUnavailableException;
import dev.nimchart.cluster.HelmReleases;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The README's main job (ci/show-example.sh): refuses a values file the chart refuses before starting anything;
 * otherwise starts the controller tier, installs the file with Helm (default: the seed's Llama 3.1 405B
 * LeaderWorkerSet example), waits until the controllers have reconciled it, prints what the release is and what the
 * cluster made of it, and stops everything.
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
        Settings settings = SettingsFromProperties.shared(); // a command line of this repository (ci/show-example.sh)
        Path file = Path.of(args.length > 0 && !args[0].isBlank() ? args[0] : settings.examplesDir().resolve(DEFAULT_EXAMPLE).toString());
        if (!Files.isRegularFile(file)) {
            System.err.println("no such values file: " + file.toAbsolutePath());
            System.exit(2);
        }
        progress.accept("rendering " + file.getFileName() + " (a file the chart refuses is refused before anything starts)");
        RenderedManifest rendered;
        try {
            rendered = ChartUnderTest.renderIn(NAMESPACE, file);
        } catch (ChartRefusedException refused) {
            System.err.println("The chart refuses " + file + " (nothing was started):\n" + refused.getMessage().strip());
            System.exit(1);
            return;
        }
        int exit;
        try (ControllerEnvironment env = ControllerEnvironment.start(settings, settings.workDir().resolve("show-example"), progress)) {
            exit = show(env, file, rendered, progress);
            progress.accept("stopping the controller tier");
        } catch (ControllerTierException | ClusterUnavailableException e) {
            System.err.println(e.getMessage());
            exit = 3;
        }
        System.exit(exit);
    }

    private static int show(ControllerEnvironment env, Path file, RenderedManifest rendered, Consumer<String> progress) {
        String release = ChartUnderTest.releaseName(file);
        dev.nimchart.cluster.KubeApi.require(env.api().post("/api/v1/namespaces", Map.of("apiVersion", "v1", "kind", "Namespace",
                "metadata", Map.of("name", NAMESPACE))), "create the namespace " + NAMESPACE);
        HelmReleases releases = new HelmReleases(ChartUnderTest.chartDir(), env.kubeConfigYaml(),
                env.settings().workDir().resolve("show-example").resolve("helm"), env.settings());
        NamespaceState state;
        try {
            InstalledRelease installed = InstalledRelease.install(env, chart -> releases, chart -> ChartUnderTest.renderer(),
                    Release.of(ChartUnderTest.chartDir(), release, NAMESPACE, List.of(file)));
            installed.prepared().forEach(made -> progress.accept("cluster has " + made));
            state = installed.awaitReady(ExpectedPods.of(ChartUnderTest.values(file)), Duration.ofSeconds(120));
            progress.accept("reconciled in " + installed.sinceInstall().toMillis() + " ms after helm install");
        } catch (AssertionError notReconciled) {
            System.err.println(notReconciled.getMessage());
            return 1;
        }
        List<KubeObject> released = env.api().objectsIn(NAMESPACE).stream()
                .filter(o -> release.equals(o.labels().get("app.kubernetes.io/instance")))
                .filter(o -> o.list("metadata.ownerReferences").isEmpty() && !o.kind().equals("Endpoints")).toList();
        StringBuilder picture = new StringBuilder("\n");
        picture.append("nim-llm release \"").append(release).append("\" from ").append(file).append(", namespace ").append(NAMESPACE)
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
