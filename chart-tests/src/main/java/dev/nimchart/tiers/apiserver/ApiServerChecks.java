package dev.nimchart.tiers.apiserver;

import dev.nimchart.tiers.ChartRules;
import dev.nimchart.tiers.CheckOptions;
import dev.nimchart.tiers.Tier;
import dev.nimchart.tiers.TierCheck;
import dev.nimchart.sessions.TierSessions;

import dev.nimchart.cluster.ClusterSession;
import dev.nimchart.cluster.HelmReleases;
import dev.nimchart.cluster.CrdInstaller;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.cluster.NamespaceContents;
import dev.nimchart.cluster.ReleaseRecord;
import dev.nimchart.cluster.StoredObjectCheck;
import dev.nimchart.judge.RefusalRule;
import dev.nimchart.sessions.ClusterTierLifecycle;
import dev.nimchart.sessions.TierNamespaces;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartLayout;
import dev.nimchart.render.ChartRenderer;
import dev.nimchart.render.ChartYaml;
import dev.nimchart.render.Release;
import dev.nimchart.values.ExampleValuesFiles;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The API-server tier's checks of one values file: a file that must install passes a strict server-side dry run
 * object by object with no unexplained warning, installs with Helm (real release storage) into a namespace of its own,
 * and reads back as Helm applied it, the namespace holding the release's objects and no others; a file that must be
 * refused is refused by {@code helm install} with its expect-error text and leaves its namespace empty.
 */
public final class ApiServerChecks implements TierCheck {

    private final ChartRenderer renderer;
    private final TierSessions sessions;
    private final ChartRules rules;
    private final Path chartDir;
    private final boolean hooks;
    private final RefusalRule refusalRule;
    private ClusterSession cluster;
    private HelmReleases releases;

    /** The checks of the options' chart and rules on the sessions' API server, rendering with the options' settings. */
    public ApiServerChecks(CheckOptions options, TierSessions sessions) {
        this.chartDir = options.chartDir();
        this.hooks = ChartLayout.declaresHooks(chartDir);
        this.renderer = new ChartRenderer(chartDir, options.settings());
        this.sessions = sessions;
        this.rules = options.rules();
        this.refusalRule = new RefusalRule(ChartYaml.read(chartDir), rules.preflightTemplate());
    }

    /** The tier's cluster, from its owner (started on first use), and the Helm releases on it. */
    @Override
    public synchronized void start() {
        if (cluster == null) {
            ClusterSession started = sessions.apiServer().sessionOrThrow();
            releases = started.releases();
            cluster = started;
        }
    }

    @Override
    public void install(Path valuesFile) {
        start();
        mustInstall(valuesFile);
    }

    @Override
    public void refuse(Path valuesFile) {
        start();
        mustBeRefused(valuesFile);
    }

    private void mustInstall(Path file) {
        String name = rules.releaseName(file);
        KubeApi api = cluster.api();
        String level = rules.podSecurityLevel(file, Tier.API);
        String namespace = TierNamespaces.create(api, "install-" + name, level, level);
        Release release = Release.of(chartDir, name, namespace, List.of(file));
        try {
            install(file, release, level);
        } finally {
            cleanUpOnExistingCluster(release);
        }
    }

    private void install(Path file, Release release, String level) {
        KubeApi api = cluster.api();
        String namespace = release.namespace();
        long started = System.nanoTime();
        RenderedManifest rendered = renderer.render(release);
        chartCrdsServed(api);
        dryRunStrictly(file, namespace, level, rendered.objects(), "");
        if (hooks) {
            // no controller here would ever complete a hook's Job: the hooks are recorded, judged by a dry run below
            releases.installWithoutHooks(release);
        } else {
            releases.install(release);
        }
        ReleaseRecord record = ReleaseRecord.latest(api, namespace, release.name());
        dryRunStrictly(file, namespace, level, record.hookObjects().objects(), "hook ");
        if (record.revision() != 1 || !"deployed".equals(record.status())) {
            throw new AssertionError("the release record is revision " + record.revision() + ", " + record.status() + "; expected 1, deployed");
        }
        RenderedManifest applied = record.objects();
        if (!kindsAndNames(applied.objects()).equals(kindsAndNames(rendered.objects()))) {
            throw new AssertionError("Helm applied " + kindsAndNames(applied.objects()) + ", not what the chart renders: "
                    + kindsAndNames(rendered.objects()));
        }
        List<KubeObject> stored = new ArrayList<>();
        for (KubeObject o : applied.objects()) {
            Optional<KubeObject> back = api.read(o.apiVersion(), o.kind(), o.namespace() == null ? namespace : o.namespace(), o.name());
            if (back.isEmpty()) {
                throw new AssertionError(o + " is not stored");
            }
            List<String> differences = StoredObjectCheck.differences(o, back.get());
            if (!differences.isEmpty()) {
                throw new AssertionError(o + " is stored otherwise than Helm applied it: " + differences);
            }
            stored.add(back.get());
        }
        Set<String> expected = new TreeSet<>();
        applied.objects().stream().filter(o -> api.resource(o.apiVersion(), o.kind()).namespaced())
                .filter(o -> o.namespace() == null || o.namespace().equals(namespace)).forEach(o -> expected.add(o.toString()));
        ReleaseRecord.history(api, namespace, release.name())
                .forEach(r -> expected.add("Secret/sh.helm.release.v1." + release.name() + ".v" + r.revision()));
        Set<String> contents = NamespaceContents.of(api, namespace);
        if (!contents.equals(expected)) {
            throw new AssertionError("the namespace holds " + contents + ", not the release's objects " + expected);
        }
        ClusterTierLifecycle.record(cluster.settings(), "install + read back " + file.getFileName(), Duration.ofNanos(System.nanoTime() - started));
        rules.installed(new ChartRules.Installed(file, release.name(), namespace, api, rendered, RenderedManifest.of(stored)));
    }

    /** Every object passes a strict server-side dry run in the namespace with no warning the chart's rules do not explain. */
    private void dryRunStrictly(Path file, String namespace, String level, List<KubeObject> objects, String what) {
        List<String> warnings = new ArrayList<>();
        for (KubeObject o : objects) {
            KubeApi.Response dryRun = cluster.api().create(o, namespace, true);
            if (!dryRun.ok()) {
                throw new AssertionError("the API server refuses " + what + o + " (strict server-side dry run): " + dryRun.message());
            }
            dryRun.warnings().stream().filter(w -> !rules.explainsWarning(file, w)).forEach(w -> warnings.add(what + o + ": " + w));
        }
        if (!warnings.isEmpty()) {
            throw new AssertionError("the API server warns (namespace at Pod Security level " + level + "): " + warnings);
        }
    }

    /**
     * The CRDs the chart installs (its crds/ and its vendored subcharts'), as {@code helm install} would before the
     * release: created where the harness may write cluster-scoped objects, else required to be served already.
     */
    private void chartCrdsServed(KubeApi api) {
        for (Path dir : ChartLayout.crdDirs(chartDir)) {
            if (cluster.cluster().clusterScopedWrites()) {
                CrdInstaller.install(api, dir);
            } else if (CrdInstaller.served(api, dir).size() != CrdInstaller.names(dir).size()) {
                throw new AssertionError("the cluster serves only " + CrdInstaller.served(api, dir) + " of the chart's CRDs in " + dir + " "
                        + CrdInstaller.names(dir) + ": install them, or allow the harness cluster-scoped writes (--cluster-writes)");
            }
        }
    }

    private void mustBeRefused(Path file) {
        String name = rules.releaseName(file);
        String expected = ExampleValuesFiles.expectedError(file);
        String level = rules.podSecurityLevel(file, Tier.API);
        String namespace = TierNamespaces.create(cluster.api(), "refused-" + name, level, level);
        Release release = Release.of(chartDir, name, namespace, List.of(file));
        try {
            refusedIn(file, release, expected);
        } finally {
            cleanUpOnExistingCluster(release);
        }
    }

    private void refusedIn(Path file, Release release, String expected) {
        String message;
        try {
            releases.install(release);
            throw new AssertionError("helm install succeeded, but it must be refused with: " + expected);
        } catch (RuntimeException e) {
            message = String.valueOf(e.getMessage());
        }
        refusalRule.problem(file, message).ifPresent(problem -> {
            throw new AssertionError("helm install: " + problem);
        });
        Set<String> contents = NamespaceContents.of(cluster.api(), release.namespace());
        if (!contents.isEmpty()) {
            throw new AssertionError("the refused install left objects in its namespace: " + contents);
        }
    }

    /**
     * On a cluster the harness did not start, its controllers act on what the check installed (pods pull images, take
     * GPUs): the release is uninstalled and the namespace deleted, its pods awaited, before the next file. The tier's
     * own clusters are torn down whole at the end instead.
     */
    private void cleanUpOnExistingCluster(Release release) {
        if (cluster.cluster().startedByHarness()) {
            return;
        }
        try {
            releases.uninstall(release);
        } catch (RuntimeException e) {
            // a refused or failed install has no release to uninstall; the namespace goes below either way
        }
        TierNamespaces.deleteLeavingNoClaims(cluster.api(), release.namespace(), () -> { }, Duration.ofMinutes(10));
    }

    static Map<String, Long> kindsAndNames(List<KubeObject> objects) {
        return objects.stream().collect(Collectors.groupingBy(o -> o.kind() + "/" + o.name(), TreeMap::new, Collectors.counting()));
    }
}
