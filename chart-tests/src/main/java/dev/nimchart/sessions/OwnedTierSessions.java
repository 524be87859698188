package dev.nimchart.sessions;

import dev.nimchart.cluster.ClusterSession;
import dev.nimchart.cluster.CrdInstaller;
import dev.nimchart.cluster.ExistingCluster;
import dev.nimchart.controllers.ControllerEnvironment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import dev.nimchart.progress.Progress;
import dev.nimchart.settings.Settings;

/**
 * Tier environments owned by whoever holds this (a {@code ChartCheck} used outside JUnit, the command line; no JUnit
 * type involved, which is why it builds on {@link TierLifecycle} rather than on JUnit's adapters): each
 * started on its first call, once, and stopped by {@link #close()}, the last started first. No static state and no
 * shutdown hook: what is never closed is stopped by the tier processes' watchdogs when the JVM is gone.
 */
public final class OwnedTierSessions implements TierSessions, AutoCloseable {

    private final TierLifecycle<ClusterSession> apiTier;
    private final TierLifecycle<ControllerSession> controllerTier;
    /** What each tier's first call started (or why it did not), in the order started. */
    private final Map<TierLifecycle<?>, Started<?>> started = new LinkedHashMap<>();
    private boolean closed;

    private OwnedTierSessions(TierLifecycle<ClusterSession> apiTier, TierLifecycle<ControllerSession> controllerTier) {
        this.apiTier = apiTier;
        this.controllerTier = controllerTier;
    }

    /**
     * The tiers' own environments with these settings: a local (or K3s, {@code Settings.cluster()}) cluster and the local
     * controller processes, each tier saying what it does to {@code progress}, tagged with its name.
     */
    public static OwnedTierSessions local(Progress progress, Settings settings) {
        return new OwnedTierSessions(new ClusterTierLifecycle(settings, progress), new ControllerTierLifecycle(settings, progress));
    }

    /**
     * Sessions on a cluster the harness did not start, reached with this kubeconfig: the API-server tier's cluster and
     * the controller tier's environment attached to it; closing them stops nothing of the cluster.
     */
    public static OwnedTierSessions existing(Path kubeconfig, ExistingCluster.Writes writes, Path workDir, Settings settings, Progress progress) {
        Progress apiProgress = progress.tagged("cluster tier");
        Progress controllerProgress = progress.tagged("controller tier");
        TierLifecycle<ClusterSession> api = new TierLifecycle<>(ClusterTierLifecycle.NAME, ClusterSession.class, settings, progress) {
            @Override
            protected ClusterSession start() {
                return ClusterSession.on(ExistingCluster.open(kubeconfig, writes, apiProgress), settings(), CrdInstaller.crdsDir(settings(), apiProgress),
                        workDir.resolve("cluster-tier"), apiProgress);
            }

            @Override
            protected void stop(ClusterSession session) {
                session.close();
            }
        };
        TierLifecycle<ControllerSession> controllers = new TierLifecycle<>(ControllerTierLifecycle.NAME, ControllerSession.class, settings, progress) {
            @Override
            protected ControllerSession start() {
                return ControllerSession.on(ControllerEnvironment.attach(ExistingCluster.open(kubeconfig, writes, controllerProgress),
                        settings(), controllerProgress));
            }

            @Override
            protected void stop(ControllerSession session) {
                session.environment().close();
            }
        };
        return new OwnedTierSessions(api, controllers);
    }

    @Override
    public synchronized Started<ClusterSession> apiServer() {
        return startedOnce(apiTier);
    }

    @Override
    public synchronized Started<ControllerSession> controllers() {
        return startedOnce(controllerTier);
    }

    @SuppressWarnings("unchecked")
    private <S> Started<S> startedOnce(TierLifecycle<S> tier) {
        requireOpen();
        return (Started<S>) started.computeIfAbsent(tier, TierLifecycle::startNow);
    }

    /** Once closed, nothing starts again: what the owner stopped stays stopped. */
    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("these tier sessions are closed (their owner stopped what they started)");
        }
    }

    /** Stops every environment started here, the last started first. */
    @Override
    public synchronized void close() {
        closed = true;
        RuntimeException first = null;
        List<Started<?>> lastFirst = new ArrayList<>(started.values());
        Collections.reverse(lastFirst);
        started.clear();
        for (Started<?> s : lastFirst) {
            try {
                s.close();
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
