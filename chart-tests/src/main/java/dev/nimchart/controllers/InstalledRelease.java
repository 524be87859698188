package dev.nimchart.controllers;

import dev.nimchart.cluster.HelmReleases;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartRenderer;
import dev.nimchart.render.Release;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * A release installed on the controller tier's cluster (or an existing one), and what can be done with it: await its
 * desired state, upgrade, roll back, test, uninstall. Each step comes in two flavours, as terratest's helm module has them: one
 * that throws ({@link #awaitReady}, {@link #upgrade}, ...) and one that returns an {@link Outcome} ({@link
 * #tryAwaitReady}, {@link #tryUpgrade}, ...). Installing and upgrading first give the cluster what an administrator would
 * for the revision's objects ({@link ClusterPreconditions#prepare}); on an existing cluster without cluster-scoped
 * writes they only require that it has them ({@link ClusterPreconditions#requireProvided}), so a test written against
 * this handle runs on either. The namespace is the caller's: it exists before the install and is deleted by the caller.
 */
public final class InstalledRelease {

    private final ControllerEnvironment env;
    private final HelmReleases helm;
    private final Function<Path, ChartRenderer> renderers;
    private final List<String> prepared = new ArrayList<>();
    private Release release;
    private RenderedManifest rendered;
    private final long installedAt;

    private InstalledRelease(ControllerEnvironment env, HelmReleases helm, Function<Path, ChartRenderer> renderers,
            Release release, RenderedManifest rendered, long installedAt) {
        this.env = env;
        this.helm = helm;
        this.renderers = renderers;
        this.release = release;
        this.rendered = rendered;
        this.installedAt = installedAt;
    }

    /**
     * Renders the release in its namespace, gives the cluster what its objects need (see the class comment) and runs
     * {@code helm install} (with hooks; Helm waits for hook Jobs). Does not wait for the desired state: {@link #awaitReady}.
     * {@code helm} are the Helm releases on the environment's cluster; {@code renderers} gives the renderer of a chart directory.
     */
    public static InstalledRelease install(ControllerEnvironment env, HelmReleases helm,
            Function<Path, ChartRenderer> renderers, Release release) {
        List<String> made = new ArrayList<>();
        RenderedManifest rendered = provide(env, renderers, release, made);
        long started = System.nanoTime();
        helm.install(release);
        InstalledRelease installed = new InstalledRelease(env, helm, renderers, release, rendered, started);
        installed.prepared.addAll(made);
        return installed;
    }

    /** {@link #install}, its failure (a refused render or install, a missing StorageClass, ...) returned instead of thrown. */
    public static Outcome<InstalledRelease> tryInstall(ControllerEnvironment env, HelmReleases helm,
            Function<Path, ChartRenderer> renderers, Release release) {
        return Outcome.of(() -> install(env, helm, renderers, release));
    }

    /** The release as last installed or upgraded (a rollback does not change it). */
    public Release release() {
        return release;
    }

    public String name() {
        return release.name();
    }

    public String namespace() {
        return release.namespace();
    }

    /** What the last install or upgrade rendered. */
    public RenderedManifest rendered() {
        return rendered;
    }

    /** A line per object made for the namespace before the install and upgrades (volumes, classes, claims). */
    public List<String> prepared() {
        return List.copyOf(prepared);
    }

    /** Time since {@code helm install} started. */
    public Duration sinceInstall() {
        return Duration.ofNanos(System.nanoTime() - installedAt);
    }

    /**
     * Waits until the namespace is in its desired state with {@code pods} Ready pods ({@link DesiredState#await}), the
     * cluster checked alive meanwhile; fails with the namespace described when {@code timeout} passes.
     */
    public NamespaceState awaitReady(int pods, Duration timeout) {
        return DesiredState.await(env.api(), namespace(), pods, timeout, env::requireAllRunning);
    }

    /** {@link #awaitReady(int, Duration)}, with {@code alive} checking more than the cluster (e.g. a controller the test started). */
    public NamespaceState awaitReady(int pods, Duration timeout, Runnable alive) {
        return DesiredState.await(env.api(), namespace(), pods, timeout, alive);
    }

    /** {@link #awaitReady(int, Duration)} with the pod count computed from what the last install or upgrade rendered. */
    public NamespaceState awaitReady(ToIntFunction<RenderedManifest> pods, Duration timeout) {
        return awaitReady(pods.applyAsInt(rendered), timeout);
    }

    /** {@link #awaitReady(int, Duration)}, returning the failure. */
    public Outcome<NamespaceState> tryAwaitReady(int pods, Duration timeout) {
        return Outcome.of(() -> awaitReady(pods, timeout));
    }

    /**
     * {@code helm upgrade} to {@code next} (the same name and namespace; another chart directory, values files or sets),
     * after giving the cluster what the new revision's objects need (as {@link #install}). Does not wait.
     */
    public InstalledRelease upgrade(Release next) {
        if (!next.name().equals(name()) || !next.namespace().equals(namespace())) {
            throw new IllegalArgumentException("an upgrade of " + namespace() + "/" + name() + " cannot be to " + next.namespace() + "/" + next.name());
        }
        List<String> made = new ArrayList<>();
        RenderedManifest nextRendered = provide(env, renderers, next, made);
        helm.upgrade(next);
        prepared.addAll(made);
        release = next;
        rendered = nextRendered;
        return this;
    }

    /** {@link #upgrade}, returning the failure (e.g. the chart refusing the upgrade) instead of throwing it. */
    public Outcome<InstalledRelease> tryUpgrade(Release next) {
        return Outcome.of(() -> upgrade(next));
    }

    /** {@code helm rollback} to {@code revision} (the Helm CLI's output). Does not wait. */
    public String rollback(int revision) {
        return helm.rollback(release, revision);
    }

    public Outcome<String> tryRollback(int revision) {
        return Outcome.of(() -> rollback(revision));
    }

    /**
     * {@code helm test}: runs the release's test hooks and waits up to {@code timeout} for them (Helm's own verdict: a
     * failed test throws).
     */
    public void test(Duration timeout) {
        helm.test(release, (int) Math.min(Integer.MAX_VALUE, timeout.toSeconds()));
    }

    /** {@code helm uninstall}. Does not wait: {@link #awaitNoPods}. */
    public void uninstall() {
        helm.uninstall(release);
    }

    public Outcome<Boolean> tryUninstall() {
        return Outcome.ofRun(this::uninstall);
    }

    /** Waits until the namespace holds no pod ({@link DesiredState#awaitNoPods}). */
    public NamespaceState awaitNoPods(Duration timeout) {
        return DesiredState.awaitNoPods(env.api(), namespace(), timeout, env::requireAllRunning);
    }

    public KubeApi api() {
        return env.api();
    }

    /** Renders {@code release} and gives the cluster what its objects need (or requires it has them); lines to {@code made}. */
    private static RenderedManifest provide(ControllerEnvironment env, Function<Path, ChartRenderer> renderers, Release release,
            List<String> made) {
        RenderedManifest rendered = renderers.apply(release.chart()).render(release);
        if (env.clusterScopedWrites()) {
            made.addAll(ClusterPreconditions.prepare(env.api(), release.namespace(), rendered.objects()));
        } else {
            made.addAll(ClusterPreconditions.requireProvided(env.api(), release.namespace(), rendered.objects()));
        }
        return rendered;
    }
}
