package dev.nimchart.lint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.values.ExampleValuesFiles;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every pod template inside a custom resource becomes a Pod the policy engines can judge; built-in objects stay. */
class UnwrappedPodsTest {

    private static List<KubeObject> unwrapped(String example) {
        Path file = dev.nimchart.chart.repository.Examples.files().valid().stream().filter(p -> p.getFileName().toString().equals(example))
                .findFirst().orElseThrow();
        RenderedManifest m = ChartUnderTest.render(file);
        return UnwrappedPods.of(m, "ns1").stream().map(KubeObject::new).toList();
    }

    private static List<String> pods(List<KubeObject> objects) {
        return objects.stream().filter(o -> o.kind().equals("Pod")).map(KubeObject::name).sorted().toList();
    }

    @Test
    void aLeaderWorkerSetBecomesItsLeaderAndWorkerPods() {
        List<KubeObject> objects = unwrapped("multi-node-llama-3.1-405b-lws.yaml");
        assertThat(objects).noneMatch(o -> o.kind().equals("LeaderWorkerSet"));
        List<String> pods = pods(objects);
        assertThat(pods).hasSize(2).allMatch(n -> n.endsWith("-lws-leadertemplate") || n.endsWith("-lws-workertemplate"));
        KubeObject worker = objects.stream().filter(o -> o.name().endsWith("-workertemplate")).findFirst().orElseThrow();
        assertThat(worker.at("metadata.namespace")).isEqualTo("ns1");
        assertThat(worker.labels()).containsEntry("app.kubernetes.io/component", "worker");
        assertThat(worker.annotations().get(UnwrappedPods.FROM).toString()).startsWith("LeaderWorkerSet/")
                .endsWith("spec.leaderWorkerTemplate.workerTemplate");
        assertThat(worker.list("spec.containers")).extracting(c -> c.at("name")).contains("nim");
    }

    @Test
    void anMpiJobBecomesItsLauncherAndWorkerPodsUnderNamesOfTheirOwn() {
        List<KubeObject> objects = unwrapped("multi-node-llama-3.1-405b-mpijob.yaml");
        assertThat(objects).noneMatch(o -> o.kind().equals("MPIJob"));
        assertThat(pods(objects)).hasSize(2).anyMatch(n -> n.endsWith("-launcher-template")).anyMatch(n -> n.endsWith("-worker-template"));
    }

    @Test
    void builtInObjectsStayAsTheyAreInTheNamespace() {
        List<KubeObject> objects = unwrapped("single-node-minimal.yaml");
        assertThat(pods(objects)).isEmpty();
        assertThat(objects).anyMatch(o -> o.kind().equals("StatefulSet")).allMatch(o -> "ns1".equals(o.at("metadata.namespace")));
        assertThat(objects).extracting(KubeObject::kind).doesNotContain("Pod");
    }
}
