package dev.nimchart.startup;

import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.startup.PodGroupRun.PodRun;
import dev.nimchart.startup.PodGroupRun.Server;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.json.JsonMapper;

/**
 * A single-node release's serving pod, run on this machine as the kubelet and runc run it ({@link PodGroupRun}: its
 * user and groups, its read-only root filesystem, its emptyDirs as tmpfs of their sizeLimit, HOME as the runtime sets
 * it from the image's passwd entry), with a given program as the image's server; then the chart's startup, readiness
 * and liveness probes as the kubelet runs them, the chart's {@code helm test} command, and an OpenAI chat completion.
 *
 * <p>The GPU check ({@code ci/gpu-check.sh}) runs it with a real GPU engine; the start-up tier with the stand-in. No
 * cluster runs: the pod is made from the workload's template as its controller would make it (name, hostname, claims),
 * its Secrets stand in with placeholder values, and the chart's Service is reached the way kube-proxy forwards it (its
 * port to the pod's target port).
 */
public final class ServingPodRun {

    /** The pod's address (the start-up tier's 198.18.0.0/17). */
    static final String POD_IP = "198.18.0.2";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** What one run showed; {@code failure} is null when every check passed. */
    public record Report(String pod, boolean started, Duration timeToReady, boolean live, boolean helmTest, String helmTestOutput,
            boolean chat, String chatReply, int completionTokens, Duration completionTime, Map<String, String> written, String home,
            String log, String failure) {

        public double tokensPerSecond() {
            return completionTime.isZero() ? 0 : completionTokens / (completionTime.toNanos() / 1e9);
        }

        public boolean passed() {
            return failure == null;
        }

        /** The report as the GPU check prints it. */
        public String text() {
            StringBuilder out = new StringBuilder();
            out.append("pod ").append(pod).append(" (HOME ").append(home).append(")\n");
            out.append(String.format("  startup probe: %s%n", started ? "passed" : "FAILED"));
            out.append(String.format("  time to Ready: %s%n", timeToReady == null ? "never Ready" : String.format("%.1f s", timeToReady.toMillis() / 1000.0)));
            out.append(String.format("  liveness probe: %s%n", live ? "passed" : "FAILED"));
            out.append(String.format("  helm test: %s%n", helmTest ? "passed" : "FAILED " + helmTestOutput.strip()));
            out.append(String.format("  chat completion: %s%n", chat ? "passed (" + completionTokens + " tokens in "
                    + String.format("%.2f s, %.1f tokens/s): %s", completionTime.toMillis() / 1000.0, tokensPerSecond(), chatReply.strip())
                    : "FAILED " + chatReply.strip()));
            out.append("  written by the pod (directory: files, bytes):\n");
            if (written.isEmpty()) {
                out.append("    (nothing)\n");
            }
            written.forEach((dir, what) -> out.append("    ").append(dir).append(": ").append(what).append('\n'));
            if (failure != null) {
                out.append("FAILED: ").append(failure).append('\n');
                out.append("--- the server's log (last 4000 characters)\n").append(log.length() > 4000 ? log.substring(log.length() - 4000) : log)
                        .append('\n');
            }
            return out.toString();
        }
    }

    private ServingPodRun() {
    }

    /**
     * Runs the serving pod of a rendered single-node release (rendered with its {@code helm test} pod as an ordinary
     * template) until Ready or {@code readyLimit}, then the checks, and stops it.
     */
    public static Report run(RenderedManifest manifest, java.nio.file.Path workDir, Server server, Duration readyLimit)
            throws InterruptedException {
        KubeObject pod = servingPod(manifest);
        List<KubeObject> objects = new ArrayList<>(manifest.objects());
        objects.add(pod);
        objects.addAll(placeholderSecrets(manifest, pod));
        NamespaceState state = NamespaceState.of(pod.namespace(), objects);
        KubeObject nim = PodGroupRun.nimContainer(pod);
        long t0 = System.nanoTime();
        // The image serves the model the chart names (a model-specific NIM image has its model built in).
        Server image = server.servedModel() == null ? new Server(server.program(), servedModelOf(manifest)) : server;
        try (PodGroupRun group = PodGroupRun.start(state, List.of(pod), workDir, Map.of(), image, null)) {
            PodRun run = group.pods().get(0);
            String home = run.env().get("HOME");
            KubeletStartupProbe.Outcome startup = KubeletStartupProbe.run(group, run);
            if (!startup.started()) {
                return failed(pod, false, null, home, run, "the startup probe failed " + startup.runs() + " times (budget "
                        + startup.budget().toSeconds() + " s): the kubelet restarts the container");
            }
            Duration ready = null;
            long deadline = t0 + readyLimit.toNanos();
            while (System.nanoTime() < deadline && run.process().isAlive()) {
                if (group.readinessProbePasses(run)) {
                    ready = Duration.ofNanos(System.nanoTime() - t0);
                    break;
                }
                Thread.sleep(500);
            }
            if (ready == null) {
                return failed(pod, true, null, home, run, run.process().isAlive() ? "not Ready within " + readyLimit.toSeconds() + " s"
                        : "the server exited with " + run.process().exitValue() + " before it was Ready");
            }
            boolean live = group.probePasses(run, "livenessProbe");
            StartupHost.Result helmTest = helmTest(manifest, group, run);
            int port = containerPort(nim);
            Chat chat = chat(group, run, port, servedModelOf(manifest));
            Map<String, String> written = written(run);
            String failure = !live ? "the liveness probe failed" : helmTest.exit() != 0 ? "helm test failed: " + helmTest.output().strip()
                    : !chat.ok ? "the chat completion failed: " + chat.reply : null;
            return new Report(pod.name(), true, ready, live, helmTest.exit() == 0, helmTest.output(), chat.ok, chat.reply, chat.tokens, chat.time,
                    written, home, run.logText(), failure);
        }
    }

    private static Report failed(KubeObject pod, boolean started, Duration ready, String home, PodRun run, String why) {
        Map<String, String> written = run.process().isAlive() ? written(run) : Map.of();
        return new Report(pod.name(), started, ready, false, false, "", false, "", 0, Duration.ZERO, written, home, run.logText(), why);
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
        Map<String, Object> pod = new LinkedHashMap<>();
        pod.put("apiVersion", "v1");
        pod.put("kind", "Pod");
        pod.put("metadata", metadata);
        pod.put("spec", spec);
        pod.put("status", Map.of("phase", "Running", "podIP", POD_IP));
        return new KubeObject(pod);
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
     * The chart's {@code helm test} command, run with the test container's environment in the serving pod's network
     * namespace, the Service's name standing for its address: the Service's port forwarded to the pod's target port, as
     * kube-proxy does for a Service whose one endpoint is this pod.
     */
    private static StartupHost.Result helmTest(RenderedManifest manifest, PodGroupRun group, PodRun run) {
        KubeObject test = testContainer(manifest);
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", "/usr/local/bin:/usr/bin:/bin");
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
        env.put("NIM_SERVICE", run.ip());
        env.put("NIM_SERVICE_PORT", Integer.toString(portNumber(PodGroupRun.nimContainer(run.pod()), target)));
        List<String> command = new ArrayList<>(List.of("env", "-i"));
        env.forEach((k, v) -> command.add(k + "=" + v));
        command.addAll(PodGroupRun.containerCommand(test));
        return group.inNetwork(run, command, 120);
    }

    private record Chat(boolean ok, String reply, int tokens, Duration time) {
    }

    /** One OpenAI chat completion to the pod's server, timed on this side. */
    @SuppressWarnings("unchecked")
    private static Chat chat(PodGroupRun group, PodRun run, int port, String model) {
        String request = JSON.writeValueAsString(Map.of("model", model, "max_tokens", 32,
                "messages", List.of(Map.of("role", "user", "content", "Say hello to the cluster."))));
        long t0 = System.nanoTime();
        StartupHost.Result r = group.inNetwork(run, List.of("curl", "-sS", "--max-time", "300", "-w", "\n%{http_code}", "-H",
                "Content-Type: application/json", "--data-binary", request, "http://" + run.ip() + ":" + port + "/v1/chat/completions"), 320);
        Duration time = Duration.ofNanos(System.nanoTime() - t0);
        String out = r.output().strip();
        int split = out.lastIndexOf('\n');
        String status = split < 0 ? out : out.substring(split + 1);
        String body = split < 0 ? "" : out.substring(0, split);
        if (r.exit() != 0 || !status.equals("200")) {
            return new Chat(false, "HTTP " + status + ": " + body, 0, time);
        }
        try {
            Map<String, Object> answer = JSON.readValue(body, Map.class);
            List<Map<String, Object>> choices = (List<Map<String, Object>>) answer.get("choices");
            String content = String.valueOf(((Map<String, Object>) choices.get(0).get("message")).get("content"));
            int tokens = ((Number) ((Map<String, Object>) answer.get("usage")).get("completion_tokens")).intValue();
            return new Chat(!content.isBlank() && tokens > 0, content, tokens, time);
        } catch (RuntimeException e) {
            return new Chat(false, "not an OpenAI chat completion: " + body, 0, time);
        }
    }

    /** The files in the pod's writable mounts, by directory (up to three levels under each mount): count and bytes. */
    static Map<String, String> written(PodRun run) {
        List<String> dirs = new ArrayList<>();
        for (KubeObject m : PodGroupRun.nimContainer(run.pod()).list("volumeMounts")) {
            if (!Boolean.TRUE.equals(m.at("readOnly"))) {
                dirs.add(m.at("mountPath").toString());
            }
        }
        List<String> command = new ArrayList<>(List.of("nsenter", "-t", Long.toString(run.process().pid()), "-m", "--", "find"));
        command.addAll(dirs);
        command.addAll(List.of("-xdev", "-type", "f", "-printf", "%h\t%s\n"));
        StartupHost.Result r = StartupHost.run(command, 60);
        Map<String, long[]> byDir = new TreeMap<>();
        for (String line : r.output().split("\n")) {
            String[] f = line.split("\t");
            if (f.length == 2 && f[1].matches("\\d+")) {
                long[] sum = byDir.computeIfAbsent(f[0], k -> new long[2]);
                sum[0]++;
                sum[1] += Long.parseLong(f[1]);
            }
        }
        Map<String, String> out = new LinkedHashMap<>();
        byDir.forEach((dir, sum) -> out.put(dir, sum[0] + " files, " + sum[1] + " bytes"));
        return out;
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
