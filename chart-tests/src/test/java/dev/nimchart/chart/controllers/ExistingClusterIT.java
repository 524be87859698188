package dev.nimchart.chart.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.ChartCheck;
import dev.nimchart.tiers.Tier;
import dev.nimchart.Verdict;
import dev.nimchart.chart.repository.Examples;
import dev.nimchart.chart.repository.NimLlmRules;
import dev.nimchart.chart.repository.OwnEnvironment;
import dev.nimchart.cluster.ExistingCluster;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.sessions.ControllerSession;
import dev.nimchart.junit.ControllerTier;
import dev.nimchart.sessions.TierNamespaces;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.values.ExampleValuesFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The API-server and reconciled-state checks on a cluster the harness did not start, through the library's door
 * ({@code ChartCheck.withExistingCluster}): the controller tier's own environment stands in for a team's cluster, reached
 * only through the kubeconfig file it wrote (as {@code ci/local-cluster.sh up} prints it), so the checks know nothing
 * of its processes, fake nodes or stand-ins. Told it may create cluster-scoped objects, examples of each workload kind
 * pass both tiers and leave no namespace behind; told it may not, a release whose StorageClass the cluster lacks fails
 * naming it and the way on, one that needs nothing pass, and no cluster-scoped object but the checks' own namespaces
 * (deleted again) was created.
 */
@ExtendWith(ControllerTier.class)
class ExistingClusterIT {

    private static final Duration WAIT = ReconciledExampleIT.RECONCILE_TIMEOUT;
    /** The cluster-scoped kinds an administrator provides, which the checks must not create unless told they may. */
    private static final List<String> CLUSTER_SCOPED = List.of("/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
            "/apis/storage.k8s.io/v1/storageclasses", "/api/v1/persistentvolumes", "/apis/scheduling.k8s.io/v1/priorityclasses",
            "/apis/node.k8s.io/v1/runtimeclasses");

    @Test
    void examplesOfEveryWorkloadPassBothTiersWhenTheChecksMayProvideWhatTheyNeed(ControllerSession session, @TempDir Path dir)
            throws IOException {
        Path values = Files.createDirectories(dir.resolve("values"));
        for (String name : List.of("single-node-minimal.yaml", "single-node-llama-70b-8gpu-pvc.yaml",
                "multi-node-llama-3.1-405b-lws.yaml", "multi-node-llama-3.1-405b-mpijob.yaml")) {
            // "ec-": releases and namespaces of their own, apart from ReconciledExampleIT's (whose namespaces may still be going)
            Files.copy(Examples.named(name), values.resolve("ec-" + name));
        }
        Path invalid = Files.createDirectories(values.resolve("invalid"));
        Path refused = dev.nimchart.chart.repository.Examples.files().invalid().get(0);
        Files.copy(refused, invalid.resolve("ec-" + refused.getFileName()));
        List<String> namespacesBefore = madeByTheChecks(session.environment().api());
        // the check owns its sessions on the existing cluster: closing it ends them and stops nothing of the cluster
        try (ChartCheck check = onlyThese(values).withExistingCluster(kubeconfig(session), ExistingCluster.Writes.CLUSTER).withReconcileTimeout(WAIT)) {
            for (Tier tier : List.of(Tier.API, Tier.CONTROLLERS)) {
                List<Verdict> verdicts = check.verdicts(tier);
                // four files that install, and on the API-server tier one refused
                assertThat(verdicts).as("%s verdicts on the existing cluster", tier.label()).hasSize(tier.checksRefusals() ? 5 : 4)
                        .allSatisfy(v -> assertThat(v.reason()).as("%s on the %s tier", v.subject(), tier.label()).isNull());
            }
        }
        session.environment().requireAllRunning();
        assertThat(madeByTheChecks(session.environment().api())).as("namespaces the checks left on the existing cluster")
                .isEqualTo(namespacesBefore);
    }

    @Test
    void withoutClusterScopedWritesAMissingStorageClassIsNamedAndNothingClusterScopedIsMade(ControllerSession session, @TempDir Path dir)
            throws IOException {
        KubeApi api = session.environment().api();
        Path values = Files.createDirectories(dir.resolve("values"));
        Files.copy(Examples.named("single-node-minimal.yaml"), values.resolve("needs-nothing.yaml"));
        Files.writeString(values.resolve("needs-a-class.yaml"), Files.readString(Examples.named("single-node-minimal.yaml"))
                + "persistence:\n  enabled: true\n  size: 10Gi\n  accessMode: ReadWriteOnce\n  storageClass: absent-class-of-existing-cluster-it\n");
        Map<String, TreeSet<String>> before = clusterScoped(api);
        List<String> namespacesBefore = madeByTheChecks(api);
        List<Verdict> verdicts;
        try (ChartCheck check = onlyThese(values).withExistingCluster(kubeconfig(session), ExistingCluster.Writes.NAMESPACED).withReconcileTimeout(WAIT)) {
            verdicts = check.verdicts(Tier.CONTROLLERS);
        }
        Map<String, String> byFile = verdicts.stream().collect(Collectors.toMap(v -> Path.of(v.subject()).getFileName().toString(),
                v -> String.valueOf(v.reason())));
        assertThat(byFile.get("needs-nothing.yaml")).as("a release that needs nothing of the administrator").isEqualTo("null");
        assertThat(byFile.get("needs-a-class.yaml")).as("a release whose StorageClass the cluster lacks")
                .contains("StorageClass absent-class-of-existing-cluster-it").contains("-Dnim.cluster.writes=cluster");
        Map<String, TreeSet<String>> after = clusterScoped(api);
        after.forEach((kind, names) -> names.removeAll(before.get(kind)));
        assertThat(after).as("cluster-scoped objects of an administrator's kinds the checks created")
                .allSatisfy((kind, names) -> assertThat(names).as(kind).isEmpty());
        assertThat(madeByTheChecks(api)).as("namespaces the checks left on the existing cluster").isEqualTo(namespacesBefore);
    }

    /** The kubeconfig file the environment wrote: all the checks get of the cluster. */
    private static Path kubeconfig(ControllerSession session) {
        Path file = OwnEnvironment.required(session, "the tier's own cluster reached only through its kubeconfig file").runDir()
                .orElseThrow().resolve("kubeconfig");
        assertThat(file).as("the controller tier's kubeconfig file").isRegularFile();
        return file;
    }

    /** The repository's chart and rules on this values directory alone (no fuzz: the offline tier is not run here). */
    private static ChartCheck onlyThese(Path values) {
        return ChartCheck.of(ChartUnderTest.chartDir(), dev.nimchart.junit.RunSettings.get()).withValues(values).withRules(new NimLlmRules()).withFuzz(0, ChartCheck.DEFAULT_FUZZ_SEED);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, TreeSet<String>> clusterScoped(KubeApi api) {
        Map<String, TreeSet<String>> names = new java.util.TreeMap<>();
        for (String path : CLUSTER_SCOPED) {
            names.put(path, ((List<Object>) KubeApi.require(api.get(path), "list " + path).getOrDefault("items", List.of())).stream()
                    .map(o -> new KubeObject((Map<String, Object>) o).name()).collect(Collectors.toCollection(TreeSet::new)));
        }
        return names;
    }

    /** Namespaces the checks made that still exist and are not being deleted. */
    @SuppressWarnings("unchecked")
    private static List<String> madeByTheChecks(KubeApi api) {
        return ((List<Object>) KubeApi.require(api.get("/api/v1/namespaces?labelSelector=" + TierNamespaces.MADE_BY), "list namespaces")
                .getOrDefault("items", List.of())).stream().map(o -> new KubeObject((Map<String, Object>) o))
                .filter(n -> n.at("metadata.deletionTimestamp") == null).map(KubeObject::name).toList();
    }
}
