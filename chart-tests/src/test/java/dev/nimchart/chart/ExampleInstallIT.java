package dev.nimchart.chart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.objects.KubeObject;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.objects.PodTemplate;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.cluster.ClusterSession;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.cluster.PodSecurityVerdict;
import dev.nimchart.cluster.ReleaseRecord;
import dev.nimchart.cluster.StoredObjectCheck;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every example installed with Helm (real release storage) into a namespace of its own that enforces the restricted
 * Pod Security level, and read back from the API server.
 */
@ExtendWith(ClusterTier.class)
class ExampleInstallIT {

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.nimchart.chart.Examples#all")
    void installsAndTheServerStoresWhatHelmApplied(Path file, ClusterSession cluster) {
        Example e = Example.of(file);
        String release = ChartUnderTest.releaseName(file);
        String namespace = cluster.restrictedNamespace("install-" + release);
        KubeApi api = cluster.api();

        long started = System.nanoTime();
        RenderedManifest rendered = ChartUnderTest.renderIn(namespace, file);
        List<String> warnings = new ArrayList<>();
        for (KubeObject o : rendered.objects()) {
            KubeApi.Response dryRun = api.create(o, namespace, true);
            assertThat(dryRun.ok()).as("%s: strict server-side dry run of %s: %s", e.name(), o, dryRun.message()).isTrue();
            dryRun.warnings().forEach(w -> warnings.add(o + ": " + w));
        }
        assertThat(warnings).as("%s: warnings of the API server that no documented exception explains", e.name())
                .filteredOn(w -> !PodSecurityExceptions.documents(e, w)).isEmpty();
        if (PodSecurityExceptions.expectedChecks(e).isEmpty()) {
            assertThat(warnings).as("%s: needs nothing beyond restricted, so no warning at all", e.name()).isEmpty();
        }

        cluster.releases().install(release, namespace, List.of(file), Map.of());
        ReleaseRecord record = ReleaseRecord.latest(api, namespace, release);
        assertThat(record.revision()).isEqualTo(1);
        assertThat(record.status()).isEqualTo("deployed");
        RenderedManifest applied = record.objects();
        assertThat(kindsAndNames(applied.objects())).as("%s: Helm applied what the chart renders", e.name())
                .isEqualTo(kindsAndNames(rendered.objects()));

        List<KubeObject> stored = new ArrayList<>();
        for (KubeObject o : applied.objects()) {
            Optional<KubeObject> back = api.read(o.apiVersion(), o.kind(), namespace, o.name());
            assertThat(back).as("%s: %s is stored", e.name(), o).isPresent();
            assertThat(StoredObjectCheck.differences(o, back.get())).as("%s: %s as stored", e.name(), o).isEmpty();
            stored.add(back.get());
        }
        java.util.Set<String> releaseRecords = ReleaseRecord.history(api, namespace, release).stream()
                .map(r -> "Secret/sh.helm.release.v1." + release + ".v" + r.revision()).collect(Collectors.toSet());
        assertThat(NamespaceContents.of(api, namespace)).as("%s: the namespace holds the release's objects and no others", e.name())
                .containsExactlyInAnyOrderElementsOf(java.util.stream.Stream.concat(
                        applied.objects().stream().map(KubeObject::toString), releaseRecords.stream()).toList());
        ClusterTier.record("install + read back " + e.name(), Duration.ofNanos(System.nanoTime() - started));

        assertStoredShape(e, RenderedManifest.of(stored));
        for (PodTemplate t : PodTemplate.of(RenderedManifest.of(stored))) {
            PodSecurityVerdict verdict = PodSecurityVerdict.of(api, namespace, t);
            assertThat(verdict.checks()).as("%s: Pod Security (restricted) of %s: %s", e.name(), t, verdict.message())
                    .containsExactlyInAnyOrderElementsOf(PodSecurityExceptions.expectedChecks(e, t));
        }
    }

    /** The shape the values ask for, on the objects as stored. */
    private static void assertStoredShape(Example e, RenderedManifest stored) {
        List<PodTemplate> templates = PodTemplate.of(stored);
        assertThat(templates.stream().map(PodTemplate::role).toList()).as("%s: stored pod templates", e.name())
                .isEqualTo(e.templates.stream().map(PodTemplate::role).toList());
        for (PodTemplate t : templates) {
            assertThat(t.gpus(stored)).as("%s: GPUs of %s", e.name(), t).isEqualTo(t.gpuPod() ? e.gpuLimit() : 0);
        }
        List<KubeObject> inference = stored.ofKind("Service").stream()
                .filter(s -> "inference".equals(Example.serviceRole(s))).toList();
        assertThat(inference).as("%s: one inference Service", e.name()).hasSize(1);
        @SuppressWarnings("unchecked")
        Map<String, Object> selector = (Map<String, Object>) inference.get(0).at("spec.selector");
        for (PodTemplate t : templates) {
            assertThat(t.selectedBy(selector)).as("%s: the inference Service selects %s", e.name(), t)
                    .isEqualTo(List.of("server", "leader", "mpi-worker").contains(t.role()));
        }
        for (KubeObject claim : stored.ofKind("PersistentVolumeClaim")) {
            assertThat(claim.at("spec.accessModes[0]")).as(e.name()).isEqualTo(e.text("persistence.accessMode"));
            assertThat(StoredObjectCheck.sameScalar(e.text("persistence.size"), claim.at("spec.resources.requests.storage")))
                    .as("%s: claim size", e.name()).isTrue();
            @SuppressWarnings("unchecked")
            Map<String, Object> annotations = (Map<String, Object>) e.values.at("persistence.annotations");
            assertThat(claim.annotations()).as(e.name()).containsAllEntriesOf(annotations);
        }
        for (PodTemplate t : templates) {
            if (List.of("server", "leader").contains(t.role()) && e.flag("startupProbe.enabled")) {
                assertThat(t.nim().at("startupProbe.failureThreshold")).as("%s: %s startup probe", e.name(), t)
                        .isEqualTo(e.integer("startupProbe.failureThreshold"));
            }
        }
    }

    static Map<String, Long> kindsAndNames(List<KubeObject> objects) {
        return objects.stream().collect(Collectors.groupingBy(o -> o.kind() + "/" + o.name(), TreeMap::new, Collectors.counting()));
    }
}
