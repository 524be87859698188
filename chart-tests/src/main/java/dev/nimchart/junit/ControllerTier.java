package dev.nimchart.junit;

import dev.nimchart.settings.Settings;
import dev.nimchart.cluster.ClusterUnavailableException;
import dev.nimchart.cluster.HelmReleases;
import dev.nimchart.controllers.ControllerEnvironment;
import dev.nimchart.controllers.ControllerTierException;
import dev.nimchart.controllers.InstalledRelease;
import dev.nimchart.controllers.Outcome;
import dev.nimchart.controllers.Release;
import dev.nimchart.render.ChartRenderer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The controller tier's one environment per test JVM (real controllers on fake GPU nodes; with
 * {@code -Dnim.cluster=kubeconfig}, the existing cluster instead), handed to tests as a {@link ControllerSession}: started on first use (building the binaries if needed), stopped when the JVM's tests end.
 * Without it the tier fails when CI=true and is skipped, with the reason, otherwise. Timings go to
 * target/controller-tier/timings.tsv.
 */
public final class ControllerTier extends SharedTier<ControllerTier.ControllerSession> {

    public static final Path REPORT_DIR = Path.of("target", "controller-tier");

    /** The environment, Helm releases bound to it, and the one way to install a release on it ({@link #install}). */
    public static final class ControllerSession {
        private final ControllerEnvironment environment;
        private final Map<Path, HelmReleases> releasesByChart = new java.util.concurrent.ConcurrentHashMap<>();
        private final Map<Path, ChartRenderer> renderersByChart = new java.util.concurrent.ConcurrentHashMap<>();

        ControllerSession(ControllerEnvironment environment) {
            this.environment = environment;
        }

        /** A session on an environment the caller made (e.g. {@link ControllerEnvironment#attach}); the caller closes it. */
        public static ControllerSession on(ControllerEnvironment environment) {
            return new ControllerSession(environment);
        }

        public ControllerEnvironment environment() {
            return environment;
        }

        /** Releases of the settings' chart ({@code -Dnim.chart.dir}). */
        public HelmReleases releases() {
            return releases(environment.settings().chartDir());
        }

        /** Releases of any chart on this environment (one per chart directory for the session). */
        public HelmReleases releases(Path chartDir) {
            return releasesByChart.computeIfAbsent(chartDir.toAbsolutePath().normalize(),
                    dir -> new HelmReleases(dir, environment.kubeConfigYaml(), REPORT_DIR.resolve("helm"), environment.settings()));
        }

        /** The renderer of a chart directory (one per chart directory for the session). */
        public ChartRenderer renderer(Path chartDir) {
            return renderersByChart.computeIfAbsent(chartDir.toAbsolutePath().normalize(), ChartRenderer::new);
        }

        /**
         * Installs the release into its namespace (which the caller made), after giving the cluster what its objects need
         * (on an existing cluster without cluster-scoped writes: requiring that it has it), and returns its handle: await
         * its desired state, upgrade, roll back, uninstall. Throws when the render, the cluster or Helm refuses.
         */
        public InstalledRelease install(Release release) {
            return InstalledRelease.install(environment, this::releases, this::renderer, release);
        }

        /** {@link #install}, the failure returned instead of thrown. */
        public Outcome<InstalledRelease> tryInstall(Release release) {
            return InstalledRelease.tryInstall(environment, this::releases, this::renderer, release);
        }
    }

    public ControllerTier() {
        super("controller tier", ControllerSession.class);
    }

    /** The tier started with these settings if it is the first of the JVM to start (see {@link SharedTier#settings()}). */
    public ControllerTier(Settings settings) {
        super("controller tier", ControllerSession.class, settings);
    }

    /** As {@link #ControllerTier(Settings)}, saying what it does to {@code progress} (tagged {@code [controller tier]}). */
    public ControllerTier(Settings settings, dev.nimchart.progress.Progress progress) {
        super("controller tier", ControllerSession.class, settings, progress);
    }

    @Override
    protected ControllerSession start() {
        try {
            Files.deleteIfExists(REPORT_DIR.resolve("timings.tsv"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        dev.nimchart.progress.Progress progress = progress();
        Settings settings = settings();
        ControllerEnvironment environment = dev.nimchart.cluster.ClusterChoice.existing(settings)
                ? ControllerEnvironment.attach(dev.nimchart.cluster.ExistingCluster.of(settings, progress), settings, progress)
                : ControllerEnvironment.start(settings, REPORT_DIR.toAbsolutePath(), progress);
        for (Map.Entry<String, java.time.Duration> t : environment.startTimes().entrySet()) {
            Timings.record(REPORT_DIR, "start: " + t.getKey(), t.getValue());
        }
        return new ControllerSession(environment);
    }

    @Override
    protected boolean unavailable(RuntimeException failure) {
        return failure instanceof ControllerTierException || failure instanceof ClusterUnavailableException;
    }

    @Override
    protected void stop(ControllerSession session) {
        session.environment().close();
    }

    @Override
    protected void check(ControllerSession session) {
        session.environment().requireAllRunning();
    }
}
