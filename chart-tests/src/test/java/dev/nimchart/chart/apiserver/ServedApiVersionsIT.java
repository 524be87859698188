package dev.nimchart.chart.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.Examples;
import dev.nimchart.chart.repository.NimLlmFuzzScenarios;
import dev.nimchart.cluster.ClusterSession;
import dev.nimchart.cluster.LocalControlPlane;
import dev.nimchart.cluster.ServedApis;
import dev.nimchart.fuzz.ValuesFuzzer;
import dev.nimchart.junit.ClusterTier;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.render.ChartRefusedException;
import dev.nimchart.render.ChartUnderTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every apiVersion and kind the chart renders (every example, every downstream team's values file, and the fuzz
 * documents of a fixed seed that render) is served by this tier's API server, read from its own discovery: no list
 * typed by hand. Failsafe runs this class on the pinned Kubernetes version and again on the oldest one Chart.yaml's
 * kubeVersion claims (the execution oldest-kubernetes), so each claimed end of the range is held to its own server.
 * The chart chooses no apiVersion from .Capabilities (helm-java's template cannot pass --api-versions), so what it
 * renders is the same on every version and must be served by all of them. The kinds found go to
 * target/cluster-tier/served-api-versions-v1.X.Y.tsv.
 */
@ExtendWith(ClusterTier.class)
class ServedApiVersionsIT {

    /** Fuzz documents that render, of a fixed seed, whose kinds are held to discovery besides the examples'. */
    static final int FUZZ_SAMPLE = Integer.getInteger("nim.servedapis.fuzz", 150);
    static final long FUZZ_SEED = Long.getLong("nim.servedapis.seed", 20261129L);

    @Test
    void everyApiVersionTheChartRendersIsServedByThisKubernetesVersion(ClusterSession cluster) throws IOException {
        ServedApis served = ServedApis.of(cluster.api());
        Map<String, String> rendered = new TreeMap<>(); // "apiVersion kind" -> the first file that renders it
        for (Path file : PodTemplatesDryRunIT.examplesAndDownstreamValues().toList()) {
            collect(rendered, file.getFileName().toString(), ChartUnderTest.render(file).objects());
        }
        ValuesFuzzer fuzzer = new ValuesFuzzer(ChartUnderTest.chartDir(), FUZZ_SEED, new NimLlmFuzzScenarios());
        Path dir = Files.createDirectories(Path.of("target", "served-api-versions-fuzz"));
        int judged = 0;
        for (int i = 0; judged < FUZZ_SAMPLE && i < FUZZ_SAMPLE * 10; i++) {
            Path file = dir.resolve("fuzz-%04d.yaml".formatted(i));
            Files.writeString(file, fuzzer.document(i).toYaml());
            try {
                collect(rendered, file.toString(), ChartUnderTest.render(file).objects());
                judged++;
            } catch (ChartRefusedException refused) {
                // refused documents render nothing
            }
        }
        List<String> notServed = new ArrayList<>();
        StringBuilder report = new StringBuilder("apiVersion\tkind\tserved by " + served.gitVersion() + "\tfirst rendered by\n");
        rendered.forEach((key, file) -> {
            String apiVersion = key.substring(0, key.indexOf(' '));
            String kind = key.substring(key.indexOf(' ') + 1);
            boolean ok = served.serves(apiVersion, kind);
            report.append(apiVersion).append('\t').append(kind).append('\t').append(ok ? "yes" : "NO").append('\t').append(file).append('\n');
            if (!ok) {
                notServed.add("Kubernetes " + served.gitVersion() + " does not serve " + kind + " in " + apiVersion + " (rendered for "
                        + file + "; it serves " + kind + " in " + served.versionsOf(kind) + ")");
            }
        });
        Path reportFile = Files.createDirectories(dev.nimchart.sessions.ClusterTierLifecycle.reportDir(dev.nimchart.junit.RunSettings.get())).resolve("served-api-versions-" + served.gitVersion() + ".tsv");
        Files.writeString(reportFile, report);

        assertThat(judged).as("fuzz documents that rendered (seed %d)", FUZZ_SEED).isEqualTo(FUZZ_SAMPLE);
        assertThat(notServed).as("kinds the chart renders that %s does not serve (report: %s)", served.gitVersion(), reportFile).isEmpty();
        assertThat(rendered.keySet()).as("kinds rendered (the report: %s)", reportFile)
                .contains("apps/v1 StatefulSet", "leaderworkerset.x-k8s.io/v1 LeaderWorkerSet", "resource.k8s.io/v1 ResourceClaimTemplate");
    }

    @Test
    void theApiServerIsTheVersionTheSettingsNameAndTheChartClaims(ClusterSession cluster) {
        ServedApis served = ServedApis.of(cluster.api());
        if (cluster.cluster() instanceof LocalControlPlane) {
            assertThat(served.gitVersion()).as("the local control plane's version").isEqualTo("v" + cluster.settings().kubeVersion());
        }
        String claim = chartKubeVersion();
        java.util.regex.Matcher lower = java.util.regex.Pattern.compile("^>=\\s*(\\d+)\\.(\\d+)\\.(\\d+)(-0)?$").matcher(claim);
        assertThat(lower.matches()).as("Chart.yaml's kubeVersion %s is a lower bound, >=X.Y.Z-0", claim).isTrue();
        int[] server = minorOf(served.gitVersion());
        assertThat(server[0] * 1000 + server[1]).as("%s is at or above Chart.yaml's kubeVersion %s", served.gitVersion(), claim)
                .isGreaterThanOrEqualTo(Integer.parseInt(lower.group(1)) * 1000 + Integer.parseInt(lower.group(2)));
    }

    /** Chart.yaml's kubeVersion, as written. */
    static String chartKubeVersion() {
        try {
            return Files.readAllLines(ChartUnderTest.chartDir().resolve("Chart.yaml")).stream()
                    .filter(l -> l.startsWith("kubeVersion:")).map(l -> l.substring("kubeVersion:".length()).strip().replace("\"", ""))
                    .findFirst().orElseThrow(() -> new AssertionError("Chart.yaml has no kubeVersion"));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static int[] minorOf(String gitVersion) {
        String[] parts = gitVersion.replaceFirst("^v", "").split("[.+-]");
        return new int[] {Integer.parseInt(parts[0]), Integer.parseInt(parts[1])};
    }

    private static void collect(Map<String, String> rendered, String file, List<KubeObject> objects) {
        for (KubeObject o : objects) {
            rendered.putIfAbsent(o.apiVersion() + " " + o.kind(), file);
        }
    }
}
