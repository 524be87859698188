package dev.nimchart.chart.routing;

import dev.nimchart.cluster.Poll;
import dev.nimchart.values.FileTrees;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.startup.KubeletEnv;
import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.objects.KubeObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.yaml.snakeyaml.Yaml;

/**
 * A real endpoint picker (GAIE's {@code cmd/epp} or {@code cmd/lwepp}, built by {@code ci/build-epp.sh}) run as its pod
 * would run it, with the pod's own container arguments and environment (as the kubelet expands it, on the live pod the
 * controllers made), its ConfigMap's files where its volume mounts put them (a path in an argument under a mount is
 * rewritten to the directory holding that mount's files), and the API credentials of its ServiceAccount (a token from
 * the TokenRequest API, so the chart's Role is what it can read), in a network namespace of its own. In that namespace
 * every given serving pod's IP (198.18.0.0/17, set by kwok on the pod) is an address of the loopback device, where a
 * stand-in of NIM's server answers {@code /v1/metrics} on the pool's target port with what the test writes ({@link
 * #metrics}). The namespace has no route anywhere: a bridge process (netns_bridge.py) listens on the API server's port
 * inside it and forwards to the API server on this machine's loopback, and listens on this machine's loopback for the
 * test's ext-proc calls and forwards them to the picker's gRPC port inside. Everything is removed by name and PID on
 * close.
 */
final class EndpointPickerRun implements AutoCloseable {

    private static final AtomicInteger RUNS = new AtomicInteger();

    private final String netns;
    private final Path dir;
    private final Path metricsDir;
    private final List<Process> processes = new ArrayList<>();
    private Process picker;
    private int extProcPort;
    private int healthPort;
    private boolean tls;

    /**
     * The names a NIM exports its queue, running requests and KV-cache use under, with the label it puts on them: NIM
     * 1.x its own, NIM 2.x and 3.x vLLM V1's (NIM passes vLLM's metrics through; {@code vllm:kv_cache_usage_perc}
     * since vLLM 0.9.2).
     */
    record ExportedNames(String waiting, String running, String kvCache, String label) {
        static final ExportedNames NIM_1 = new ExportedNames("num_requests_waiting", "num_requests_running", "gpu_cache_usage_perc",
                "{model_name=\"served\"}");
        static final ExportedNames VLLM = new ExportedNames("vllm:num_requests_waiting", "vllm:num_requests_running",
                "vllm:kv_cache_usage_perc", "{engine=\"0\",model_name=\"served\"}");
    }

    private final ExportedNames names;

    private EndpointPickerRun(String netns, Path dir, ExportedNames names) {
        this.names = names;
        this.netns = netns;
        this.dir = dir;
        this.metricsDir = dir.resolve("metrics");
    }

    /**
     * Starts stand-ins for {@code servingIps} on {@code targetPort}, answering idle metrics, and the picker of
     * {@code pickerPod} (its Deployment's container {@code epp}, its ConfigMaps from {@code state}).
     */
    static EndpointPickerRun start(Path epp, Path dir, KubeApi api, String kubeConfigYaml, NamespaceState state, KubeObject pickerPod,
            List<String> servingIps, int targetPort, ExportedNames names) {
        String name = "epp" + (ProcessHandle.current().pid() % 100000) + "x" + RUNS.incrementAndGet() % 100;
        EndpointPickerRun run = new EndpointPickerRun(name, dir.toAbsolutePath(), names);
        try {
            FileTrees.delete(run.dir);
            Files.createDirectories(run.metricsDir);
            must("ip", "netns", "add", name);
            must("ip", "-n", name, "link", "set", "lo", "up");
            for (String ip : servingIps) {
                if (!ip.startsWith("198.18.")) {
                    throw new IllegalStateException("pod IP " + ip + " is outside 198.18.0.0/15");
                }
                must("ip", "-n", name, "addr", "add", ip + "/32", "dev", "lo");
                run.metrics(ip, 0, 0, 0);
            }
            Path standins = resource("metrics_standins.py", run.dir);
            Path bridge = resource("netns_bridge.py", run.dir);
            List<String> standinCommand = new ArrayList<>(List.of("ip", "netns", "exec", name, "python3", standins.toString(),
                    run.metricsDir.toString(), Integer.toString(targetPort)));
            standinCommand.addAll(servingIps);
            Path standinOut = run.spawn(standinCommand, Map.of(), run.dir.resolve("standins.log"), true);
            awaitLine(standinOut, "ready", "the metrics stand-ins");

            KubeObject container = pickerPod.list("spec.containers").get(0);
            URI server = URI.create(server(kubeConfigYaml));
            int apiPort = server.getPort() < 0 ? 443 : server.getPort();
            int grpcPort = port(container, "grpc-ext-proc", 9002);
            // The port the kubelet's gRPC probes ask (the readiness probe's), forwarded too, for health().
            Object probePort = container.at("readinessProbe.grpc.port");
            int healthPort = probePort == null ? port(container, "grpc-health", 9003) : Integer.parseInt(String.valueOf(probePort));
            Path bridgeOut = run.spawn(List.of("python3", bridge.toString(), "/var/run/netns/" + name,
                    "ns:127.0.0.1:" + apiPort + ">host:" + server.getHost() + ":" + apiPort,
                    "host:127.0.0.1:0>ns:127.0.0.1:" + grpcPort, "host:127.0.0.1:0>ns:127.0.0.1:" + healthPort),
                    Map.of(), run.dir.resolve("bridge.log"), true);
            run.extProcPort = Integer.parseInt(awaitLine(bridgeOut, "listening 1 ", "the bridge's ext-proc listener").split(" ")[2]);
            run.healthPort = Integer.parseInt(awaitLine(bridgeOut, "listening 2 ", "the bridge's health listener").split(" ")[2]);
            awaitLine(bridgeOut, "ready", "the bridge");

            String serviceAccount = String.valueOf(pickerPod.at("spec.serviceAccountName"));
            Path kubeconfig = run.dir.resolve("picker.kubeconfig");
            Files.writeString(kubeconfig, tokenKubeConfig(kubeConfigYaml, token(api, pickerPod.namespace(), serviceAccount)));

            Map<String, String> env = new LinkedHashMap<>(KubeletEnv.of(pickerPod, container, state));
            env.put("KUBECONFIG", kubeconfig.toString());
            List<String> args = run.mountedArgs(container, pickerPod, state);
            run.tls = args.stream().noneMatch(a -> a.equals("--secure-serving=false"));
            List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", name, epp.toString()));
            command.addAll(args);
            Files.writeString(run.dir.resolve("picker.command"), String.join(" ", command) + "\n");
            run.spawn(command, env, run.dir.resolve("epp.log"), false);
            run.picker = run.processes.get(run.processes.size() - 1);
            return run;
        } catch (IOException | RuntimeException e) {
            run.close();
            throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
        }
    }

    /** Writes what the stand-in at {@code ip} answers on /v1/metrics, under the names its NIM exports ({@link ExportedNames}). */
    void metrics(String ip, double waiting, double running, double kvCacheUsage) {
        String text = String.format(Locale.ROOT, """
                # HELP %1$s Number of requests currently running.
                # TYPE %1$s gauge
                %1$s%4$s %5$.1f
                # HELP %2$s Number of requests waiting to be processed.
                # TYPE %2$s gauge
                %2$s%4$s %6$.1f
                # HELP %3$s KV-cache usage. 1 means 100 percent usage.
                # TYPE %3$s gauge
                %3$s%4$s %7$.3f
                """, names.running(), names.waiting(), names.kvCache(), names.label(), running, waiting, kvCacheUsage);
        try {
            Path tmp = metricsDir.resolve(ip + ".prom.tmp");
            Files.writeString(tmp, text);
            Files.move(tmp, metricsDir.resolve(ip + ".prom"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** How many times the picker scraped the stand-in at {@code ip}. */
    long scrapes(String ip) {
        try {
            Path f = metricsDir.resolve(ip + ".scrapes");
            return Files.isRegularFile(f) ? Files.size(f) : 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    ExtProcClient client() {
        return new ExtProcClient("127.0.0.1", extProcPort, tls);
    }

    boolean tls() {
        return tls;
    }

    /**
     * What the picker's gRPC health service answers for {@code service} on the port its readiness probe asks (a probe
     * of the kubelet: plain text), such as {@code SERVING}; a closed port or an exited picker gives the call's failure.
     */
    String health(String service) {
        return GrpcHealthClient.check(healthPort, service, Duration.ofSeconds(2));
    }

    boolean alive() {
        return picker != null && picker.isAlive();
    }

    void requireAlive() {
        if (picker != null && !picker.isAlive()) {
            throw new IllegalStateException("the endpoint picker exited (" + picker.exitValue() + "); its log:\n" + tail(log(), 6000));
        }
    }

    String log() {
        try {
            return Files.isRegularFile(dir.resolve("epp.log")) ? Files.readString(dir.resolve("epp.log")) : "";
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    static String tail(String text, int chars) {
        return text.length() <= chars ? text : "..." + text.substring(text.length() - chars);
    }

    @Override
    public void close() {
        for (int i = processes.size() - 1; i >= 0; i--) {
            Process p = processes.get(i);
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
            try {
                if (!p.waitFor(10, TimeUnit.SECONDS)) {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        run(List.of("ip", "netns", "del", netns));
    }

    /** The container's args with every path under one of its volume mounts moved to where this run wrote that volume's files. */
    private List<String> mountedArgs(KubeObject container, KubeObject pod, NamespaceState state) throws IOException {
        Map<String, Path> mounts = new LinkedHashMap<>();
        for (KubeObject mount : container.list("volumeMounts")) {
            String volumeName = String.valueOf(mount.at("name"));
            KubeObject volume = pod.list("spec.volumes").stream().filter(v -> volumeName.equals(v.at("name"))).findFirst().orElseThrow();
            Path target = dir.resolve("volumes").resolve(volumeName);
            Files.createDirectories(target);
            if (volume.at("configMap") != null) {
                String cmName = String.valueOf(volume.at("configMap.name"));
                KubeObject cm = state.all("ConfigMap").stream().filter(c -> c.name().equals(cmName)).findFirst()
                        .orElseThrow(() -> new IllegalStateException("no ConfigMap " + cmName + " for the picker's volume " + volumeName));
                Object data = cm.at("data");
                if (data instanceof Map<?, ?> files) {
                    for (Map.Entry<?, ?> f : files.entrySet()) {
                        Files.writeString(target.resolve(String.valueOf(f.getKey())), String.valueOf(f.getValue()));
                    }
                }
            }
            mounts.put(String.valueOf(mount.at("mountPath")), target);
        }
        List<String> args = new ArrayList<>();
        for (Object a : rawList(container.at("args"))) {
            // Each argument is rewritten once, by the deepest mount that holds its path (as the kernel resolves it):
            // rewriting again would take the host path just written for a pod path (a checkout under /tmp met the
            // picker's /tmp emptyDir and doubled the config file's path).
            String arg = String.valueOf(a);
            String deepest = null;
            int deepestAt = -1;
            for (String mountPath : mounts.keySet()) {
                String prefix = mountPath.endsWith("/") ? mountPath : mountPath + "/";
                int at = arg.indexOf(prefix);
                if (at >= 0 && (at == 0 || arg.charAt(at - 1) == '=') && (deepest == null || prefix.length() > deepest.length())) {
                    deepest = prefix;
                    deepestAt = at;
                }
            }
            if (deepest != null) {
                Path host = mounts.get(deepest.equals("/") ? deepest : deepest.substring(0, deepest.length() - 1));
                if (host == null) {
                    host = mounts.get(deepest);
                }
                arg = arg.substring(0, deepestAt) + host + "/" + arg.substring(deepestAt + deepest.length());
            }
            args.add(arg);
        }
        return args;
    }

    private static List<?> rawList(Object o) {
        return o instanceof List<?> l ? l : List.of();
    }

    private static int port(KubeObject container, String name, int fallback) {
        return container.list("ports").stream().filter(p -> name.equals(p.at("name"))).map(p -> Integer.parseInt(String.valueOf(p.at("containerPort"))))
                .findFirst().orElse(fallback);
    }

    @SuppressWarnings("unchecked")
    private static String server(String kubeConfigYaml) {
        Map<String, Object> config = new Yaml().load(kubeConfigYaml);
        Map<String, Object> cluster = (Map<String, Object>) ((Map<String, Object>) ((List<Object>) config.get("clusters")).get(0)).get("cluster");
        return String.valueOf(cluster.get("server"));
    }

    /** The admin kubeconfig's cluster (server and certificate authority) with a bearer token as the only credential. */
    @SuppressWarnings("unchecked")
    static String tokenKubeConfig(String kubeConfigYaml, String token) {
        Map<String, Object> config = new Yaml().load(kubeConfigYaml);
        Map<String, Object> cluster = (Map<String, Object>) ((Map<String, Object>) ((List<Object>) config.get("clusters")).get(0)).get("cluster");
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("apiVersion", "v1");
        out.put("kind", "Config");
        out.put("clusters", List.of(Map.of("name", "tier", "cluster", cluster)));
        out.put("users", List.of(Map.of("name", "picker", "user", Map.of("token", token))));
        out.put("contexts", List.of(Map.of("name", "picker", "context", Map.of("cluster", "tier", "user", "picker"))));
        out.put("current-context", "picker");
        return new Yaml().dump(out);
    }

    @SuppressWarnings("unchecked")
    private static String token(KubeApi api, String namespace, String serviceAccount) {
        Map<String, Object> body = KubeApi.require(api.post("/api/v1/namespaces/" + namespace + "/serviceaccounts/" + serviceAccount + "/token",
                Map.of("apiVersion", "authentication.k8s.io/v1", "kind", "TokenRequest", "spec", Map.of("expirationSeconds", 3600))),
                "a token of the ServiceAccount " + serviceAccount);
        return String.valueOf(((Map<String, Object>) body.get("status")).get("token"));
    }

    /**
     * Starts {@code command}, its stderr (and with {@code ownStdout} false its stdout too) to {@code log}; with
     * {@code ownStdout} its stdout goes to a file of its own beside the log, returned, for {@link #awaitLine}.
     */
    private Path spawn(List<String> command, Map<String, String> env, Path log, boolean ownStdout) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().keySet().removeIf(k -> k.equals("KUBECONFIG"));
        pb.environment().putAll(env);
        Path stdout = log.resolveSibling(log.getFileName() + ".stdout");
        if (ownStdout) {
            pb.redirectError(log.toFile()).redirectOutput(stdout.toFile());
        } else {
            pb.redirectErrorStream(true).redirectOutput(log.toFile());
        }
        processes.add(pb.start());
        return ownStdout ? stdout : null;
    }

    /** The first line of what a process printed to {@code stdout} that starts with {@code prefix}, waited for up to 30 s. */
    private static String awaitLine(Path stdout, String prefix, String what) {
        return Poll.upTo(Duration.ofSeconds(30)).every(100).until(() -> printed(stdout), l -> l.stream().anyMatch(x -> x.startsWith(prefix)))
                .orElseThrow(l -> new IllegalStateException(what + " did not print '" + prefix + "' within 30 s; it printed " + l))
                .stream().filter(x -> x.startsWith(prefix)).findFirst().orElseThrow();
    }

    private static List<String> printed(Path stdout) {
        try {
            return Files.exists(stdout) ? Files.readAllLines(stdout, StandardCharsets.UTF_8) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path resource(String name, Path dir) throws IOException {
        try (InputStream in = EndpointPickerRun.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("no resource " + name + " next to " + EndpointPickerRun.class.getName());
            }
            Path out = dir.resolve(name);
            Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
            return out;
        }
    }

    private static void must(String... command) {
        String out = run(List.of(command));
        if (out != null) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
        }
    }

    /** Runs a command; null when it succeeded, else its output. */
    private static String run(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "timed out";
            }
            return p.exitValue() == 0 ? null : out.strip();
        } catch (IOException e) {
            return e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
