package dev.nimchart.chart.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.ChartReleases;
import dev.nimchart.chart.repository.Example;
import dev.nimchart.chart.repository.Examples;
import dev.nimchart.cluster.ClusterSession;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.cluster.NamespaceContents;
import dev.nimchart.cluster.ReleaseRecord;
import dev.nimchart.junit.ClusterTier;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.PodTemplate;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.render.Release;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A release's life on the cluster: install, upgrade with changed replicas, env and probe thresholds (no immutable
 * field may stand in the way), rollback, uninstall. The generated SSH key survives the upgrade and the rollback; a
 * claim annotated helm.sh/resource-policy: keep survives the uninstall and nothing else does.
 */
@ExtendWith(ClusterTier.class)
class ReleaseLifecycleIT {

    private static final String MARKER = "NIM_CHART_UPGRADE_MARKER";

    /** The seed's LeaderWorkerSet and MPIJob examples, and the single-node StatefulSet default. */
    static Stream<Path> lifecycleExamples() {
        return Stream.of("multi-node-llama-3.1-405b-lws.yaml", "multi-node-llama-3.1-405b-mpijob.yaml", "single-node-minimal.yaml")
                .map(Examples::named);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("lifecycleExamples")
    void upgradeRollbackAndUninstall(Path file, ClusterSession cluster, @TempDir Path tmp) throws IOException {
        Example e = Example.of(file);
        Release first = ChartReleases.of(cluster.restrictedNamespace("life-" + ChartUnderTest.releaseName(file)), file);
        String release = first.name();
        String namespace = first.namespace();
        KubeApi api = cluster.api();

        cluster.releases().install(first);
        Map<String, Object> sshKey = sshKeyData(api, namespace);
        boolean generatesKey = e.manifest.ofKind("Secret").stream().anyMatch(o -> o.name().endsWith("-ssh"));
        assertThat(sshKey != null).as("%s: the chart's SSH key Secret is stored when the chart makes one", e.name())
                .isEqualTo(generatesKey);
        boolean sglang = e.userEnv().containsKey("NIM_USE_SGLANG") && "1".equals(e.userEnv().get("NIM_USE_SGLANG").at("value"));
        if (e.mode().equals("leaderworkerset") && !e.text("multiNode.launchMode").equals("native") && !sglang) {
            assertThat(sshKey).as("%s: LeaderWorkerSet in mpi mode generates the SSH key", e.name()).isNotNull();
        }
        assertState(e, api, namespace, release, 1, e.integer("replicaCount"), false);

        Path upgrade = tmp.resolve("upgrade.yaml"); // JSON is YAML
        Files.writeString(upgrade, tools.jackson.databind.json.JsonMapper.shared().writeValueAsString(upgradeValues(e)));
        cluster.releases().upgrade(first.withMoreValues(upgrade));
        assertState(e, api, namespace, release, 2, e.integer("replicaCount") + 1, true);
        assertThat(sshKeyData(api, namespace)).as("%s: the SSH key after the upgrade", e.name()).isEqualTo(sshKey);

        cluster.releases().rollback(first, 1);
        assertState(e, api, namespace, release, 3, e.integer("replicaCount"), false);
        assertThat(sshKeyData(api, namespace)).as("%s: the SSH key after the rollback", e.name()).isEqualTo(sshKey);

        List<KubeObject> applied = ReleaseRecord.latest(api, namespace, release).objects().objects();
        Set<String> kept = applied.stream().filter(o -> "keep".equals(o.annotations().get("helm.sh/resource-policy")))
                .map(KubeObject::toString).collect(Collectors.toCollection(TreeSet::new));
        cluster.releases().uninstall(first);
        assertThat(NamespaceContents.settled(api, namespace, kept::equals))
                .as("%s: after uninstall only the objects marked keep remain", e.name()).isEqualTo(kept);
        if (e.flag("persistence.enabled") && "keep".equals(e.text("persistence.annotations[helm.sh/resource-policy]"))
                && !e.mode().equals("statefulset")) {
            assertThat(kept).as("%s: the cache claim is marked keep", e.name()).anyMatch(k -> k.startsWith("PersistentVolumeClaim/"));
        }
    }

    /** One more replica, one more env entry, and every enabled probe one failure more patient. */
    private static Map<String, Object> upgradeValues(Example e) {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("replicaCount", e.integer("replicaCount") + 1);
        List<Object> env = new ArrayList<>();
        e.userEnv().values().forEach(v -> env.add(v.raw()));
        env.add(Map.of("name", MARKER, "value", "upgraded"));
        values.put("env", env);
        for (String probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
            if (e.flag(probe + ".enabled")) {
                values.put(probe, Map.of("failureThreshold", e.integer(probe + ".failureThreshold") + 1));
            }
        }
        return values;
    }

    /** The release's revision and what its stored objects say of replicas, env and probes. */
    private static void assertState(Example e, KubeApi api, String namespace, String release, int revision, int replicas,
            boolean upgraded) {
        ReleaseRecord record = ReleaseRecord.latest(api, namespace, release);
        assertThat(record.revision()).as("%s: revision", e.name()).isEqualTo(revision);
        assertThat(record.status()).as("%s: status of revision %d", e.name(), revision).isEqualTo("deployed");
        List<KubeObject> stored = api.objectsIn(namespace).stream()
                .filter(o -> release.equals(o.labels().get("app.kubernetes.io/instance")))
                .filter(o -> o.list("metadata.ownerReferences").isEmpty()).toList();
        List<PodTemplate> templates = PodTemplate.of(RenderedManifest.of(stored));
        assertThat(servingGroups(templates)).as("%s: replicas at revision %d", e.name(), revision).isEqualTo(replicas);
        for (PodTemplate t : templates.stream().filter(PodTemplate::gpuPod).toList()) {
            assertThat(PodTemplate.env(t.nim()).containsKey(MARKER)).as("%s: %s has the upgrade's env entry", e.name(), t)
                    .isEqualTo(upgraded);
            if (List.of("server", "leader").contains(t.role())) {
                for (String probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
                    if (e.flag(probe + ".enabled")) {
                        assertThat(t.nim().at(probe + ".failureThreshold")).as("%s: %s %s", e.name(), t, probe)
                                .isEqualTo(e.integer(probe + ".failureThreshold") + (upgraded ? 1 : 0));
                    }
                }
            }
        }
    }

    /** Serving replicas: single-node pods, LeaderWorkerSet groups, MPIJobs. */
    private static int servingGroups(List<PodTemplate> templates) {
        return templates.stream().mapToInt(t -> switch (t.role()) {
            case "server", "leader" -> t.pods();
            case "launcher" -> 1;
            default -> 0;
        }).sum();
    }

    /**
     * The data of the chart's SSH key Secret (one Helm made: an mpi-operator on the cluster makes {@code <MPIJob>-ssh}
     * Secrets of its own, owned by their MPIJob), or null when there is none.
     */
    private static Map<String, Object> sshKeyData(KubeApi api, String namespace) {
        return api.objectsIn(namespace).stream().filter(o -> o.kind().equals("Secret") && o.name().endsWith("-ssh")
                        && o.annotations().containsKey("meta.helm.sh/release-name"))
                .findFirst().map(o -> o.raw()).map(raw -> {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> data = (Map<String, Object>) raw.get("data");
                    return data;
                }).orElse(null);
    }
}
