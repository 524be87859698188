package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.PodTemplate;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartUnderTest;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Helm hands the chart every number of a values file as a float64, which Go prints as 1e+06 from a million on. Every
 * count, port, threshold and derived variable must render as the whole number the user wrote.
 */
class LargeNumbersTest {

    /** A number in Go's exponent form, as a scalar or inside a quoted string. */
    static final Pattern EXPONENT_FORM = dev.nimchart.checks.ManifestTextCheck.EXPONENT_FORM;

    private static final Path DIR = Path.of("src", "test", "resources", "large-numbers");

    @Test
    void statefulSetCountsAndThresholdsRenderAsIntegers() {
        RenderedManifest m = render("statefulset.yaml");
        KubeObject sts = m.one("StatefulSet");
        assertThat(sts.at("spec.replicas")).isEqualTo(1_000_000);
        assertThat(sts.at("spec.template.spec.terminationGracePeriodSeconds")).isEqualTo(86_400_000);
        KubeObject nim = PodTemplate.of(sts).get(0).nim();
        assertThat(nim.at("startupProbe.failureThreshold")).isEqualTo(1_000_000);
        assertThat(nim.at("startupProbe.periodSeconds")).isEqualTo(1_000_000);
        assertThat(m.one("PodDisruptionBudget").at("spec.minAvailable")).isEqualTo(1_000_000);
        assertThat(PodTemplate.of(sts).get(0).volumes()).filteredOn(v -> "dshm".equals(v.at("name")))
                .singleElement().satisfies(v -> assertThat(v.at("emptyDir.sizeLimit")).isEqualTo("626209778"));
        assertThat(sts.at("spec.volumeClaimTemplates[0].spec.resources.requests.storage")).isEqualTo("53687091200");
    }

    @Test
    void leaderWorkerSetTimeoutAndAutoscalerRenderAsIntegers() {
        RenderedManifest m = render("leaderworkerset.yaml");
        KubeObject lws = m.one("LeaderWorkerSet");
        assertThat(lws.at("spec.rolloutStrategy.rollingUpdateConfiguration.maxUnavailable")).isEqualTo(1_000_000);
        assertThat(m.one("HorizontalPodAutoscaler").at("spec.maxReplicas")).isEqualTo(1_000_000);
        for (PodTemplate pod : PodTemplate.of(lws)) {
            assertThat(PodTemplate.env(pod.nim()).get("CLUSTER_START_TIMEOUT").at("value")).as(pod.role()).isEqualTo("1000000");
        }
    }

    @Test
    void mpiJobCountsAndDerivedVariablesRenderAsIntegers() {
        RenderedManifest m = render("mpijob.yaml");
        KubeObject job = m.ofKind("MPIJob").get(0);
        assertThat(job.at("spec.slotsPerWorker")).isEqualTo(64);
        assertThat(job.at("spec.mpiReplicaSpecs.Worker.replicas")).isEqualTo(4096);
        var launcher = PodTemplate.env(PodTemplate.of(job).stream().filter(p -> p.role().equals("launcher")).findFirst()
                .orElseThrow().nim());
        assertThat(launcher.get("NIM_MPI_NUM_PROCESSES").at("value")).isEqualTo("262144");
        assertThat(launcher.get("CLUSTER_START_TIMEOUT").at("value")).isEqualTo("12345678");
    }

    @Test
    void noRenderedValueIsInExponentForm() {
        for (String file : new String[] {"statefulset.yaml", "leaderworkerset.yaml", "mpijob.yaml"}) {
            assertThat(EXPONENT_FORM.matcher(render(file).text()).results().map(r -> r.group()).toList()).as(file).isEmpty();
        }
    }

    @Test
    void theExponentPatternFindsWhatGoPrints() {
        assertThat(EXPONENT_FORM.matcher("replicas: 1e+06").find()).isTrue();
        assertThat(EXPONENT_FORM.matcher("value: \"1.2345678e+07\"").find()).isTrue();
        assertThat(EXPONENT_FORM.matcher("name: abc1e+06").find()).isFalse();
        assertThat(EXPONENT_FORM.matcher("replicas: 1000000").find()).isFalse();
    }

    private static RenderedManifest render(String file) {
        return ChartUnderTest.render(DIR.resolve(file));
    }
}
