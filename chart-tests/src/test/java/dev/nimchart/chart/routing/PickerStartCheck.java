package dev.nimchart.chart.routing;

import dev.nimchart.cluster.KubeApi;
import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The real endpoint picker as a validator of a rendering (issue 39): the release's picker objects the picker reads (its
 * ServiceAccount, Role, RoleBinding, ConfigMap, the InferencePool and the InferenceObjective) created for real in the
 * namespace, then the picker started from its Deployment's pod template as its pod would start ({@link EndpointPickerRun}:
 * the rendered arguments, its ConfigMap's files where its mounts put them, its environment, its ServiceAccount's token),
 * and asked, as the kubelet's probes ask, on the port and with the service names of its rendered readiness and liveness
 * probes, until both answer SERVING. A picker that exits, or that does not answer SERVING within the wait, is a refusal
 * (with its log's last lines). What it does not judge: which pod the picker picks (EndpointPickerIT does), the
 * ext-proc port's reachability through its Service (the rules keep the ports the chart's).
 * <p>
 * Starting a picker costs seconds, so verdicts are kept by the picker's setup (its arguments, config, probes, Role and
 * objective with the release's name taken out): a document whose picker is set up like an earlier one's gets that
 * verdict without a start. {@link #starts()} counts the pickers started; {@link #judged()} the renderings judged;
 * {@link #unjudged()} those of a new setup met once the run's starts were spent.
 */
public final class PickerStartCheck {

    private static final List<String> PICKER_KINDS = List.of("ServiceAccount", "Role", "RoleBinding", "ConfigMap");

    private final KubeApi api;
    private final String kubeConfigYaml;
    private final String namespace;
    private final Path epp;
    private final Path workDir;
    private final Duration wait;
    private final Map<String, Optional<String>> verdicts = new ConcurrentHashMap<>();
    private final int maxStarts;
    private int starts;
    private int judged;
    private int unjudged;

    /**
     * @param epp the picker binary ({@link EndpointPickerIT#requirePickerHost()})
     * @param wait how long a started picker gets to answer SERVING to both probes
     * @param maxStarts pickers started at most; a rendering of a new setup after that is not judged (counted)
     */
    public PickerStartCheck(KubeApi api, String kubeConfigYaml, String namespace, Path epp, Path workDir, Duration wait, int maxStarts) {
        this.maxStarts = maxStarts;
        this.api = api;
        this.kubeConfigYaml = kubeConfigYaml;
        this.namespace = namespace;
        this.epp = epp;
        this.workDir = workDir;
        this.wait = wait;
    }

    /** The picker binary where this host can run it, else null (with CI=true: a failure, as EndpointPickerIT). */
    public static Path binaryOrNull() {
        try {
            return EndpointPickerIT.requirePickerHost();
        } catch (org.opentest4j.TestAbortedException e) {
            return null;
        }
    }

    /** Whether the rendering has an endpoint picker (a Deployment of the endpoint-picker component). */
    public static boolean hasPicker(RenderedManifest manifest) {
        return picker(manifest).isPresent();
    }

    /** True when judging the rendering would need a picker start and the run's starts are spent (its verdict is unknown). */
    public synchronized boolean beyondStartBudget(RenderedManifest manifest) {
        Optional<KubeObject> deployment = picker(manifest);
        if (deployment.isEmpty() || starts < maxStarts) {
            return false;
        }
        String release = String.valueOf(deployment.get().labels().get("app.kubernetes.io/instance"));
        return verdicts.get(setup(manifest, deployment.get(), release)) == null;
    }

    /** The picker's refusal of the rendering (it exited, or never answered SERVING), or empty when it starts and serves. */
    public synchronized Optional<String> refusal(RenderedManifest manifest) {
        Optional<KubeObject> deployment = picker(manifest);
        if (deployment.isEmpty()) {
            return Optional.empty();
        }
        String release = String.valueOf(deployment.get().labels().get("app.kubernetes.io/instance"));
        String setup = setup(manifest, deployment.get(), release);
        Optional<String> known = verdicts.get(setup);
        if (known != null) {
            judged++;
            return known;
        }
        if (starts >= maxStarts) {
            unjudged++;
            return Optional.empty();
        }
        judged++;
        Optional<String> verdict = start(manifest, deployment.get());
        verdicts.put(setup, verdict);
        return verdict;
    }

    public synchronized int starts() {
        return starts;
    }

    public synchronized int judged() {
        return judged;
    }

    /** Renderings of a setup not seen before, met after {@code maxStarts} pickers had been started: not judged. */
    public synchronized int unjudged() {
        return unjudged;
    }

    private Optional<String> start(RenderedManifest manifest, KubeObject deployment) {
        List<String> created = new ArrayList<>();
        try {
            for (KubeObject o : manifest.objects()) {
                boolean pickers = PICKER_KINDS.contains(o.kind()) && o.name().equals(deployment.name());
                // An InferenceObjective of a group this cluster serves no CRD of (llm-d.ai's) the picker would not read here either.
                boolean objective = o.kind().equals("InferenceObjective") && api.serves(o.apiVersion(), o.kind());
                if (pickers || o.kind().equals("InferencePool") || objective) {
                    KubeApi.Response r = api.create(withoutNamespace(o), namespace, false);
                    if (r.ok()) {
                        created.add(api.resource(o.apiVersion(), o.kind()).collectionPath(namespace) + "/" + o.name());
                    } else if (r.code() != 409 && !o.kind().equals("InferenceObjective")) {
                        // The API server refused it (its dry run has said so already): the picker is not judged.
                        return Optional.empty();
                    }
                }
            }
            KubeObject pod = pod(deployment);
            KubeObject container = pod.list("spec.containers").get(0);
            Object target = manifest.ofKind("InferencePool").stream().findFirst().map(p -> p.at("spec.targetPorts[0].number")).orElse(8000);
            starts++;
            Path dir = workDir.resolve("picker-" + starts);
            try (EndpointPickerRun run = EndpointPickerRun.start(epp, dir, api, kubeConfigYaml, NamespaceState.of(namespace, manifest.objects()),
                    pod, List.of(), Integer.parseInt(String.valueOf(target)), EndpointPickerRun.ExportedNames.NIM_1)) {
                String readiness = probeService(container, "readinessProbe");
                String liveness = probeService(container, "livenessProbe");
                // Each round: null once the picker exited, else what its two probes answered.
                dev.nimchart.cluster.Poll.Result<List<String>> seen = dev.nimchart.cluster.Poll.upTo(wait).every(250)
                        .until(() -> run.alive() ? List.of(run.health(readiness), run.health(liveness)) : null,
                                answers -> answers == null || answers.equals(List.of("SERVING", "SERVING")));
                if (seen.last() == null) {
                    return Optional.of("the endpoint picker exited at start; its log ends: " + lastLines(run.log(), 3));
                }
                if (seen.held()) {
                    return Optional.empty();
                }
                return Optional.of("the endpoint picker did not answer SERVING within " + wait.toSeconds() + " s to its readiness probe (service \""
                        + readiness + "\": " + seen.last().get(0) + ") and liveness probe (service \"" + liveness + "\": " + seen.last().get(1)
                        + "); its log ends: " + lastLines(run.log(), 3));
            }
        } finally {
            created.forEach(api::delete);
        }
    }

    /** The service name a probe of the container asks for ("" when none, as the kubelet sends). */
    private static String probeService(KubeObject container, String probe) {
        Object service = container.at(probe + ".grpc.service");
        return service == null ? "" : String.valueOf(service);
    }

    private static Optional<KubeObject> picker(RenderedManifest manifest) {
        return manifest.ofKind("Deployment").stream()
                .filter(d -> "endpoint-picker".equals(d.labels().get("app.kubernetes.io/component"))).findFirst();
    }

    /** What decides the picker's start, with the release's name taken out (so two documents compare). */
    private static String setup(RenderedManifest manifest, KubeObject deployment, String release) {
        StringBuilder out = new StringBuilder();
        out.append(deployment.at("spec.template.spec")).append('\n');
        for (KubeObject o : manifest.objects()) {
            if ((PICKER_KINDS.contains(o.kind()) && o.name().equals(deployment.name())) || o.kind().equals("InferenceObjective")) {
                out.append(o.kind()).append(o.raw().get("rules")).append(o.raw().get("data")).append(o.raw().get("apiVersion")).append('\n');
            }
        }
        return release.isEmpty() ? out.toString() : out.toString().replace(release, "RELEASE");
    }

    /** The Deployment's pod as its ReplicaSet would create it (a name, the namespace). */
    @SuppressWarnings("unchecked")
    private KubeObject pod(KubeObject deployment) {
        Map<String, Object> template = (Map<String, Object>) deployment.at("spec.template");
        Map<String, Object> meta = new LinkedHashMap<>((Map<String, Object>) template.getOrDefault("metadata", Map.of()));
        meta.put("name", deployment.name() + "-agreement");
        meta.put("namespace", namespace);
        return KubeObject.pod(meta, template.get("spec"), null);
    }

    @SuppressWarnings("unchecked")
    private static KubeObject withoutNamespace(KubeObject o) {
        Map<String, Object> raw = new LinkedHashMap<>(o.raw());
        if (raw.get("metadata") instanceof Map<?, ?> m) {
            Map<String, Object> meta = new LinkedHashMap<>((Map<String, Object>) m);
            meta.remove("namespace");
            raw.put("metadata", meta);
        }
        return new KubeObject(raw);
    }

    /** The log's last lines that say something (errors first: the picker's last words before exiting). */
    static String lastLines(String log, int n) {
        List<String> lines = log.lines().filter(l -> !l.isBlank()).toList();
        List<String> errors = lines.stream().filter(l -> l.contains("\"level\":\"error\"") || l.startsWith("Error") || l.contains("exit")).toList();
        List<String> from = errors.isEmpty() ? lines : errors;
        return String.join(" | ", from.subList(Math.max(0, from.size() - n), from.size()));
    }
}
