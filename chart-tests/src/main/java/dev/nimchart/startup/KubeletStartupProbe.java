package dev.nimchart.startup;

import dev.nimchart.objects.KubeObject;
import dev.nimchart.startup.PodGroupRun.PodRun;
import java.time.Duration;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * A container's startup probe run on the kubelet's schedule: after initialDelaySeconds, one run every periodSeconds
 * (each ended after timeoutSeconds); the container is started at the first success, and restarted (here: its process
 * tree stopped) after failureThreshold failures in a row. Without a startup probe the container counts as started.
 */
public final class KubeletStartupProbe {

    private static final JsonMapper JSON = JsonMapper.builder().build();

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
     * reached, or its process exited): the executor's {@code startup} on the pod's plan (pod-run.py, the one
     * implementation of the kubelet's probe schedule); a container it would restart has its process tree stopped.
     */
    public static Outcome run(PodGroupRun group, PodRun pod) {
        KubeObject nim = PodGroupRun.nimContainer(pod.pod());
        long limit = budget(nim).toSeconds() + 60;
        StartupHost.Result r = StartupHost.run(group.executorCommand(pod, "startup"), (int) Math.min(Integer.MAX_VALUE, limit));
        String out = r.output().strip();
        String last = out.substring(out.lastIndexOf('\n') + 1);
        if (r.exit() != 0 || !last.startsWith("{")) {
            throw new IllegalStateException("the start-up tier's executor failed on the startup probe of " + pod.pod().name() + ": " + out);
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> outcome = JSON.readValue(last, Map.class);
        boolean started = Boolean.TRUE.equals(outcome.get("started"));
        if (!started && "threshold".equals(outcome.get("why"))) {
            pod.process().descendants().forEach(ProcessHandle::destroyForcibly);
            pod.process().destroyForcibly();
        }
        long nanos = (long) (((Number) outcome.get("seconds")).doubleValue() * 1e9);
        return new Outcome(started, ((Number) outcome.get("runs")).intValue(), Duration.ofNanos(nanos), budget(nim));
    }

    private static int seconds(KubeObject container, String field, int fallback) {
        Object v = container.at("startupProbe." + field);
        return v == null ? fallback : Integer.parseInt(v.toString());
    }
}
