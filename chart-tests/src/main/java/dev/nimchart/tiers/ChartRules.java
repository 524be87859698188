package dev.nimchart.tiers;

import dev.nimchart.render.ChartRenderer;
import dev.nimchart.values.DeclaredPodSecurity;

import dev.nimchart.cluster.KubeApi;
import dev.nimchart.controllers.ExpectedPods;
import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.fuzz.FuzzScenario;
import dev.nimchart.objects.RenderedManifest;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Random;

/**
 * A chart's own rules, on top of the checks every chart gets: switched on with {@link dev.nimchart.ChartCheck#withRules(ChartRules)}.
 * Each hook fails by throwing (an {@link AssertionError}, e.g. from AssertJ); its message becomes the file's reason.
 * The defaults add nothing.
 */
public interface ChartRules {

    /** No rules beyond the generic checks. */
    ChartRules NONE = new ChartRules() {
    };

    /**
     * Offline tier: whether every rendered object must carry the standard labels of a Helm chart
     * ({@code app.kubernetes.io/name} the chart's name or nameOverride, {@code app.kubernetes.io/instance} the release,
     * {@code app.kubernetes.io/managed-by: Helm}, {@code helm.sh/chart}). Default: no, a chart opts in.
     */
    default boolean standardLabels() {
        return false;
    }

    /** The Pod Security levels a namespace can enforce. */
    java.util.List<String> POD_SECURITY_LEVELS = DeclaredPodSecurity.LEVELS;

    /**
     * No rules beyond the generic checks, every values file's namespace on the cluster tiers at this Pod Security level
     * ({@code privileged}, {@code baseline} or {@code restricted}) instead of the default {@code privileged}: a chart opts
     * in to the level its pods promise to meet. A file that declares its own level in its header
     * ({@code # pod-security: privileged (why)}, {@link DeclaredPodSecurity}) gets that one: the documented exceptions.
     */
    static ChartRules podSecurity(String level) {
        if (!POD_SECURITY_LEVELS.contains(level)) {
            throw new IllegalArgumentException("unknown Pod Security level '" + level + "': choose one of " + POD_SECURITY_LEVELS);
        }
        return new ChartRules() {
            @Override
            public String podSecurityLevel(Path valuesFile, Tier tier) {
                return DeclaredPodSecurity.of(valuesFile).orElse(level);
            }
        };
    }

    /**
     * Every tier, the {@code expect-error} rule: the template (its path under templates/, e.g.
     * {@code validate/preflight.yaml}) that every refusal by a rule of the chart must come from, so that a refusal is
     * the first and only error a user sees and the chart's rules are all in one place. Default: none, a {@code fail} or
     * {@code required} in any template or helper of the chart refuses as well.
     */
    default Optional<String> preflightTemplate() {
        return Optional.empty();
    }

    /**
     * Offline tier, the fuzz run: what fuzz document {@code n} starts from, before random keys of the schema and a
     * mistake are added, drawn from that document's own random stream (so the same seed gives the same documents): a
     * coherent deployment of the chart that random keys alone would rarely reach, and the traits the run counts among
     * the documents that rendered. Default: {@link FuzzScenario#NONE}, an empty document (the chart's values.yaml as it
     * is), nothing drawn; the documents then hold only keys of the chart's values.schema.json.
     */
    default FuzzScenario fuzzScenario(Random random) {
        return FuzzScenario.NONE;
    }

    /**
     * The Pod Security level (enforced, and warned at) of the namespace a values file is installed into on a tier.
     * Default: {@code privileged}, what a Kubernetes namespace without Pod Security labels admits, so a chart's pods
     * that need host namespaces or a root user by design (a node exporter's DaemonSet) are judged as a cluster would
     * run them; a chart opts in to a stricter level ({@link #podSecurity(String)}; nim-llm's rules choose
     * {@code restricted} or its documented exceptions). A values file that declares a level in its header
     * ({@code # pod-security: LEVEL}, {@link DeclaredPodSecurity}) gets that level here and with {@link #podSecurity(String)}.
     */
    default String podSecurityLevel(Path valuesFile, Tier tier) {
        return DeclaredPodSecurity.of(valuesFile).orElse("privileged");
    }

    /**
     * The name of the release a values file is rendered and installed as, on every tier. Default: short and unique
     * ({@link ChartRenderer#shortReleaseName(Path)}, as chart-testing gives each install a short random name), so a
     * long values file name cannot push the chart's object names past Kubernetes' 63 characters. A chart whose own
     * checks expect another name says so here (nim-llm's rules name the release after the file, as its tests do).
     */
    default String releaseName(Path valuesFile) {
        return ChartRenderer.shortReleaseName(valuesFile);
    }

    /** Whether a warning the API server returned for an object of this values file is expected (else it fails the file). */
    default boolean explainsWarning(Path valuesFile, String warning) {
        return false;
    }

    /** The number of pods the release must reach, Ready; by default what its workloads ask for. */
    default int expectedPods(Path valuesFile, RenderedManifest rendered) {
        return ExpectedPods.fromWorkloads(rendered);
    }

    /** API-server tier: the release is installed and what the server stored is read back. */
    default void installed(Installed release) {
    }

    /** Controller tier: the controllers reconciled the release to its desired state (before it is uninstalled). */
    default void reconciled(Reconciled release) {
    }

    /**
     * Start-up tier: whether this values file's pods are started on this machine (default: no; a chart opts in the
     * files whose containers' programs the start-up tier can stand in for).
     */
    default boolean startsUp(Path valuesFile) {
        return false;
    }

    /**
     * Start-up tier: how long a group gets to start (every rank joined, the server listening, a Ray cluster formed).
     * Default: empty, the reconcile timeout ({@link dev.nimchart.ChartCheck#withReconcileTimeout(java.time.Duration)}); nim-llm's rules
     * give the file's {@code multiNode.clusterStartTimeout}.
     */
    default Optional<java.time.Duration> startupTimeout(Path valuesFile) {
        return Optional.empty();
    }

    /**
     * Start-up tier: every pod's main process runs and every readiness probe passes (before the pods are stopped); the
     * library has checked how the group started ({@code dev.nimchart.tiers.startup.GroupStart}). The chart's own rules
     * about what each process was started with go here.
     */
    default void started(Started release) {
    }

    /** A release on the API-server tier, as the server stored it. */
    record Installed(Path valuesFile, String release, String namespace, KubeApi api, RenderedManifest rendered,
            RenderedManifest stored) {
    }

    /**
     * A release on the controller tier, reconciled: {@code state} is the namespace as the controllers left it, and
     * {@code alive} throws when a controller process has died.
     */
    record Reconciled(Path valuesFile, String release, String namespace, KubeApi api, RenderedManifest rendered,
            NamespaceState state, Runnable alive) {
    }

    /**
     * A release on the start-up tier: reconciled, and its pods' processes running on this machine; {@code servingPods}
     * the pods that serve the API (an LWS group's leader, an MPIJob's worker 0, every pod of a workload without groups),
     * and for a group that forms a Ray cluster, the nodes Ray's GCS reports, by group ({@code ip}, {@code alive},
     * {@code gpus}; empty otherwise).
     */
    record Started(Reconciled reconciled, dev.nimchart.startup.PodGroupRun run, java.util.List<dev.nimchart.objects.KubeObject> servingPods,
            java.util.Map<String, java.util.List<java.util.Map<String, Object>>> rayNodes) {
    }
}
