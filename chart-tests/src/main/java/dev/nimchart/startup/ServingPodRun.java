package dev.nimchart.startup;

import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.startup.PodGroupRun.PodRun;
import dev.nimchart.values.FileTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.json.JsonMapper;

/**
 * A single-node release's serving pod, run as the kubelet and runc run it: the Java side writes the pod's runtime plan
 * into a directory (a bundle: {@link PodGroupRun#prepare} writes the pod's plan and sandbox files, this class adds
 * check.json, the engine, the stand-in and {@code run}), and the start-up tier's one executor ({@value PodGroupRun#EXECUTOR})
 * runs it in a network namespace of its own with no route out: the pod's processes in its sandbox (its user and groups,
 * its read-only root filesystem, its emptyDirs as tmpfs of their sizeLimit, HOME as the runtime sets it from the image's
 * passwd entry), the chart's startup, readiness and liveness probes on the kubelet's schedule, the chart's
 * {@code helm test} command, an OpenAI chat completion, and every directory the pod wrote.
 *
 * <p>The bundle's {@code run} needs only bash, python3 and util-linux, as root: the GPU check ({@code ci/gpu-check.sh
 * --bundle}) carries it to a GPU host without Java or a network, where it runs the GPU engine with the host's PyTorch;
 * ServingPodIT runs the same executor here with the stand-in. No cluster runs: the pod is made from the workload's
 * template as its controller would make it (name, hostname, claims), its Secrets stand in with placeholder values, and
 * the chart's Service is reached the way kube-proxy forwards it (its port to the pod's target port).
 */
public final class ServingPodRun {

    /** The pod's address (the start-up tier's 198.18.0.0/17). */
    static final String POD_IP = "198.18.0.2";
    /** The bundle's command on the GPU host. */
    public static final String RUN = "run";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * What one run showed (the executor's result.json); {@code failure} is null when every check passed; {@code text}
     * is the report the executor printed.
     */
    public record Report(String pod, String mode, String gpu, String python, boolean started, Duration timeToReady, boolean live,
            boolean helmTest, String helmTestOutput, boolean chat, String chatReply, int completionTokens, Duration completionTime,
            Map<String, String> written, String home, List<String> routes, String log, String failure, String text) {

        public double tokensPerSecond() {
            return completionTime.isZero() ? 0 : completionTokens / (completionTime.toNanos() / 1e9);
        }

        public boolean passed() {
            return failure == null;
        }
    }

    private ServingPodRun() {
    }

    /**
     * Runs the serving pod of a rendered single-node release (rendered with its {@code helm test} pod as an ordinary
     * template) with the stand-in as the image's server until Ready or {@code readyLimit}, then the checks, and stops it:
     * the bundle written into {@code workDir} and run here by the executor, as {@code DIR/run --standin} runs it.
     */
    public static Report run(RenderedManifest manifest, Path workDir, Duration readyLimit) throws InterruptedException {
        bundle(manifest, workDir, null);
        return execute(workDir, List.of("--standin", "--ready-timeout", Long.toString(readyLimit.toSeconds())), Map.of(), List.of());
    }

    /**
     * Writes the bundle of the release's serving pod into {@code dir}: pod/ (the pod's plan and sandbox files, as
     * {@link PodGroupRun#prepare} writes them), check.json (the helm test command with the test pod's environment, the
     * port and model of the chat completion, the writable mounts to list), the executor, the GPU engine, the stand-in
     * and {@code run}. Returns {@code dir}.
     */
    public static Path bundle(RenderedManifest manifest, Path dir, String valuesName) {
        try {
            dir = dir.toAbsolutePath();
            KubeObject pod = servingPod(manifest);
            List<KubeObject> objects = new ArrayList<>(manifest.objects());
            objects.add(pod);
            objects.addAll(placeholderSecrets(manifest, pod));
            NamespaceState state = NamespaceState.of(pod.namespace(), objects);
            FileTrees.delete(dir);
            Files.createDirectories(dir);
            PodRun run = PodGroupRun.prepare(state, List.of(pod), dir.resolve("pod"), false).get(0);
            Files.writeString(run.dir().resolve("opt/nim/standin/served-model"), servedModelOf(manifest));
            KubeObject nim = PodGroupRun.nimContainer(pod);
            List<String> writable = new ArrayList<>();
            for (KubeObject m : nim.list("volumeMounts")) {
                if (!Boolean.TRUE.equals(m.at("readOnly"))) {
                    writable.add(m.at("mountPath").toString());
                }
            }
            Map<String, Object> check = new LinkedHashMap<>();
            check.put("root", dir.toString());
            check.put("pod", pod.name());
            check.put("values", valuesName);
            check.put("home", run.env().get("HOME"));
            check.put("standalone", true);
            check.put("helmTest", helmTest(manifest, pod));
            check.put("chatPort", containerPort(nim));
            check.put("model", servedModelOf(manifest));
            check.put("writableMounts", writable);
            Files.writeString(dir.resolve("check.json"), JSON.writeValueAsString(check));
            for (String file : List.of(PodExecutor.EXECUTOR, "gpu-engine.py", "nim-standin.py")) {
                StartupResources.copy(file, dir.resolve(file));
            }
            StartupResources.executable("gpu-check-run.sh", dir.resolve(RUN));
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Runs a bundle's {@code run} with these arguments and extra environment (nothing else of this JVM's environment but
     * PATH's system directories), {@code wrap} (e.g. a mount namespace of the caller's) before it; reads its result.json.
     */
    public static Report execute(Path dir, List<String> args, Map<String, String> env, List<String> wrap) throws InterruptedException {
        List<String> command = new ArrayList<>(wrap);
        command.addAll(List.of("env", "-i", "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"));
        env.forEach((k, v) -> command.add(k + "=" + v));
        command.add(dir.resolve(RUN).toString());
        command.addAll(args);
        try {
            Files.deleteIfExists(dir.resolve("result.json"));
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String text = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            p.waitFor();
            if (!Files.exists(dir.resolve("result.json"))) {
                throw new IllegalStateException("the bundle's run wrote no result.json (exit " + p.exitValue() + "):\n" + text);
            }
            return report(JSON.readValue(Files.readString(dir.resolve("result.json")), Map.class), text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Report report(Map<String, Object> r, String text) {
        Map<String, Object> startup = (Map<String, Object>) r.getOrDefault("startup", Map.of());
        Map<String, Object> chat = (Map<String, Object>) r.getOrDefault("chat", Map.of());
        Map<String, String> written = new LinkedHashMap<>();
        ((Map<String, List<Number>>) r.getOrDefault("written", Map.of())).forEach((d, nb) ->
                written.put(d, nb.get(0).longValue() + " files, " + nb.get(1).longValue() + " bytes"));
        List<String> routes = new ArrayList<>();
        ((List<Map<String, Object>>) r.getOrDefault("routes", List.of())).forEach(x -> routes.add(x.get("destination") + " via " + x.get("interface")));
        Object ready = r.get("timeToReadySeconds");
        return new Report(String.valueOf(r.get("pod")), String.valueOf(r.get("mode")), String.valueOf(r.get("gpu")), (String) r.get("python"),
                Boolean.TRUE.equals(startup.get("started")), ready == null ? null : Duration.ofMillis((long) (((Number) ready).doubleValue() * 1000)),
                Boolean.TRUE.equals(r.get("live")), Boolean.TRUE.equals(r.get("helmTest")), String.valueOf(r.getOrDefault("helmTestOutput", "")),
                Boolean.TRUE.equals(chat.get("ok")), String.valueOf(chat.getOrDefault("reply", "")),
                ((Number) chat.getOrDefault("tokens", 0)).intValue(),
                Duration.ofMillis((long) (((Number) chat.getOrDefault("seconds", 0)).doubleValue() * 1000)), written,
                String.valueOf(r.get("home")), routes, String.valueOf(r.getOrDefault("log", "")), (String) r.get("failure"), text);
    }

    /**
     * The pod the release's StatefulSet or Deployment makes: its template with the controller's name, the StatefulSet's
     * hostname, subdomain and per-pod claims, and an address.
     */
    @SuppressWarnings("unchecked")
    static KubeObject servingPod(RenderedManifest manifest) {
        List<KubeObject> workloads = new ArrayList<>(manifest.ofKind("StatefulSet"));
        workloads.addAll(manifest.ofKind("Deployment"));
        if (workloads.size() != 1 || !manifest.ofKind("LeaderWorkerSet").isEmpty() || !manifest.ofKind("MPIJob").isEmpty()) {
            throw new IllegalArgumentException("the serving pod check runs a single-node release (one StatefulSet or Deployment); this one"
                    + " renders " + workloads.size() + " of them, " + manifest.ofKind("LeaderWorkerSet").size() + " LeaderWorkerSet(s) and "
                    + manifest.ofKind("MPIJob").size() + " MPIJob(s): give it a single-node values file");
        }
        KubeObject workload = workloads.get(0);
        Map<String, Object> template = copy((Map<String, Object>) workload.at("spec.template"));
        Map<String, Object> metadata = (Map<String, Object>) template.computeIfAbsent("metadata", k -> new LinkedHashMap<>());
        Map<String, Object> spec = (Map<String, Object>) template.get("spec");
        boolean statefulSet = workload.kind().equals("StatefulSet");
        String name = statefulSet ? workload.name() + "-0" : workload.name() + "-check";
        metadata.put("name", name);
        // A chart's templates may leave the namespace to Helm: the release's namespace is then the one it installs into.
        metadata.put("namespace", workload.namespace() != null ? workload.namespace() : "default");
        if (statefulSet) {
            spec.put("hostname", name);
            spec.put("subdomain", workload.at("spec.serviceName"));
            List<Object> volumes = (List<Object>) spec.computeIfAbsent("volumes", k -> new ArrayList<>());
            for (KubeObject claim : workload.list("spec.volumeClaimTemplates")) {
                volumes.add(Map.of("name", claim.name(), "persistentVolumeClaim", Map.of("claimName", claim.name() + "-" + name)));
            }
        }
        return KubeObject.pod(metadata, spec, Map.of("phase", "Running", "podIP", POD_IP));
    }

    /** A Secret with a placeholder value for every secretKeyRef of the pod that the release does not render itself. */
    private static List<KubeObject> placeholderSecrets(RenderedManifest manifest, KubeObject pod) {
        Map<String, Map<String, Object>> secrets = new TreeMap<>();
        for (KubeObject container : pod.list("spec.containers")) {
            for (KubeObject e : container.list("env")) {
                Object name = e.at("valueFrom.secretKeyRef.name");
                if (name != null && manifest.find("Secret", name.toString()).isEmpty()) {
                    Map<String, Object> data = (Map<String, Object>) secrets.computeIfAbsent(name.toString(), n -> new LinkedHashMap<>());
                    String value = "placeholder-" + e.at("valueFrom.secretKeyRef.key");
                    data.put(e.at("valueFrom.secretKeyRef.key").toString(), Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)));
                }
            }
        }
        List<KubeObject> out = new ArrayList<>();
        secrets.forEach((name, data) -> out.add(new KubeObject(Map.of("apiVersion", "v1", "kind", "Secret",
                "metadata", Map.of("name", name, "namespace", pod.namespace()), "data", data))));
        return out;
    }

    /** The model the release serves, as the chart's {@code helm test} pod looks for it (model.name, as JSON). */
    static String servedModelOf(RenderedManifest manifest) {
        KubeObject test = testContainer(manifest);
        for (KubeObject e : test.list("env")) {
            if ("NIM_MODEL_JSON".equals(e.at("name"))) {
                return JSON.readValue(e.at("value").toString(), String.class);
            }
        }
        throw new IllegalStateException("the helm test pod names no model (NIM_MODEL_JSON)");
    }

    private static KubeObject testContainer(RenderedManifest manifest) {
        return manifest.ofKind("Pod").stream().filter(p -> "test".equals(p.labels().get("app.kubernetes.io/component")))
                .map(p -> p.list("spec.containers").get(0)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("the manifest holds no helm test pod: render it with the test hook as an"
                        + " ordinary template (TestHookRenderer)"));
    }

    /**
     * The chart's {@code helm test} command and the test container's environment, as the executor runs it in the serving
     * pod's network namespace, the Service's name standing for its address: the Service's port forwarded to the pod's
     * target port, as kube-proxy does for a Service whose one endpoint is this pod.
     */
    private static Map<String, Object> helmTest(RenderedManifest manifest, KubeObject pod) {
        KubeObject test = testContainer(manifest);
        Map<String, String> env = new LinkedHashMap<>();
        for (KubeObject e : test.list("env")) {
            env.put(e.at("name").toString(), String.valueOf(e.at("value")));
        }
        String service = env.get("NIM_SERVICE");
        KubeObject svc = manifest.find("Service", service)
                .orElseThrow(() -> new IllegalStateException("the helm test pod dials Service " + service + ", which the release does not render"));
        int servicePort = Integer.parseInt(env.get("NIM_SERVICE_PORT"));
        KubeObject port = svc.list("spec.ports").stream().filter(p -> String.valueOf(servicePort).equals(String.valueOf(p.at("port"))))
                .findFirst().orElseThrow(() -> new IllegalStateException("Service " + service + " has no port " + servicePort));
        Object target = port.at("targetPort") == null ? servicePort : port.at("targetPort");
        env.put("NIM_SERVICE", POD_IP);
        env.put("NIM_SERVICE_PORT", Integer.toString(portNumber(PodGroupRun.nimContainer(pod), target)));
        return Map.of("env", env, "command", ContainerCommand.of(test));
    }

    private static int containerPort(KubeObject nim) {
        return nim.list("ports").stream().filter(p -> "http-openai".equals(p.at("name")) || "http".equals(p.at("name")))
                .map(p -> Integer.parseInt(p.at("containerPort").toString())).findFirst()
                .orElseGet(() -> Integer.parseInt(nim.list("ports").get(0).at("containerPort").toString()));
    }

    private static int portNumber(KubeObject container, Object port) {
        if (port instanceof Number n) {
            return n.intValue();
        }
        if (String.valueOf(port).matches("\\d+")) {
            return Integer.parseInt(port.toString());
        }
        return container.list("ports").stream().filter(p -> String.valueOf(port).equals(p.at("name")))
                .map(p -> Integer.parseInt(p.at("containerPort").toString())).findFirst()
                .orElseThrow(() -> new IllegalStateException("the nim container has no port named " + port));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> copy(Map<String, Object> map) {
        return JSON.readValue(JSON.writeValueAsString(map), Map.class);
    }
}
