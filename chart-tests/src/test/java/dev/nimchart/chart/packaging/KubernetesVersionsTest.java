package dev.nimchart.chart.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.CiScript;
import dev.nimchart.render.ChartRenderer;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.settings.Settings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Kubernetes versions the suite runs and the one the chart claims stay one set of facts (docs/tiers.md,
 * "Kubernetes versions"): the harness's default is the pin of ci/control-plane/kubernetes/go.mod; the oldest version
 * has committed modules of its own, is the version of Chart.yaml's kubeVersion lower bound, and is the one
 * chart-tests/pom.xml's oldest-kubernetes execution runs; the offline render claims that minor too.
 */
class KubernetesVersionsTest {

    private static final Pattern KUBE_PIN = Pattern.compile("(?m)^require k8s\\.io/kubernetes (v\\S+)$|^\\s+k8s\\.io/kubernetes (v\\S+)(\\s.*)?$");

    @Test
    void theDefaultVersionIsThePinOfTheControlPlaneModule() throws IOException {
        assertThat(kubePin(CiScript.ciDir().resolve("control-plane/kubernetes/go.mod")))
                .as("ci/control-plane/kubernetes/go.mod against Settings.DEFAULT_KUBE_VERSION").isEqualTo("v" + Settings.DEFAULT_KUBE_VERSION);
    }

    @Test
    void theOldestVersionHasCommittedModules() throws IOException {
        Path dir = CiScript.ciDir().resolve("control-plane/v" + Settings.OLDEST_KUBE_VERSION);
        assertThat(kubePin(dir.resolve("kubernetes/go.mod"))).as("%s/kubernetes/go.mod", dir).isEqualTo("v" + Settings.OLDEST_KUBE_VERSION);
        assertThat(Files.readString(dir.resolve("etcd/go.mod"))).as("%s/etcd/go.mod", dir).contains("require go.etcd.io/etcd/server/v3 v3.");
        assertThat(dir.resolve("kubernetes/go.sum")).isRegularFile();
        assertThat(dir.resolve("etcd/go.sum")).isRegularFile();
    }

    @Test
    void theChartClaimsTheOldestVersionsMinorAndNothingOlder() throws IOException {
        String claim = Files.readAllLines(ChartUnderTest.chartDir().resolve("Chart.yaml")).stream().filter(l -> l.startsWith("kubeVersion:"))
                .findFirst().orElseThrow().substring("kubeVersion:".length()).strip();
        String[] oldest = Settings.OLDEST_KUBE_VERSION.split("\\.");
        assertThat(claim).as("Chart.yaml's kubeVersion: the oldest version the suite runs, %s", Settings.OLDEST_KUBE_VERSION)
                .isEqualTo("\">=" + oldest[0] + "." + oldest[1] + ".0-0\"");
        assertThat(ChartRenderer.KUBE_VERSION).as("the offline render's Kubernetes version").isEqualTo(oldest[0] + "." + oldest[1] + ".0");
    }

    @Test
    void theOldestKubernetesExecutionRunsTheOldestVersion() throws IOException {
        String pom = Files.readString(CiScript.ciDir().resolve("../chart-tests/pom.xml"));
        assertThat(pom).as("chart-tests/pom.xml's nim.kube.oldest").contains("<nim.kube.oldest>" + Settings.OLDEST_KUBE_VERSION + "</nim.kube.oldest>");
        assertThat(pom).contains("<nim.kube.version>${nim.kube.oldest}</nim.kube.version>");
    }

    private static String kubePin(Path goMod) throws IOException {
        Matcher m = KUBE_PIN.matcher(Files.readString(goMod));
        assertThat(m.find()).as("%s requires k8s.io/kubernetes", goMod).isTrue();
        return m.group(1) != null ? m.group(1) : m.group(2);
    }
}
