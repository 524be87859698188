package dev.nimchart.sessions;

import dev.nimchart.cluster.HelmReleases;
import dev.nimchart.controllers.ControllerEnvironment;
import dev.nimchart.controllers.InstalledRelease;
import dev.nimchart.controllers.Outcome;
import dev.nimchart.render.Release;
import dev.nimchart.render.ChartRenderer;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The controller tier's environment, Helm releases bound to it, and the one way to install a release on it ({@link #install}). */
public final class ControllerSession {
    private final ControllerEnvironment environment;
    private final HelmReleases releases;
    private final Map<Path, ChartRenderer> renderersByChart = new ConcurrentHashMap<>();

    ControllerSession(ControllerEnvironment environment) {
        this.environment = environment;
        this.releases = new HelmReleases(environment.kubeConfigYaml(), ControllerTierLifecycle.reportDir(environment.settings()).resolve("helm"),
                environment.settings());
    }

    /** A session on an environment the caller made (e.g. {@link ControllerEnvironment#attach}); the caller closes it. */
    public static ControllerSession on(ControllerEnvironment environment) {
        return new ControllerSession(environment);
    }

    public ControllerEnvironment environment() {
        return environment;
    }

    /** Helm releases on this environment (of whatever chart each {@link Release} names). */
    public HelmReleases releases() {
        return releases;
    }

    /** The renderer of a chart directory (one per chart directory for the session). */
    public ChartRenderer renderer(Path chartDir) {
        return renderersByChart.computeIfAbsent(chartDir.toAbsolutePath().normalize(), dir -> new ChartRenderer(dir, environment.settings()));
    }

    /**
     * Installs the release into its namespace (which the caller made), after giving the cluster what its objects need
     * (on an existing cluster without cluster-scoped writes: requiring that it has it), and returns its handle: await
     * its desired state, upgrade, roll back, uninstall. Throws when the render, the cluster or Helm refuses.
     */
    public InstalledRelease install(Release release) {
        return InstalledRelease.install(environment, releases, this::renderer, release);
    }

    /** {@link #install}, the failure returned instead of thrown. */
    public Outcome<InstalledRelease> tryInstall(Release release) {
        return InstalledRelease.tryInstall(environment, releases, this::renderer, release);
    }
}
