package dev.nimchart.chart.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.ReleaseNamespace;
import dev.nimchart.chart.repository.ChartCopy;
import dev.nimchart.chart.repository.ChartReleases;
import dev.nimchart.chart.repository.Examples;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.cluster.ReleaseRecord;
import dev.nimchart.controllers.ClusterPreconditions;
import dev.nimchart.controllers.ControllerEnvironment;
import dev.nimchart.controllers.DesiredState;
import dev.nimchart.controllers.InstalledRelease;
import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.sessions.ControllerSession;
import dev.nimchart.junit.ControllerTier;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.render.ChartUnderTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Upgrades that Kubernetes would refuse half way, or that would lose the model cache, on real controllers: each is
 * refused before anything changes (every live object keeps its resourceVersion, the release its revision) with a
 * message naming the key; the same change with persistence.abandonLiveCache: true goes ahead; the cache claims (and
 * their bound volumes) and the SSH key survive upgrades and rollbacks; a chart-version-only upgrade restarts no pod;
 * the Deployment's default rollout replaces pods on a cluster whose GPUs are all taken.
 */
@ExtendWith(ControllerTier.class)
public class UpgradeSafetyIT {

    private static final Path STATEFUL = Examples.named("single-node-llama-70b-8gpu-pvc.yaml");
    private static final Path LWS = Examples.named("multi-node-llama-3.1-405b-lws.yaml");
    private static final Path MPIJOB = Examples.named("multi-node-llama-3.1-405b-mpijob.yaml");
    private static final Path MINIMAL = Examples.named("single-node-minimal.yaml");
    private static final Duration STEADY = Duration.ofSeconds(5);

    @Test
    void statefulSetClaims(ControllerSession session, @TempDir Path tmp) throws IOException {
        try (ReleaseNamespace ns = ReleaseNamespace.named(session, STATEFUL, "upg-sts")) {
            InstalledRelease installed = session.install(ChartReleases.of(ns.namespace, STATEFUL));
            NamespaceState first = await(installed, 1);
            Map<String, String> claims = ReleaseKeepsakes.claims(first);
            assertThat(claims).as("the per-pod cache claim, bound").hasSize(1).allSatisfy((name, volume) -> assertThat(volume).isNotEmpty());

            refused(installed, tmp, STATEFUL, Map.of("persistence", Map.of("size", "400Gi")), "persistence.size is 400Gi",
                    "--cascade=orphan");
            refused(installed, tmp, STATEFUL, Map.of("persistence", Map.of("storageClass", ClusterPreconditions.DEFAULT_CLASS)),
                    "persistence.storageClass is \"standard\"", "new release name");
            refused(installed, tmp, STATEFUL, Map.of("persistence", Map.of("accessMode", "ReadWriteOncePod")),
                    "persistence.accessMode is ReadWriteOncePod", "--cascade=orphan");
            refused(installed, tmp, STATEFUL, Map.of("persistence", Map.of("enabled", false)),
                    "Kubernetes does not allow removing a StatefulSet's claim template", "persistence.abandonLiveCache: true");
            refused(installed, tmp, STATEFUL, Map.of("statefulSet", Map.of("enabled", false)),
                    "this upgrade replaces the live StatefulSet", "persistence.abandonLiveCache: true");
            refused(installed, tmp, STATEFUL, Map.of("nameOverride", "llama"),
                    "this upgrade replaces the live StatefulSet", "persistence.abandonLiveCache: true");
            refused(installed, tmp, STATEFUL, Map.of("fullnameOverride", "llama"),
                    "this upgrade replaces the live StatefulSet", "nameOverride, fullnameOverride");

            // A chart-version-only upgrade: no pod restarts.
            installed.upgrade(installed.release().ofChart(bumpedChart("sts")));
            assertNoPodReplaced(ns.env, ns.namespace, first, "the chart-version-only upgrade");
            // A real change: pods replaced, the claims and their volumes kept.
            Path changed = values(tmp, "env.yaml", Map.of("env", List.of(Map.of("name", "NIM_CHART_UPGRADE_MARKER", "value", "1"))));
            installed.upgrade(ChartReleases.of(ns.namespace, STATEFUL, changed));
            NamespaceState upgraded = awaitReplaced(ns.env, ns.namespace, 1, first);
            assertThat(ReleaseKeepsakes.claims(upgraded)).as("the cache claims after an upgrade that replaced the pods").isEqualTo(claims);
            installed.rollback(1);
            NamespaceState rolledBack = awaitReplaced(ns.env, ns.namespace, 1, upgraded);
            assertThat(ReleaseKeepsakes.claims(rolledBack)).as("the cache claims after the rollback").isEqualTo(claims);

            // Said explicitly, the switch to a Deployment goes ahead; the old claims stay (Retain), unused.
            Path optIn = values(tmp, "opt-in.yaml", Map.of("statefulSet", Map.of("enabled", false),
                    "persistence", Map.of("abandonLiveCache", true)));
            installed.upgrade(ChartReleases.of(ns.namespace, STATEFUL, optIn));
            NamespaceState switched = await(installed, 1);
            assertThat(switched.all("StatefulSet")).as("StatefulSets after the explicit switch").isEmpty();
            assertThat(switched.all("Deployment")).as("the Deployment after the explicit switch").hasSize(1);
            assertThat(ReleaseKeepsakes.claims(switched)).as("the old per-pod claims stay, with their volumes").containsAllEntriesOf(claims);
        }
    }

    @Test
    void leaderWorkerSetKeyAndSharedClaim(ControllerSession session, @TempDir Path tmp) throws IOException {
        try (ReleaseNamespace ns = ReleaseNamespace.named(session, LWS, "upg-lws")) {
            int pods = ns.example.integer("replicaCount") * ns.example.integer("multiNode.workers");
            InstalledRelease installed = session.install(ChartReleases.of(ns.namespace, LWS));
            NamespaceState first = await(installed, pods);
            Map<String, String> claims = ReleaseKeepsakes.claims(first);
            Object key = ReleaseKeepsakes.sshKey(first);
            assertThat(key).as("the generated SSH key").isNotNull();
            assertThat(claims).as("the shared cache claim, bound").hasSize(1);

            refused(installed, tmp, LWS, Map.of("persistence", Map.of("accessMode", "ReadOnlyMany")),
                    "persistence.accessMode is ReadOnlyMany", "existingClaim");
            refused(installed, tmp, LWS, Map.of("persistence", Map.of("size", "2000Gi")),
                    "persistence.size is 2000Gi", "kubectl patch pvc");
            refused(installed, tmp, LWS, Map.of("nameOverride", "llama"),
                    "no longer uses the live model cache claim", "persistence.abandonLiveCache: true");
            refused(installed, tmp, LWS, Map.of("multiNode", Map.of("leaderWorkerSet", Map.of("subGroupSize", 2))),
                    "multiNode.leaderWorkerSet.subGroupSize is 2, but the live LeaderWorkerSet", "kubectl delete leaderworkerset");

            installed.upgrade(installed.release().ofChart(bumpedChart("lws")));
            assertNoPodReplaced(ns.env, ns.namespace, first, "the chart-version-only upgrade");

            // Revision 3 uses a key of the user's: the generated key stays, unchanged; revision 4 uses it again.
            KubeApi.require(ns.api.post("/api/v1/namespaces/" + ns.namespace + "/secrets", Map.of("apiVersion", "v1", "kind", "Secret",
                    "metadata", Map.of("name", "team-mpi-key"), "data", key)), "create the user's key");
            Path own = values(tmp, "own-key.yaml", Map.of("multiNode", Map.of("existingSSHSecret", "team-mpi-key")));
            installed.upgrade(ChartReleases.of(ns.namespace, LWS, own));
            NamespaceState ownKey = awaitReplaced(ns.env, ns.namespace, pods, first);
            assertThat(ReleaseKeepsakes.sshKey(ownKey)).as("the generated key while a revision uses another").isEqualTo(key);
            installed.upgrade(ChartReleases.of(ns.namespace, LWS));
            NamespaceState back = awaitReplaced(ns.env, ns.namespace, pods, ownKey);
            assertThat(ReleaseKeepsakes.sshKey(back)).as("the generated key when a revision uses it again").isEqualTo(key);
            installed.rollback(3);
            NamespaceState rolledBack = awaitReplaced(ns.env, ns.namespace, pods, back);
            assertThat(ReleaseKeepsakes.sshKey(rolledBack)).as("the key after rolling back to revision 3").isEqualTo(key);
            installed.rollback(1);
            NamespaceState firstAgain = awaitReplaced(ns.env, ns.namespace, pods, rolledBack);
            assertThat(ReleaseKeepsakes.sshKey(firstAgain)).as("the key after rolling back to revision 1").isEqualTo(key);
            assertThat(ReleaseKeepsakes.claims(firstAgain)).as("the shared cache claim through upgrades and rollbacks").isEqualTo(claims);

            installed.uninstall();
            NamespaceState after = installed.awaitNoPods(Duration.ofSeconds(60));
            assertThat(ReleaseKeepsakes.sshKey(after)).as("the SSH key after uninstall").isNull();
            assertThat(ReleaseKeepsakes.claims(after)).as("the claim annotated helm.sh/resource-policy: keep after uninstall").isEqualTo(claims);
        }
    }

    @Test
    void mpiJobChartVersionOnlyUpgrade(ControllerSession session) {
        try (ReleaseNamespace ns = ReleaseNamespace.named(session, MPIJOB, "upg-mpi")) {
            InstalledRelease installed = session.install(ChartReleases.of(ns.namespace, MPIJOB));
            NamespaceState first = await(installed, ns.example.integer("replicaCount") * (ns.example.integer("multiNode.workers") + 1));
            List<String> jobs = first.all("MPIJob").stream().map(KubeObject::name).toList();
            installed.upgrade(installed.release().ofChart(bumpedChart("mpi")));
            NamespaceState after = assertNoPodReplaced(ns.env, ns.namespace, first, "the chart-version-only upgrade");
            assertThat(after.all("MPIJob").stream().map(KubeObject::name).toList()).as("MPIJob names").isEqualTo(jobs);
        }
    }

    /**
     * Three 8-GPU pods fill the three nodes of rack A: the default rollout replaces them one at a time; a surge (what
     * a Deployment does without the chart's strategy) would wait for a fourth node's GPUs and never finish.
     */
    @Test
    void deploymentRolloutOnFullGpus(ControllerSession session, @TempDir Path tmp) throws IOException {
        try (ReleaseNamespace ns = ReleaseNamespace.named(session, MINIMAL, "upg-deploy")) {
            Map<String, Object> full = new LinkedHashMap<>();
            full.put("statefulSet", Map.of("enabled", false));
            full.put("replicaCount", 3);
            full.put("resources", Map.of("limits", Map.of("nvidia.com/gpu", 8)));
            full.put("nodeSelector", Map.of("topology.kubernetes.io/rack", "rack-a"));
            Path fullRack = values(tmp, "full-rack.yaml", full);
            InstalledRelease installed = session.install(ChartReleases.of(ns.namespace, MINIMAL, fullRack));
            NamespaceState first = await(installed, 3);
            Path changed = values(tmp, "env.yaml", Map.of("env", List.of(Map.of("name", "NIM_CHART_UPGRADE_MARKER", "value", "1"))));
            installed.upgrade(ChartReleases.of(ns.namespace, MINIMAL, fullRack, changed));
            NamespaceState rolled = awaitReplaced(ns.env, ns.namespace, 3, first);
            assertThat(rolled.livePods()).as("pods after the default rollout").hasSize(3);

            Path surge = values(tmp, "surge.yaml", Map.of("strategy", Map.of("rollingUpdate", Map.of("maxSurge", 1, "maxUnavailable", 0)),
                    "env", List.of(Map.of("name", "NIM_CHART_UPGRADE_MARKER", "value", "2"))));
            installed.upgrade(ChartReleases.of(ns.namespace, MINIMAL, fullRack, surge));
            dev.nimchart.cluster.LocalProcess.sleep(Duration.ofSeconds(10).toMillis());
            NamespaceState stuck = NamespaceState.read(ns.api, ns.namespace);
            assertThat(stuck.pods().stream().filter(p -> "Pending".equals(p.at("status.phase"))).toList())
                    .as("with a surge, the new pod waits for GPUs no node has free").hasSize(1);
            assertThat(stuck.livePodUids()).as("and no old pod was replaced").containsAll(rolled.livePodUids());
        }
    }

    // ---- helpers

    /** The upgrade is refused naming the key, and the namespace and the release are as they were. */
    private static void refused(InstalledRelease installed, Path tmp, Path base, Map<String, Object> change, String names, String wayOut)
            throws IOException {
        KubeApi api = installed.api();
        String namespace = installed.namespace();
        String release = installed.name();
        Map<String, String> before = steadyVersions(api, namespace);
        int revision = ReleaseRecord.latest(api, namespace, release).revision();
        Path file = values(tmp, "refused-" + Math.abs(change.hashCode()) + ".yaml", change);
        Throwable refusal = installed.tryUpgrade(ChartReleases.of(namespace, base, file)).failure();
        assertThat(refusal).as("upgrade with %s", change).isNotNull();
        assertThat(refusal.getMessage()).as("upgrade with %s", change).contains("nim-llm: ").contains(names).contains(wayOut)
                .doesNotContain("nil pointer", "<no value>", "Forbidden", "field is immutable");
        assertThat(versions(api, namespace)).as("live objects after the refused upgrade with %s", change).isEqualTo(before);
        assertThat(ReleaseRecord.latest(api, namespace, release).revision()).as("revision after the refused upgrade with %s", change)
                .isEqualTo(revision);
    }

    /** resourceVersion of every object of the namespace but Events, once two reads a second apart agree. */
    private static Map<String, String> steadyVersions(KubeApi api, String namespace) {
        Map<String, String> last = versions(api, namespace);
        for (int i = 0; i < 20; i++) {
            dev.nimchart.cluster.LocalProcess.sleep(Duration.ofSeconds(1).toMillis());
            Map<String, String> now = versions(api, namespace);
            if (now.equals(last)) {
                return now;
            }
            last = now;
        }
        throw new AssertionError("the namespace " + namespace + " did not settle within 20 s");
    }

    private static Map<String, String> versions(KubeApi api, String namespace) {
        NamespaceState state = NamespaceState.read(api, namespace);
        Map<String, String> versions = new TreeMap<>();
        for (String kind : List.of("Pod", "Service", "PersistentVolumeClaim", "ConfigMap", "Secret", "StatefulSet", "Deployment",
                "LeaderWorkerSet", "MPIJob", "Job", "ReplicaSet", "PodDisruptionBudget", "NetworkPolicy")) {
            if (state.reads(kind)) {
                state.all(kind).forEach(o -> versions.put(kind + "/" + o.name(), String.valueOf(o.at("metadata.resourceVersion"))));
            }
        }
        return versions;
    }

    private static Path bumpedChart(String label) {
        Path copy = ChartCopy.of(ChartUnderTest.chartDir(), "upgrade-bump-" + label, p -> false);
        try {
            Path chartYaml = copy.resolve("Chart.yaml");
            Files.writeString(chartYaml, Files.readString(chartYaml).replaceFirst("(?m)^version:\\s*(\\S+)\\s*$", "version: $1-bump.1"));
        } catch (IOException ex) {
            throw new java.io.UncheckedIOException(ex);
        }
        return copy;
    }

    /** Waits a while and checks that the pods are still the same ones; returns the state then. */
    private static NamespaceState assertNoPodReplaced(ControllerEnvironment env, String namespace, NamespaceState before, String what) {
        dev.nimchart.cluster.LocalProcess.sleep(STEADY.toMillis());
        NamespaceState after = NamespaceState.read(env.api(), namespace);
        assertThat(after.livePodUids()).as("pod UIDs after %s", what).isEqualTo(before.livePodUids());
        assertThat(after.workloads().stream().filter(w -> w.list("metadata.ownerReferences").isEmpty()).toList())
                .as("the release's workloads after %s", what).isNotEmpty()
                .allSatisfy(w -> assertThat(String.valueOf(w.labels().get("helm.sh/chart"))).as("%s applied to %s", what, w.name()).endsWith("-bump.1"));
        return after;
    }

    private static NamespaceState await(InstalledRelease installed, int pods) {
        return installed.awaitReady(pods, ReconciledExampleIT.RECONCILE_TIMEOUT);
    }

    private static NamespaceState await(ControllerEnvironment env, String namespace, int pods) {
        return DesiredState.await(env.api(), namespace, pods, ReconciledExampleIT.RECONCILE_TIMEOUT, env::requireAllRunning);
    }

    /** Waits until the namespace has the desired pods and none of the given state's pods is among them. */
    private static NamespaceState awaitReplaced(ControllerEnvironment env, String namespace, int pods, NamespaceState before) {
        Set<String> old = before.livePodUids();
        return dev.nimchart.cluster.Poll.upTo(ReconciledExampleIT.RECONCILE_TIMEOUT).every(500)
                .until(() -> await(env, namespace, pods), state -> state.livePodUids().stream().noneMatch(old::contains))
                .orElseThrow(state -> new AssertionError("pods of " + namespace + " were not replaced within "
                        + ReconciledExampleIT.RECONCILE_TIMEOUT + ": " + DesiredState.describe(state)));
    }

    private static Path values(Path dir, String name, Map<String, Object> values) throws IOException {
        Path file = dir.resolve(name); // JSON is YAML
        Files.writeString(file, tools.jackson.databind.json.JsonMapper.shared().writeValueAsString(values));
        return file;
    }
}
