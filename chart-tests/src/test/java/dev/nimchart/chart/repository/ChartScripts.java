package dev.nimchart.chart.repository;

import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.render.ChartUnderTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The chart's start-up scripts as the pods mount them (from the stored ConfigMap), run with bash for what they compute. */
public final class ChartScripts {

    private ChartScripts() {
    }

    /** Writes these scripts of an example's rendered MPI ConfigMap into a directory, to run them offline with bash. */
    public static void writeRendered(String example, Path dir, List<String> scripts) throws IOException {
        KubeObject configMap = ChartUnderTest.render(Examples.named(example)).ofKind("ConfigMap").stream()
                .filter(c -> c.name().endsWith("-mpi")).findFirst().orElseThrow();
        for (String script : scripts) {
            Files.writeString(dir.resolve(script), (String) configMap.at("data[" + script + "]"));
        }
    }

    /** Whether the pod's NIM container starts through the chart's MPI leader script. */
    public static boolean usesMpi(KubeObject pod) {
        return String.valueOf(pod.list("spec.containers").get(0).at("command")).contains("leader.sh")
                || String.valueOf(pod.list("spec.containers").get(0).at("args")).contains("leader.sh");
    }

    /** The name launcher.sh dials for the MPIJob worker of this hostfile entry (common.sh's serving_host). */
    public static String servingHost(NamespaceState state, String hostfileEntry) {
        return runCommon(state, Map.of("ENTRY", hostfileEntry), "serving_host \"$ENTRY\"").get(0);
    }

    /** The worker addresses common.sh's worker_hosts prints for this environment (the leader's, as the kubelet gives it). */
    public static List<String> workerHosts(NamespaceState state, Map<String, String> env) {
        return runCommon(state, env, "worker_hosts");
    }

    /** The lines a bash snippet prints after sourcing the stored common.sh, with exactly this environment. */
    private static List<String> runCommon(NamespaceState state, Map<String, String> env, String snippet) {
        KubeObject scripts = state.all("ConfigMap").stream().filter(cm -> cm.at("data[common.sh]") != null).findFirst()
                .orElseThrow(() -> new AssertionError("no ConfigMap with the chart's common.sh in " + state.namespace()));
        try {
            Path dir = Files.createTempDirectory("nim-scripts");
            Path common = dir.resolve("common.sh");
            Files.writeString(common, scripts.at("data[common.sh]").toString());
            ProcessBuilder builder = new ProcessBuilder("bash", "-c", "set -euo pipefail; source \"$1\"; " + snippet, "worker-hosts", common.toString())
                    .redirectErrorStream(true);
            builder.environment().clear();
            builder.environment().put("PATH", System.getenv("PATH"));
            builder.environment().putAll(env);
            Process p = builder.start();
            String out = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new AssertionError(snippet + " of common.sh failed: " + out);
            }
            return out.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
