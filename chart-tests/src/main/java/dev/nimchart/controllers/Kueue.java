package dev.nimchart.controllers;

import dev.nimchart.cluster.CrdInstaller;
import dev.nimchart.cluster.FreePort;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.cluster.LocalProcess;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * Kueue (v0.15.0, built by ci/build-controllers.sh) added to a running controller tier for the tests that need gang
 * admission and topology-aware placement, and taken away again after them, so the other tests' start and objects are
 * untouched: its CRDs (those upstream converts through its webhook do so by URL, under the tier's CA),
 * its process ({@link KueueProcess}), and its admission webhooks, registered by URL and limited to the namespaces
 * labelled {@link #manage(KubeApi, String) managed}. {@link #close()} removes the CRDs (and with them every Kueue
 * object), the webhooks, then stops the process.
 */
public final class Kueue implements AutoCloseable {

    /**
     * One Kueue on an environment at a time (its CRDs, namespace and webhooks are the cluster's): the name of the lock a
     * test that starts one holds, e.g. JUnit's {@code @ResourceLock(Kueue.ONE_AT_A_TIME)}.
     */
    public static final String ONE_AT_A_TIME = "dev.nimchart.controllers.Kueue";

    private static final Set<String> WORKLOAD_RESOURCES = Set.of("pods", "deployments", "statefulsets", "leaderworkersets", "mpijobs");
    /**
     * The CRDs whose two versions Kueue converts (its /convert answers for these; upstream's kustomize build also patches
     * resourceflavors, whose conversion v0.15.0 refuses: "not convertible"); the others are served in two versions of
     * one schema and convert with strategy None.
     */
    private static final Set<String> CONVERTED = Set.of("clusterqueues", "cohorts", "localqueues", "multikueueclusters", "workloads");

    private final KubeApi api;
    private final LocalProcess process;
    private final List<String> crds;
    private final List<String> webhookPaths;

    private Kueue(KubeApi api, LocalProcess process, List<String> crds, List<String> webhookPaths) {
        this.api = api;
        this.process = process;
        this.crds = crds;
        this.webhookPaths = webhookPaths;
    }

    /** Starts Kueue on the tier's own environment; returns once its webhooks answer. */
    public static Kueue start(ControllerEnvironment env) {
        env.requireStartedByHarness("starting Kueue");
        ControllerBinaries binaries = ControllerBinaries.ensureBuilt(env.settings(), line -> { });
        Path runDir = env.runDir().orElseThrow();
        KubeApi api = env.api();
        int port = FreePort.take();
        String caBundle;
        try {
            caBundle = Base64.getEncoder().encodeToString(Files.readAllBytes(runDir.resolve("pki/ca.crt")));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the tier's CA under " + runDir, e);
        }
        List<String> crds = new ArrayList<>();
        List<String> webhooks = new ArrayList<>();
        LocalProcess process = null;
        try {
            crds.addAll(CrdInstaller.install(api, convertingCrds(binaries.home("kueue").resolve("crds"), runDir.resolve("kueue-crds"),
                    "https://127.0.0.1:" + port + "/convert", caBundle)));
            KubeApi.require(api.post("/api/v1/namespaces", Map.of("apiVersion", "v1", "kind", "Namespace",
                    "metadata", Map.of("name", KueueProcess.NAMESPACE))), "create Kueue's namespace");
            process = KueueProcess.start(binaries, runDir, runDir.resolve("kubeconfig"), port);
            webhooks.addAll(register(api, binaries.home("kueue").resolve("webhook/manifests.yaml"), port, caBundle));
            awaitWebhooks(api, process);
            return new Kueue(api, process, crds, webhooks);
        } catch (RuntimeException e) {
            new Kueue(api, process, crds, webhooks).close();
            throw e;
        }
    }

    /** Labels the namespace so Kueue manages its workloads (the tier's namespaces are not managed otherwise). */
    public static void manage(KubeApi api, String namespace) {
        KubeApi.require(api.mergePatch("/api/v1/namespaces/" + namespace, Map.of("metadata", Map.of("labels",
                Map.of(KueueProcess.MANAGED_LABEL, KueueProcess.MANAGED_VALUE)))), "label namespace " + namespace + " for Kueue");
    }

    /** Fails with Kueue's log tail when its process has ended. */
    public void requireRunning() {
        process.requireAlive();
    }

    public Path log() {
        return process.log();
    }

    /** Kueue's CRDs, those of {@link #CONVERTED} converting through Kueue's /convert by URL. */
    @SuppressWarnings("unchecked")
    private static Path convertingCrds(Path from, Path to, String url, String caBundle) {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        Yaml yaml = new Yaml(options);
        try (var files = Files.list(from)) {
            Files.createDirectories(to);
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                Map<String, Object> crd = yaml.load(Files.readString(file));
                Map<String, Object> spec = (Map<String, Object>) crd.get("spec");
                if (CONVERTED.contains(String.valueOf(((Map<String, Object>) spec.get("names")).get("plural")))) {
                    spec.put("conversion", Map.of("strategy", "Webhook", "webhook", Map.of(
                            "clientConfig", Map.of("url", url, "caBundle", caBundle), "conversionReviewVersions", List.of("v1"))));
                }
                Files.writeString(to.resolve(file.getFileName()), yaml.dump(crd));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare Kueue's CRDs from " + from, e);
        }
        return to;
    }

    /**
     * Kueue's webhooks of its own kinds and of the integrations it runs with, called by URL; those of workloads only in
     * managed namespaces. The webhooks of integrations it does not run (Jobs, JobSets, ...) are left out: nothing would
     * answer them.
     */
    @SuppressWarnings("unchecked")
    private static List<String> register(KubeApi api, Path manifests, int port, String caBundle) {
        List<String> paths = new ArrayList<>();
        try {
            for (KubeObject config : RenderedManifest.parse(Files.readString(manifests)).objects()) {
                List<Map<String, Object>> webhooks = new ArrayList<>();
                for (KubeObject webhook : config.list("webhooks")) {
                    List<String> groups = new ArrayList<>();
                    List<String> resources = new ArrayList<>();
                    for (KubeObject rule : webhook.list("rules")) {
                        ((List<Object>) rule.at("apiGroups")).forEach(g -> groups.add(String.valueOf(g)));
                        ((List<Object>) rule.at("resources")).forEach(r -> resources.add(String.valueOf(r).replaceAll("/.*", "")));
                    }
                    boolean ownKind = groups.stream().allMatch(g -> g.equals("kueue.x-k8s.io"));
                    boolean workload = resources.stream().allMatch(WORKLOAD_RESOURCES::contains);
                    if (!ownKind && !workload) {
                        continue;
                    }
                    Map<String, Object> w = WebhooksByUrl.local(webhook.raw(), port, caBundle);
                    if (workload) {
                        w.put("namespaceSelector", Map.of("matchLabels", Map.of(KueueProcess.MANAGED_LABEL, KueueProcess.MANAGED_VALUE)));
                    }
                    webhooks.add(w);
                }
                paths.add(WebhooksByUrl.register(api, config, webhooks, "nim-chart-tests-kueue-"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read Kueue's webhook manifests " + manifests, e);
        }
        return paths;
    }

    /** Until a dry-run ResourceFlavor passes Kueue's own webhooks (the API server may call them before they are up). */
    private static void awaitWebhooks(KubeApi api, LocalProcess process) {
        Map<String, Object> flavor = Map.of("apiVersion", "kueue.x-k8s.io/v1beta2", "kind", "ResourceFlavor",
                "metadata", Map.of("name", "nim-chart-tests-webhook-probe"));
        dev.nimchart.cluster.Poll.upTo(java.time.Duration.ofSeconds(60)).checking(process::requireAlive)
                .until(() -> api.post("/apis/kueue.x-k8s.io/v1beta2/resourceflavors?dryRun=All", flavor), KubeApi.Response::ok)
                .orElseThrow(r -> new ControllerTierException("Kueue's webhooks did not answer within 60 s: " + r.message()));
    }

    /**
     * Removes Kueue's CRDs (and every Kueue object with them) while Kueue still runs, its webhooks, then stops it and
     * removes its namespace, waiting until it is gone.
     */
    @Override
    public void close() {
        List<String> problems = new ArrayList<>();
        for (String crd : crds) {
            api.delete("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + crd);
        }
        dev.nimchart.cluster.Poll.upTo(java.time.Duration.ofSeconds(60))
                .until(() -> crds.stream().filter(crd -> api.get("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + crd).ok()).toList(),
                        List::isEmpty)
                .last().forEach(crd -> problems.add("CRD " + crd + " still there after 60 s"));
        webhookPaths.forEach(api::delete);
        if (process != null) {
            process.close();
        }
        // The namespace is gone before close returns, so the next Kueue (another test's) can make it again.
        String namespace = "/api/v1/namespaces/" + KueueProcess.NAMESPACE;
        api.delete(namespace);
        if (!dev.nimchart.cluster.Poll.upTo(java.time.Duration.ofSeconds(60)).until(() -> !api.get(namespace).ok())) {
            problems.add("namespace " + KueueProcess.NAMESPACE + " still there after 60 s");
        }
        if (!problems.isEmpty()) {
            throw new ControllerTierException("Kueue did not go cleanly: " + problems);
        }
    }
}
