package dev.nimchart.startup;

import dev.nimchart.objects.KubeObject;
import dev.nimchart.startup.PodGroupRun.PodRun;
import java.time.Duration;

/**
 * A container's startup probe run on the kubelet's schedule: after initialDelaySeconds, one run every periodSeconds
 * (each ended after timeoutSeconds); the container is started at the first success, and restarted (here: its process
 * tree stopped) after failureThreshold failures in a row. Without a startup probe the container counts as started.
 */
public final class KubeletStartupProbe {

    /** How the probe ended: started or restarted, after how many runs, and when (from the first run's wait). */
    public record Outcome(boolean started, int runs, Duration elapsed, Duration budget) {
    }

    private KubeletStartupProbe() {
    }

    /** The most a startup may take under this container's probe: initialDelay + period x failureThreshold (kubelet). */
    public static Duration budget(KubeObject container) {
        if (container.at("startupProbe") == null) {
            return Duration.ZERO;
        }
        return Duration.ofSeconds(seconds(container, "initialDelaySeconds", 0)
                + (long) seconds(container, "periodSeconds", 10) * seconds(container, "failureThreshold", 3));
    }

    /**
     * Runs the probe of the pod's nim container until it starts or the kubelet would restart it (its failure threshold
     * reached, or its process exited).
     */
    public static Outcome run(PodGroupRun group, PodRun pod) throws InterruptedException {
        KubeObject nim = PodGroupRun.nimContainer(pod.pod());
        long t0 = System.nanoTime();
        if (nim.at("startupProbe") == null) {
            return new Outcome(true, 0, Duration.ZERO, Duration.ZERO);
        }
        int period = seconds(nim, "periodSeconds", 10);
        int threshold = seconds(nim, "failureThreshold", 3);
        long firstRun = t0 + seconds(nim, "initialDelaySeconds", 0) * 1_000_000_000L;
        while (System.nanoTime() < firstRun && pod.process().isAlive()) {
            Thread.sleep(Math.min(200, Math.max(1, (firstRun - System.nanoTime()) / 1_000_000)));
        }
        int failures = 0;
        int runs = 0;
        while (true) {
            // A container whose process has exited is not started: the kubelet restarts it (CrashLoopBackOff).
            if (!pod.process().isAlive()) {
                return new Outcome(false, runs, Duration.ofNanos(System.nanoTime() - t0), budget(nim));
            }
            long runStart = System.nanoTime();
            runs++;
            if (group.probePasses(pod, "startupProbe")) {
                return new Outcome(true, runs, Duration.ofNanos(System.nanoTime() - t0), budget(nim));
            }
            if (++failures >= threshold) {
                pod.process().descendants().forEach(ProcessHandle::destroyForcibly);
                pod.process().destroyForcibly();
                return new Outcome(false, runs, Duration.ofNanos(System.nanoTime() - t0), budget(nim));
            }
            long wait = period * 1000L - (System.nanoTime() - runStart) / 1_000_000;
            if (wait > 0) {
                Thread.sleep(wait);
            }
        }
    }

    private static int seconds(KubeObject container, String field, int fallback) {
        Object v = container.at("startupProbe." + field);
        return v == null ? fallback : Integer.parseInt(v.toString());
    }
}
