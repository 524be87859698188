package dev.nimchart.chart.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.Examples;
import dev.nimchart.chart.repository.NimLlmFuzzScenarios;
import dev.nimchart.cluster.ClusterSession;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.fuzz.FuzzDocument;
import dev.nimchart.fuzz.ValuesFuzzer;
import dev.nimchart.junit.ClusterTier;
import dev.nimchart.sessions.TierNamespaces;
import dev.nimchart.objects.EmbeddedPods;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartRefusedException;
import dev.nimchart.render.ChartUnderTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The API server judges every pod template the chart renders, whatever kind wraps it: each becomes a Pod
 * ({@link EmbeddedPods}) created with a server-side dry run and strict field validation. The API server validates the
 * template of a Deployment or StatefulSet itself, but never the one inside a LeaderWorkerSet or MPIJob, where a
 * template it would refuse installs fine and no pod ever appears. For every example, every downstream team's values
 * file (examples/downstream/values) and a sample of fuzz documents that render.
 */
@ExtendWith(ClusterTier.class)
class PodTemplatesDryRunIT {

    /** Fuzz documents whose pod templates the API server judges (the first that render, of a fixed seed). */
    static final int FUZZ_SAMPLE = Integer.getInteger("nim.podtemplates.fuzz", 40);
    /** -Dnim.podtemplates.seed=... judges another sample. */
    static final long FUZZ_SEED = Long.getLong("nim.podtemplates.seed", 20261123L);

    static Stream<Path> examplesAndDownstreamValues() throws IOException {
        Path downstream = ChartUnderTest.chartDir().resolve("../../examples/downstream/values").normalize();
        List<Path> files = new ArrayList<>(Examples.all().toList());
        try (Stream<Path> s = Files.list(downstream)) {
            s.filter(p -> p.toString().endsWith(".yaml")).sorted().forEach(files::add);
        }
        return files.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examplesAndDownstreamValues")
    void theApiServerAdmitsAPodFromEveryPodTemplate(Path file, ClusterSession cluster) {
        String namespace = TierNamespaces.create(cluster.api(), "pods-" + ChartUnderTest.releaseName(file), "privileged");
        List<String> refused;
        try {
            refused = refusedPods(cluster.api(), namespace, ChartUnderTest.render(file));
        } finally {
            // nothing runs in it (dry runs and ServiceAccounts); a cluster the harness did not start keeps it otherwise
            TierNamespaces.delete(cluster.api(), namespace, () -> { });
        }
        assertThat(refused).as("%s: pods of its templates the API server refuses", file.getFileName()).isEmpty();
        assertThat(templates(ChartUnderTest.render(file))).as("%s: pod templates judged", file.getFileName()).isPositive();
    }

    @Test
    void theApiServerAdmitsAPodFromEveryPodTemplateOfASampleOfFuzzDocuments(ClusterSession cluster) throws IOException {
        String namespace = TierNamespaces.create(cluster.api(), "pods-fuzz", "privileged");
        ValuesFuzzer fuzzer = new ValuesFuzzer(ChartUnderTest.chartDir(), FUZZ_SEED, new NimLlmFuzzScenarios());
        Path dir = Files.createDirectories(Path.of("target", "pod-templates-fuzz"));
        List<String> refused = new ArrayList<>();
        int judged = 0;
        int customResources = 0;
        for (int i = 0; judged < FUZZ_SAMPLE && i < FUZZ_SAMPLE * 10; i++) {
            FuzzDocument doc = fuzzer.document(i);
            Path file = dir.resolve("fuzz-%04d.yaml".formatted(i));
            Files.writeString(file, doc.toYaml());
            RenderedManifest manifest;
            try {
                manifest = ChartUnderTest.render(file);
            } catch (ChartRefusedException e) {
                continue;
            }
            judged++;
            if (manifest.objects().stream().anyMatch(o -> List.of("LeaderWorkerSet", "MPIJob").contains(o.kind()))) {
                customResources++;
            }
            refusedPods(cluster.api(), namespace, manifest).forEach(r -> refused.add(file + ": " + r));
        }
        TierNamespaces.delete(cluster.api(), namespace, () -> { });
        assertThat(refused).as("pods of fuzz documents' templates the API server refuses (seed %d)", FUZZ_SEED).isEmpty();
        assertThat(judged).as("fuzz documents that rendered and were judged").isEqualTo(FUZZ_SAMPLE);
        assertThat(customResources).as("of them, with a LeaderWorkerSet or MPIJob").isPositive();
    }

    private static int templates(RenderedManifest manifest) {
        return manifest.objects().stream().mapToInt(o -> EmbeddedPods.of(o).size()).sum();
    }

    /** What the API server says against each pod of the manifest's templates (empty when it admits them all). */
    private static List<String> refusedPods(KubeApi api, String namespace, RenderedManifest manifest) {
        List<String> refused = new ArrayList<>();
        // the API server admits a pod only with its ServiceAccount in place (where the ServiceAccount admission plugin
        // runs, as on every real cluster): the release's own are made first, for real; one made already is fine
        for (KubeObject account : manifest.objects()) {
            if (account.kind().equals("ServiceAccount")) {
                KubeApi.Response made = api.create(account, namespace, false);
                if (!made.ok() && made.code() != 409) {
                    refused.add(account + ": " + made.message());
                }
            }
        }
        for (KubeObject owner : manifest.objects()) {
            for (EmbeddedPods t : EmbeddedPods.of(owner)) {
                KubeApi.Response response = api.create(t.pod(), namespace, true);
                if (!response.ok()) {
                    refused.add(owner + " " + t.path() + ": " + response.message());
                }
            }
        }
        return refused;
    }
}
