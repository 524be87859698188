package dev.nimchart.startup;

import dev.nimchart.cluster.LocalProcess;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.ServingContainer;
import dev.nimchart.startup.PodGroupRun.PodRun;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * The nim container's probes as the kubelet runs them, through the executor ({@link PodExecutor}): an exec probe in the
 * pod's namespaces as its user with its environment, within the probe's timeoutSeconds; or an HTTP GET of the probe's
 * path on the pod's IP and port (a 2xx or 3xx status); or a TCP connection. A container without a probe of a kind
 * passes it while its process runs.
 */
final class PodProbes {

    private static final List<String> PROBES = List.of("startupProbe", "readinessProbe", "livenessProbe");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final PodExecutor executor;

    PodProbes(PodExecutor executor) {
        this.executor = executor;
    }

    /** The container's probes as the plan holds them: each kind it sets, with its handler's port resolved to a number. */
    static Map<String, Object> planned(KubeObject nim) {
        Map<String, Object> probes = new LinkedHashMap<>();
        for (String kind : PROBES) {
            if (nim.at(kind) instanceof Map<?, ?> probe) {
                @SuppressWarnings("unchecked")
                Map<String, Object> copy = JSON.readValue(JSON.writeValueAsString(probe), Map.class);
                for (String handler : List.of("httpGet", "tcpSocket", "grpc")) {
                    if (copy.get(handler) instanceof Map<?, ?> h && h.get("port") != null) {
                        @SuppressWarnings("unchecked")
                        Map<String, Object> handlerMap = (Map<String, Object>) h;
                        handlerMap.put("port", port(nim, h.get("port")));
                    }
                }
                probes.put(kind, copy);
            }
        }
        return probes;
    }

    /** A probe's port: a number, or the name of one of the container's ports. */
    private static int port(KubeObject container, Object port) {
        if (port instanceof Number n) {
            return n.intValue();
        }
        return container.list("ports").stream().filter(p -> String.valueOf(port).equals(p.at("name")))
                .map(p -> Integer.parseInt(String.valueOf(p.at("containerPort")))).findFirst()
                .orElseGet(() -> Integer.parseInt(String.valueOf(port)));
    }

    /**
     * Whether the startup probe succeeds as the kubelet judges it: one pass within its failureThreshold attempts (3 when
     * unset), periodSeconds apart (10 when unset). A slow attempt (an exec probe past its timeoutSeconds on a loaded
     * machine) is one failed attempt, as on a node, not a failed probe.
     */
    boolean startupSucceeds(PodRun run) {
        KubeObject nim = ServingContainer.of(run.pod());
        int attempts = intOr(nim.at("startupProbe.failureThreshold"), 3);
        long period = intOr(nim.at("startupProbe.periodSeconds"), 10) * 1000L;
        for (int i = 0; i < attempts; i++) {
            if (passes(run, "startupProbe")) {
                return true;
            }
            if (i + 1 < attempts) {
                LocalProcess.sleep(period);
            }
        }
        return false;
    }

    private static int intOr(Object value, int otherwise) {
        return value == null ? otherwise : Integer.parseInt(value.toString());
    }

    /** Whether one run of the probe of this kind (startupProbe, livenessProbe, readinessProbe) passes now. */
    boolean passes(PodRun run, String kind) {
        KubeObject nim = ServingContainer.of(run.pod());
        int timeout = intOr(nim.at(kind + ".timeoutSeconds"), 1);
        return StartupHost.run(executor.command(run, "probe", kind), timeout + 10).exit() == 0;
    }
}
