package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.Examples;
import dev.nimchart.chart.repository.LiveObjects;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.PodTemplate;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartUnderTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Multi-node settings varied one at a time on the documentation's LeaderWorkerSet example. */
class MultiNodeWiringTest {

    private static final Path LWS = Examples.named("multi-node-llama-3.1-405b-lws.yaml");
    private static final String SSH_SECRET = ChartUnderTest.releaseName(LWS) + "-" + ChartUnderTest.chart().name() + "-ssh";

    @AfterEach
    void forgetLookupData() {
        ChartUnderTest.renderer().lookups().removeSecret(ChartUnderTest.NAMESPACE, SSH_SECRET);
        ChartUnderTest.renderer().lookups().clearObjects(ChartUnderTest.NAMESPACE);
    }

    @Test
    void theSshKeyIsGeneratedAtInstallAndKeptOnUpgrade() {
        String first = sshKey(ChartUnderTest.render(LWS));
        String second = sshKey(ChartUnderTest.render(LWS));
        assertThat(decode(first)).startsWith("-----BEGIN EC PRIVATE KEY-----");
        assertThat(second).as("with no Secret in the cluster, each install generates its own key").isNotEqualTo(first);

        RenderedManifest installed = ChartUnderTest.render(LWS);
        String key = sshKey(installed);
        LiveObjects.install(installed, ChartUnderTest.releaseName(LWS));
        assertThat(sshKey(ChartUnderTest.render(LWS))).as("an upgrade reads the installed key back").isEqualTo(key);
        assertThat(sshKey(ChartUnderTest.render(LWS, Map.of("replicaCount", "3", "startupProbe.failureThreshold", "2000"))))
                .as("an upgrade with other values keeps it too").isEqualTo(key);
    }

    /**
     * A revision that does not use the generated key (another key, native launch, MPIJob, single-node) still renders it
     * while it exists, with the same key: no upgrade deletes it, so every revision carries one key and a rollback
     * re-applies the live one.
     */
    @Test
    void theLiveKeyStaysInEveryRevisionThatDoesNotUseIt() {
        RenderedManifest installed = ChartUnderTest.render(LWS);
        String key = sshKey(installed);
        LiveObjects.install(installed, ChartUnderTest.releaseName(LWS));
        for (Map<String, String> other : List.of(Map.of("multiNode.existingSSHSecret", "team-mpi-key"),
                Map.of("multiNode.launchMode", "native"), Map.of("multiNode.leaderWorkerSet.enabled", "false"))) {
            RenderedManifest m = ChartUnderTest.render(LWS, other);
            assertThat(sshKey(m)).as("with %s the live key is still rendered, unchanged", other).isEqualTo(key);
            assertThat(PodTemplate.of(m)).as("with %s no pod mounts it", other)
                    .allSatisfy(t -> assertThat(t.volumes()).noneMatch(v -> SSH_SECRET.equals(v.at("secret.secretName"))));
        }
        ChartUnderTest.renderer().lookups().clearObjects(ChartUnderTest.NAMESPACE);
        assertThat(ChartUnderTest.render(LWS, Map.of("multiNode.existingSSHSecret", "team-mpi-key")).ofKind("Secret"))
                .as("without a live key, a revision that does not use one renders none").isEmpty();
    }

    @Test
    void aSecretOfTheKeysNameThatTheChartDidNotMakeIsNotReadBack() {
        RenderedManifest installed = ChartUnderTest.render(LWS);
        String key = sshKey(installed);
        Map<String, Object> foreign = new java.util.LinkedHashMap<>(Map.of("apiVersion", "v1", "kind", "Secret",
                "metadata", Map.of("name", SSH_SECRET, "namespace", ChartUnderTest.NAMESPACE), "data", Map.of("private.key", key)));
        ChartUnderTest.renderer().lookups().putObject(foreign);
        assertThat(sshKey(ChartUnderTest.render(LWS))).as("a user's Secret is never taken for the chart's key").isNotEqualTo(key);
        assertThat(ChartUnderTest.render(LWS, Map.of("multiNode.existingSSHSecret", "team-mpi-key")).ofKind("Secret"))
                .as("nor kept as if it were the chart's").isEmpty();
    }

    @Test
    void anExistingSshSecretIsUsedAndNoneIsGenerated() {
        RenderedManifest m = ChartUnderTest.render(LWS, Map.of("multiNode.existingSSHSecret", "team-mpi-key"));
        assertThat(m.ofKind("Secret")).isEmpty();
        for (PodTemplate t : PodTemplate.of(m)) {
            assertThat(t.volumes()).anyMatch(v -> "team-mpi-key".equals(v.at("secret.secretName")));
        }
    }

    @Test
    void aUserEnvEntryReplacesTheDerivedVariable(@TempDir Path dir) throws IOException {
        Path override = Files.writeString(dir.resolve("parallelism.yaml"), String.join("\n", "env:",
                "  - {name: NIM_TENSOR_PARALLEL_SIZE, value: \"16\"}",
                "  - {name: NIM_PIPELINE_PARALLEL_SIZE, value: \"1\"}", ""));
        RenderedManifest m = ChartUnderTest.render(List.of(LWS, override), Map.of());
        for (PodTemplate t : PodTemplate.of(m)) {
            List<String> names = t.nim().list("env").stream().map(e -> (String) e.at("name")).toList();
            assertThat(names).filteredOn("NIM_TENSOR_PARALLEL_SIZE"::equals).hasSize(1);
            assertThat(PodTemplate.env(t.nim()).get("NIM_TENSOR_PARALLEL_SIZE").at("value")).isEqualTo("16");
            assertThat(PodTemplate.env(t.nim()).get("NIM_PIPELINE_PARALLEL_SIZE").at("value")).isEqualTo("1");
        }
    }

    @Test
    void customCommandsReplaceTheLeaderAndWorkerCommands() {
        RenderedManifest m = ChartUnderTest.render(LWS, Map.of(
                "customCommand[0]", "/opt/nim/start_server.sh", "multiNode.launchMode", "native",
                "multiNode.workerCustomCommand[0]", "sh", "multiNode.workerCustomCommand[1]", "-c",
                "multiNode.workerCustomCommand[2]", "sleep infinity"));
        Map<String, PodTemplate> byRole = byRole(m);
        assertThat(byRole.get("leader").nim().at("command")).isEqualTo(List.of("/opt/nim/start_server.sh"));
        assertThat(byRole.get("worker").nim().at("command")).isEqualTo(List.of("sh", "-c", "sleep infinity"));
    }

    @Test
    void nativeLaunchRunsTheImageEntrypointWithoutSsh() {
        RenderedManifest m = ChartUnderTest.render(LWS, Map.of("multiNode.launchMode", "native"));
        assertThat(m.ofKind("ConfigMap")).isEmpty();
        assertThat(m.ofKind("Secret")).isEmpty();
        for (PodTemplate t : PodTemplate.of(m)) {
            assertThat(t.nim().at("command")).isNull();
            assertThat(t.volumes()).noneMatch(v -> v.at("secret") != null);
        }
    }

    @Test
    void autoscalingScalesLeaderWorkerSetGroups() {
        RenderedManifest m = ChartUnderTest.render(LWS, Map.of("autoscaling.enabled", "true", "autoscaling.maxReplicas", "4"));
        KubeObject hpa = m.one("HorizontalPodAutoscaler");
        assertThat(hpa.at("spec.scaleTargetRef.apiVersion")).isEqualTo("leaderworkerset.x-k8s.io/v1");
        assertThat(hpa.at("spec.scaleTargetRef.kind")).isEqualTo("LeaderWorkerSet");
        assertThat(hpa.at("spec.scaleTargetRef.name")).isEqualTo(m.one("LeaderWorkerSet").name());
        assertThat(m.one("LeaderWorkerSet").at("spec.replicas")).isNull();
    }

    @Test
    void everyPodSettingReachesLeadersAndWorkers() {
        RenderedManifest m = ChartUnderTest.render(LWS, Map.of(
                "serviceAccount.create", "true", "podSecurityContext.runAsUser", "2000",
                "nodeSelector.pool", "h100", "extraVolumes.scratch.emptyDir.medium", "Memory",
                "extraVolumeMounts.scratch.mountPath", "/scratch", "initContainers.extraInit[0].name", "warmup",
                "initContainers.extraInit[0].image", "busybox:1.37"));
        for (PodTemplate t : PodTemplate.of(m)) {
            assertThat(t.pod().at("spec.serviceAccountName")).as(t.toString()).isEqualTo(m.one("ServiceAccount").name());
            assertThat(t.pod().at("spec.securityContext.runAsUser")).as(t.toString()).isEqualTo(2000);
            assertThat(t.pod().at("spec.nodeSelector.pool")).as(t.toString()).isEqualTo("h100");
            assertThat(t.volumes()).as(t.toString()).anyMatch(v -> "scratch".equals(v.at("name")));
            assertThat(t.initContainers()).as(t.toString()).anyMatch(c -> "warmup".equals(c.at("name")));
        }
    }

    @Test
    void theDisruptionBudgetCoversEveryPodOfAGroupButNotTheLauncher() {
        for (String lws : List.of("true", "false")) {
            RenderedManifest m = ChartUnderTest.render(LWS, Map.of("podDisruptionBudget.enabled", "true",
                    "multiNode.leaderWorkerSet.enabled", lws));
            KubeObject pdb = m.one("PodDisruptionBudget");
            @SuppressWarnings("unchecked")
            Map<String, Object> matchLabels = (Map<String, Object>) pdb.at("spec.selector.matchLabels");
            List<?> components = (List<?>) pdb.at("spec.selector.matchExpressions[0].values");
            assertThat(pdb.at("spec.selector.matchExpressions[0].key")).isEqualTo("app.kubernetes.io/component");
            for (PodTemplate t : PodTemplate.of(m)) {
                boolean covered = t.labels().entrySet().containsAll(matchLabels.entrySet())
                        && components.contains(t.labels().get("app.kubernetes.io/component"));
                assertThat(covered).as("%s (leaderWorkerSet.enabled=%s)", t, lws).isEqualTo(t.gpuPod());
            }
        }
    }

    private static Map<String, PodTemplate> byRole(RenderedManifest m) {
        Map<String, PodTemplate> byRole = new java.util.HashMap<>();
        PodTemplate.of(m).forEach(t -> byRole.put(t.role(), t));
        return byRole;
    }

    private static String sshKey(RenderedManifest m) {
        return (String) m.find("Secret", SSH_SECRET).orElseThrow().at("data[private.key]");
    }

    private static String decode(String base64) {
        return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
    }
}
