package dev.nimchart.controllers;

import dev.nimchart.cluster.HelmReleases;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartRenderer;
import dev.nimchart.render.LookupStub;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The one install-and-await of the controller tier: render the release in its namespace, give the cluster what an
 * administrator would ({@link ClusterPreconditions}; on an existing cluster without cluster-scoped writes, require that
 * it has it), {@code helm install}, and wait until the controllers reached the desired state ({@link DesiredState}).
 */
public final class ReleaseInstall {

    /** What the install made: the rendered release, the namespace as reconciled, and install-to-desired-state time. */
    public record Reconciled(RenderedManifest rendered, NamespaceState state, Duration installToReady) {
    }

    private ReleaseInstall() {
    }

    /**
     * Installs values files (the release named as given) into an existing namespace and awaits {@code expectedPods}
     * Ready pods; {@code prepared} hears of each object made for the namespace beforehand.
     */
    public static Reconciled installAndAwait(ControllerEnvironment env, HelmReleases releases, ChartRenderer renderer, String release,
            String namespace, List<Path> files, Map<String, String> sets, java.util.function.ToIntFunction<RenderedManifest> expectedPods,
            Duration timeout, Consumer<String> prepared) {
        LookupStub.shared();
        RenderedManifest rendered = renderer.render(release, namespace, files, sets);
        if (env.clusterScopedWrites()) {
            ClusterPreconditions.prepare(env.api(), namespace, rendered.objects()).forEach(prepared);
        } else {
            ClusterPreconditions.requireProvided(env.api(), namespace, rendered.objects()).forEach(prepared);
        }
        long started = System.nanoTime();
        releases.install(release, namespace, files, sets);
        NamespaceState state = DesiredState.await(env.api(), namespace, expectedPods.applyAsInt(rendered), timeout, env::requireAllRunning);
        return new Reconciled(rendered, state, Duration.ofNanos(System.nanoTime() - started));
    }
}
