package dev.nimchart.startup;

import dev.nimchart.values.FileTrees;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.ServingContainer;
import dev.nimchart.objects.PodPorts;
import dev.nimchart.controllers.KubeletEnv;
import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.controllers.ObjectDns;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import io.kubernetes.client.custom.Quantity;
import tools.jackson.databind.json.JsonMapper;

/**
 * The main container process of each of some reconciled pods, started on this machine as a container runtime would:
 * each pod in a network namespace of its own with its pod IP (all from the tier's 198.18.0.0/17; the namespaces are
 * joined by a bridge inside one more namespace, and none has a route anywhere else), the host names the headless
 * Services publish in its /etc/hosts, its host name, its volumes (ConfigMap and Secret files as the kubelet writes
 * them, one shared directory per claim, hostPath or NFS volume, emptyDirs; read-only where the pod says so, its root
 * filesystem included), its user, and exactly the environment the kubelet gives it plus
 * what the runtime adds (PATH, HOME, HOSTNAME, and the GPU device plugin's NVIDIA_VISIBLE_DEVICES). The image's own
 * files are a stand-in for NIM's server ({@code nim-standin.py}). Everything is named after this JVM's PID and
 * removed by name and PID on {@link #close()}.
 */
public final class PodGroupRun implements AutoCloseable {

    /**
     * The image's PATH: a CUDA/NIM image is Debian-based and its PATH includes these; the stand-in image adds /opt/nim/bin,
     * where it keeps the programs a NIM 2.x/3.x image has on its PATH ({@code nim-serve-ray}, {@code ray}).
     */
    static final String IMAGE_PATH = "/opt/nim/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
    /**
     * The image's LD_LIBRARY_PATH: NIM images build on NVIDIA's CUDA images, whose Dockerfiles set
     * {@code /usr/local/nvidia/lib:/usr/local/nvidia/lib64}. A pod spec that sets LD_LIBRARY_PATH replaces it.
     */
    public static final String IMAGE_LD_LIBRARY_PATH = "/usr/local/nvidia/lib:/usr/local/nvidia/lib64";
    /** The NIM image's ENTRYPOINT, run when the pod sets no command (NVIDIA's nim-deploy names it NIM_ENTRYPOINT). */
    public static final List<String> IMAGE_ENTRYPOINT = List.of("/opt/nvidia/nvidia_entrypoint.sh");
    /** The NIM image's CMD, the entrypoint's arguments when the pod sets neither command nor args (NIM_CMD). */
    public static final List<String> IMAGE_CMD = List.of("/opt/nim/start_server.sh");
    /** Where the stand-in stands in for the image's programs. */
    static final List<String> STANDIN_PATHS = List.of("nim/start_server.sh", "nim/start-mpi-cluster.sh", "nim/llm/.venv/bin/python3");

    /** The image the pods run (its users, homes and ENV HOME). */
    static final ImageModel IMAGE = ImageModel.NIM;

    private static final AtomicInteger RUNS = new AtomicInteger();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** One started pod. */
    public record PodRun(KubeObject pod, String netns, String ip, Path dir, Process process, Path log, Map<String, String> env,
            long uid, long gid, List<Long> groups) {
        public String logText() {
            try {
                return Files.readString(log);
            } catch (IOException e) {
                return "(no log: " + e.getMessage() + ")";
            }
        }
    }

    private final String base;
    private final Path workDir;
    private final List<PodRun> runs = new ArrayList<>();
    private final List<String> namespaces = new ArrayList<>();
    private NamespaceState state;
    private Map<String, String> overrides;
    private String fabric;
    private String hosts;
    private Path sandbox;
    private Path standin;
    private Path engineCaches;
    private Path nimApi;
    private String servedModel;
    private Path rayStandin;
    private Path rayDir;
    private Path initDriver;
    private Path downloadStandin;
    private Path portHolder;
    /** The processes holding the ports of the containers the tier runs no program for (see {@link #holdDeclaredPorts}). */
    private final List<Process> holders = new ArrayList<>();
    private String extraHosts = "";
    private boolean initContainers;
    private AutoCloseable onPodNetwork;
    private Path executor;
    /** False for {@link #prepare}: the pods' plans are written, nothing is started and no network namespace is made. */
    private boolean launch = true;

    private PodGroupRun(String base, Path workDir) {
        this.base = base;
        this.workDir = workDir;
    }

    /**
     * Starts the nim container of each pod (in order). {@code overrides} replaces environment entries after the
     * kubelet's expansion (empty for a faithful run).
     */
    public static PodGroupRun start(NamespaceState state, List<KubeObject> pods, Path workDir, Map<String, String> overrides, Path rayDir) {
        return start(state, pods, workDir, overrides, Server.STANDIN, rayDir);
    }

    /**
     * The program a pod's image holds as NIM's server (at {@link #STANDIN_PATHS}), and the model it serves under its
     * own name (as a model-specific NIM image has one built in; the chart's model.name must match it).
     * {@link #STANDIN}: the stand-in, {@code nim-standin.py}.
     */
    public record Server(Path program, String servedModel) {
        public static final Server STANDIN = new Server(null, null);
    }

    /**
     * As {@link #start(NamespaceState, List, Path, Map, Path)}, with another program (a real engine) as the image's
     * server. {@code rayDir}: the Ray installation the image's {@code ray} and {@code nim-serve-ray} run
     * ({@code Settings.rayDir()}); null for pods that run no Ray (the image then has neither program).
     */
    public static PodGroupRun start(NamespaceState state, List<KubeObject> pods, Path workDir, Map<String, String> overrides, Server server,
            Path rayDir) {
        return start(state, pods, workDir, overrides, server, rayDir, podNetwork -> () -> { });
    }

    /**
     * As {@link #start(NamespaceState, List, Path, Map, Server, Path)}, with {@code onPodNetwork} run on the pods' network
     * (the name of the network namespace that holds their bridge, {@link #podNetwork()}) once it exists and before any
     * pod starts, as a node's network plugin is there before its pods (a NetworkPolicy enforcer:
     * {@link NetworkPolicyEnforcer}); what it returns is closed on {@link #close()}, after the pods' processes end.
     */
    public static PodGroupRun start(NamespaceState state, List<KubeObject> pods, Path workDir, Map<String, String> overrides, Server server,
            Path rayDir, java.util.function.Function<String, AutoCloseable> onPodNetwork) {
        return start(state, pods, workDir, overrides, server, rayDir, true, onPodNetwork);
    }

    /**
     * The pods' runtime plans in {@code workDir} (each pod's directory with its plan.json and the files pod-sandbox.sh
     * reads, the sandbox, the init driver and the executor beside them), as {@link #start} writes them, with nothing
     * started and no network namespace made: what the executor ({@value #EXECUTOR}) runs elsewhere, in a network
     * namespace of its own (ServingPodRun, the GPU check's bundle). The returned runs have no process and no netns.
     */
    public static List<PodRun> prepare(NamespaceState state, List<KubeObject> pods, Path workDir, boolean initContainers) {
        try (PodGroupRun run = start(state, List.of(), workDir, Map.of(), Server.STANDIN, null, false, podNetwork -> () -> { })) {
            run.runInitContainers(initContainers);
            pods.forEach(run::add);
            return List.copyOf(run.pods());
        }
    }

    private static PodGroupRun start(NamespaceState state, List<KubeObject> pods, Path workDir, Map<String, String> overrides, Server server,
            Path rayDir, boolean launch, java.util.function.Function<String, AutoCloseable> onPodNetwork) {
        String base = "n" + (ProcessHandle.current().pid() % 100000) + "x" + RUNS.incrementAndGet() % 100;
        PodGroupRun run = new PodGroupRun(base, workDir);
        run.launch = launch;
        try {
            FileTrees.delete(workDir); // records of an earlier run must not count as ranks of this one
            Files.createDirectories(workDir);
            run.state = state;
            run.overrides = overrides;
            run.sandbox = resource("pod-sandbox.sh", workDir.resolve("pod-sandbox.sh"));
            run.standin = server.program() != null ? server.program() : resource("nim-standin.py", workDir.resolve("nim-standin.py"));
            run.servedModel = server.servedModel();
            run.engineCaches = resource("engine_caches.py", workDir.resolve("engine_caches.py"));
            run.nimApi = resource("nim_api.py", workDir.resolve("nim_api.py"));
            run.rayDir = rayDir;
            run.rayStandin = rayDir == null ? null : rayStandin(workDir, rayDir);
            run.initDriver = resource("pod-init.sh", workDir.resolve("pod-init.sh"));
            run.downloadStandin = resource("download-to-cache.py", workDir.resolve("download-to-cache.py"));
            run.executor = resource(EXECUTOR, workDir.resolve(EXECUTOR));
            run.portHolder = resource("port-holder.py", workDir.resolve("port-holder.py"));
            run.fabric = base + "f";
            if (run.launch) {
                StartupHost.must(List.of("ip", "netns", "add", run.fabric));
                run.namespaces.add(run.fabric);
                StartupHost.must(List.of("ip", "-n", run.fabric, "link", "add", "br0", "type", "bridge"));
                StartupHost.must(List.of("ip", "-n", run.fabric, "link", "set", "br0", "up"));
                run.onPodNetwork = onPodNetwork.apply(run.fabric);
            }
            run.hosts = hostsFile(state);
            for (KubeObject pod : pods) {
                run.add(pod);
            }
            return run;
        } catch (IOException | RuntimeException e) {
            run.close();
            throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
        }
    }

    /** Starts one more pod of the same namespace on the same network (as a controller creating it later would). */
    public PodRun add(KubeObject pod) {
        try {
            PodRun started = startPod(state, pod, runs.size(), fabric, hosts, sandbox, standin, overrides);
            runs.add(started);
            return started;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public List<PodRun> pods() {
        return runs;
    }

    /** What runs on the pods' network (given to {@code start}), when it is of this type. */
    public <T> java.util.Optional<T> onPodNetwork(Class<T> type) {
        return type.isInstance(onPodNetwork) ? java.util.Optional.of(type.cast(onPodNetwork)) : java.util.Optional.empty();
    }

    /** The network namespace that holds the pods' bridge (their node's network, as a network plugin sees it). */
    public String podNetwork() {
        return fabric;
    }

    public PodRun pod(String name) {
        return runs.stream().filter(r -> r.pod().name().equals(name)).findFirst().orElseThrow();
    }

    /**
     * Whether the pods started from now on run their init containers, in order, before their main container (as the
     * kubelet does; see {@link #initStatus}). Off by default: a run that starts a group's main containers alone (whose
     * init containers would wait for something no test provides, such as a cache pre-fill Job's marker) stays as it was.
     */
    public PodGroupRun runInitContainers(boolean run) {
        this.initContainers = run;
        return this;
    }

    /**
     * Adds lines to /etc/hosts of the pods started from now on (as cluster DNS would answer names the namespace's
     * headless Services do not publish, e.g. a Service name standing for its one endpoint's address).
     */
    public void addHosts(String lines) {
        extraHosts += lines.endsWith("\n") ? lines : lines + "\n";
    }

    /**
     * A network namespace of its own on the pods' network (the bridge of this run), with {@code address} (IP/prefix, in
     * the tier's 198.18.0.0/17), for a host the pods reach (a proxy); removed on {@link #close()}. Returns its name.
     */
    public String attachNamespace(String suffix, String address) {
        String netns = base + suffix;
        String veth = base + "v" + suffix;
        StartupHost.must(List.of("ip", "netns", "add", netns));
        namespaces.add(netns);
        StartupHost.must(List.of("ip", "link", "add", veth, "netns", fabric, "type", "veth", "peer", "name", "eth0", "netns", netns));
        StartupHost.must(List.of("ip", "-n", fabric, "link", "set", veth, "master", "br0", "up"));
        StartupHost.must(List.of("ip", "-n", netns, "addr", "add", address, "dev", "eth0"));
        StartupHost.must(List.of("ip", "-n", netns, "link", "set", "eth0", "up"));
        StartupHost.must(List.of("ip", "-n", netns, "link", "set", "lo", "up"));
        return netns;
    }

    /**
     * Where the pod's init containers stand: empty when it has none or none has run yet, "running NAME" while one runs,
     * "Init:Error: init container NAME exited with N" when one failed (the main container then never starts), "started"
     * once all completed and the main container was started.
     */
    public String initStatus(PodRun run) {
        try {
            Path status = run.dir().resolve("init-status");
            return Files.exists(status) ? Files.readString(status).strip() : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What an init container of the pod wrote (stdout and stderr), empty before it ran. */
    public String initLog(PodRun run, String container) {
        try {
            Path log = run.dir().resolve("init-" + container).resolve("log");
            return Files.exists(log) ? Files.readString(log) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The environment an init container of the pod was started with (as the kubelet expands it, plus the runtime's). */
    public Map<String, String> initEnv(PodRun run, String container) {
        try {
            Map<String, String> env = new LinkedHashMap<>();
            for (String kv : Files.readString(run.dir().resolve("init-" + container).resolve("env")).split("\0")) {
                int eq = kv.indexOf('=');
                if (eq > 0) {
                    env.put(kv.substring(0, eq), kv.substring(eq + 1));
                }
            }
            return env;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** /etc/hosts of every pod: each pod IP with the names the namespace's headless Services publish for it. */
    static String hostsFile(NamespaceState state) {
        ObjectDns dns = new ObjectDns(state);
        StringBuilder out = new StringBuilder("127.0.0.1\tlocalhost\n");
        for (KubeObject pod : state.livePods()) {
            Object ip = pod.at("status.podIP");
            Object subdomain = pod.at("spec.subdomain");
            if (ip == null || subdomain == null) {
                continue;
            }
            String host = pod.at("spec.hostname") == null ? pod.name() : pod.at("spec.hostname").toString();
            List<String> names = new ArrayList<>();
            for (String suffix : List.of(".svc.cluster.local", ".svc", "")) {
                String name = host + "." + subdomain + "." + pod.namespace() + suffix;
                if (dns.resolve(name).filter(("Pod/" + pod.name())::equals).isPresent()) {
                    names.add(name);
                }
            }
            // Headless Services with this pod alone behind them answer its address under their own name.
            for (KubeObject svc : state.all("Service")) {
                for (String suffix : List.of(".svc.cluster.local", ".svc")) {
                    String name = svc.name() + "." + pod.namespace() + suffix;
                    if ("None".equals(svc.at("spec.clusterIP")) && dns.resolve(name).filter(("Pod/" + pod.name())::equals).isPresent()) {
                        names.add(name);
                    }
                }
            }
            if (!names.isEmpty()) {
                out.append(ip).append('\t').append(String.join(" ", names)).append('\n');
            }
        }
        return out.toString();
    }

    private PodRun startPod(NamespaceState state, KubeObject pod, int index, String fabric, String hosts, Path sandbox,
            Path standin, Map<String, String> overrides) throws IOException {
        KubeObject nim = nimContainer(pod);
        String ip = String.valueOf(pod.at("status.podIP"));
        if (!ip.startsWith("198.18.") || Integer.parseInt(ip.split("\\.")[2]) >= 128) {
            throw new IllegalStateException("pod " + pod.name() + " has IP " + ip + ", outside the tier's 198.18.0.0/17");
        }
        String host = pod.at("spec.hostname") == null ? pod.name() : pod.at("spec.hostname").toString();
        long uid = number(pod.at("spec.securityContext.runAsUser"), nim.at("securityContext.runAsUser"), 1000);
        long gid = number(pod.at("spec.securityContext.runAsGroup"), nim.at("securityContext.runAsGroup"), uid);
        long fsGroup = number(pod.at("spec.securityContext.fsGroup"), null, gid);
        // The process's supplementary groups, as the runtime sets them: fsGroup (when the pod sets it) and supplementalGroups.
        List<Long> groups = new ArrayList<>();
        if (pod.at("spec.securityContext.fsGroup") != null) {
            groups.add(fsGroup);
        }
        if (pod.at("spec.securityContext.supplementalGroups") instanceof List<?> extra) {
            extra.forEach(g -> groups.add(Long.parseLong(g.toString())));
        }

        Path dir = workDir.resolve(pod.name());
        FileTrees.delete(dir);
        Path etc = Files.createDirectories(dir.resolve("etc-upper"));
        Files.createDirectories(dir.resolve("etc-work"));
        Files.writeString(etc.resolve("hosts"), hosts + extraHosts + "127.0.1.1\t" + host + "\n");
        Files.writeString(etc.resolve("resolv.conf"), "nameserver 127.0.0.1\noptions timeout:1 attempts:1\n");
        // The image's users and home directories (ImageModel): a uid it does not declare has no passwd entry.
        Files.writeString(etc.resolve("passwd"), IMAGE.passwd(Files.readAllLines(Path.of("/etc/passwd")), uid));
        Files.writeString(etc.resolve("group"), IMAGE.group(Files.readAllLines(Path.of("/etc/group"))));
        Files.writeString(dir.resolve("image-homes"), IMAGE.homeDirectories());
        for (String path : STANDIN_PATHS) {
            Path target = dir.resolve("opt").resolve(path);
            Files.createDirectories(target.getParent());
            Files.copy(standin, target);
            Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        // The stand-ins' modules (engine cache paths: engine_caches.py; NIM's HTTP API: nim_api.py), in the image's files.
        Path standinLib = Files.createDirectories(dir.resolve("opt/nim/standin"));
        Files.copy(engineCaches, standinLib.resolve("engine_caches.py"));
        Files.copy(nimApi, standinLib.resolve("nim_api.py"));
        if (servedModel != null) {
            Files.writeString(standinLib.resolve("served-model"), servedModel);
        }
        // A NIM 2.x/3.x image's programs on its PATH: nim-serve-ray (the stand-in, running the real Ray) and ray.
        Path bin = Files.createDirectories(dir.resolve("opt/nim/bin"));
        Files.copy(downloadStandin, bin.resolve("download-to-cache")); // NIM's cache download command (download-to-cache.py)
        Files.setPosixFilePermissions(bin.resolve("download-to-cache"), PosixFilePermissions.fromString("rwxr-xr-x"));
        if (rayDir != null) {
            Files.copy(rayStandin, bin.resolve("nim-serve-ray"));
            Files.writeString(bin.resolve("ray"), "#!/bin/sh\nexec " + rayDir.resolve("bin/ray") + " \"$@\"\n");
            for (String program : List.of("nim-serve-ray", "ray")) {
                Files.setPosixFilePermissions(bin.resolve(program), PosixFilePermissions.fromString("rwxr-xr-x"));
            }
        }
        // The image's entrypoint runs its arguments (the CUDA images' entrypoint prints a banner, then execs them).
        Path entrypoint = dir.resolve("opt").resolve(IMAGE_ENTRYPOINT.get(0).substring("/opt/".length()));
        Files.createDirectories(entrypoint.getParent());
        Files.writeString(entrypoint, "#!/bin/bash\nexec \"$@\"\n");
        Files.setPosixFilePermissions(entrypoint, PosixFilePermissions.fromString("rwxr-xr-x"));

        Map<String, String> env = containerFiles(dir, state, pod, nim, dir, fsGroup, host, uid, overrides);
        // The pod's init containers (run in order before the main container, each in the same sandbox: its own mounts,
        // environment, user and security settings, the pod's network and files), in POD_DIR/init-<name>.
        List<Path> inits = new ArrayList<>();
        for (KubeObject init : initContainers ? pod.list("spec.initContainers") : List.<KubeObject>of()) {
            inits.add(initContainer(state, pod, init, dir, fsGroup, host, uid, gid, groups));
        }

        // The main container in a UTS and mount namespace of its own (its mounts end with it, wherever it is started).
        List<String> argv = new ArrayList<>(List.of("unshare", "--uts", "--mount", "--propagation", "private", "bash", sandbox.toString(),
                dir.toString(), host, Long.toString(uid), Long.toString(gid), groupList(groups), "--"));
        // The kubelet expands $(VAR) in command and args with the container's own variables (not the runtime's).
        Map<String, String> containerEnv = KubeletEnv.of(pod, nim, state);
        containerCommand(nim).forEach(word -> argv.add(KubeletEnv.expand(word, containerEnv)));
        if (!inits.isEmpty()) {
            // The init driver runs each init container to completion in order, then execs the main container's sandbox.
            List<String> driven = new ArrayList<>(List.of("bash", initDriver.toString(), dir.toString()));
            inits.forEach(d -> driven.add(d.toString()));
            driven.add("--");
            driven.addAll(argv);
            argv.clear();
            argv.addAll(driven);
        }
        writePlan(dir, pod, nim, host, ip, uid, gid, groups, argv);
        Path log = dir.resolve("main.log");
        if (!launch) {
            return new PodRun(pod, null, ip, dir, null, log, env, uid, gid, List.copyOf(groups));
        }
        String netns = base + "p" + index;
        String veth = base + "v" + index;
        StartupHost.must(List.of("ip", "netns", "add", netns));
        namespaces.add(netns);
        StartupHost.must(List.of("ip", "link", "add", veth, "netns", fabric, "type", "veth", "peer", "name", "eth0", "netns", netns));
        StartupHost.must(List.of("ip", "-n", fabric, "link", "set", veth, "master", "br0", "up"));
        StartupHost.must(List.of("ip", "-n", netns, "addr", "add", ip + "/17", "dev", "eth0"));
        StartupHost.must(List.of("ip", "-n", netns, "link", "set", "eth0", "up"));
        StartupHost.must(List.of("ip", "-n", netns, "link", "set", "lo", "up"));

        holdDeclaredPorts(pod, nim, netns);

        // The executor execs the plan's command line: the process is the pod's main process (its pid the container's).
        List<String> command = List.of("ip", "netns", "exec", netns, python(), executor.toString(), "start", dir.toString());
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new PodRun(pod, netns, ip, dir, process, log, env, uid, gid, List.copyOf(groups));
    }

    /** The executor of the start-up tier's runtime plans: every pod's start and every probe run goes through it. */
    public static final String EXECUTOR = "pod-run.py";
    private static final List<String> PROBES = List.of("startupProbe", "readinessProbe", "livenessProbe");

    /**
     * POD_DIR/plan.json, the pod's runtime plan as the executor reads it: its name, host name, address, user, group and
     * supplementary groups, the command line that starts it (init driver and sandbox included) and the nim container's
     * probes with their ports resolved to numbers.
     */
    private static void writePlan(Path dir, KubeObject pod, KubeObject nim, String host, String ip, long uid, long gid, List<Long> groups,
            List<String> argv) throws IOException {
        Map<String, Object> probes = new LinkedHashMap<>();
        for (String kind : PROBES) {
            if (nim.at(kind) instanceof Map<?, ?> probe) {
                @SuppressWarnings("unchecked")
                Map<String, Object> copy = JSON.readValue(JSON.writeValueAsString(probe), Map.class);
                for (String handler : List.of("httpGet", "tcpSocket", "grpc")) {
                    if (copy.get(handler) instanceof Map<?, ?> h && h.get("port") != null) {
                        @SuppressWarnings("unchecked")
                        Map<String, Object> handlerMap = (Map<String, Object>) h;
                        handlerMap.put("port", port(nim, h.get("port")));
                    }
                }
                probes.put(kind, copy);
            }
        }
        Map<String, Object> plan = new LinkedHashMap<>();
        plan.put("pod", pod.name());
        plan.put("host", host);
        plan.put("ip", ip);
        plan.put("uid", uid);
        plan.put("gid", gid);
        plan.put("groups", groupList(groups));
        plan.put("argv", argv);
        plan.put("probes", probes);
        Files.writeString(dir.resolve("plan.json"), JSON.writeValueAsString(plan));
    }

    /** The Python that runs the executor (standard library only): the system's. */
    static String python() {
        return Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : "python3";
    }

    /**
     * The declared ports of the pod's other containers, bound in its network namespace as their processes would bind them
     * (the tier runs a program for the serving container only: its own process binds its ports, and fails as NIM would
     * when one is taken). In the kubelet's order ({@link PodPorts#phases}): each regular init container's ports once,
     * beside the native sidecars started before it; then every sidecar's and every other regular container's ports, held
     * while the pod runs. A bind that fails is the pod's start failing, as a runtime fails it (EADDRINUSE): an init
     * container's ends the pod in Init:Error, a sidecar's or a container's keeps it from running; either way this throws
     * with what collided. A port the serving container declares twice, or that a sidecar holds, fails its own process.
     */
    private void holdDeclaredPorts(KubeObject pod, KubeObject served, String netns) throws IOException {
        List<String> sidecars = new ArrayList<>();
        List<KubeObject> inits = pod.list("spec.initContainers");
        for (int i = 0; i < inits.size(); i++) {
            KubeObject init = inits.get(i);
            List<String> ports = portSpecs(init);
            if ("Always".equals(init.at("restartPolicy"))) {
                sidecars.addAll(ports);
                continue;
            }
            if (!ports.isEmpty()) {
                // A regular init container runs alone beside the sidecars started before it, then ends.
                List<Process> phase = new ArrayList<>();
                bindPorts(pod, netns, sidecars, false).ifPresent(phase::add);
                bindPorts(pod, netns, ports, true).ifPresent(phase::add);
                phase.forEach(Process::destroyForcibly);
                holders.removeAll(phase);
            }
        }
        List<String> held = new ArrayList<>(sidecars);
        for (KubeObject container : pod.list("spec.containers")) {
            if (container != served && !String.valueOf(container.at("name")).equals(String.valueOf(served.at("name")))) {
                held.addAll(portSpecs(container));
            }
        }
        bindPorts(pod, netns, held, false);
    }

    /** CONTAINER=PORT/PROTOCOL for each declared port of a container. */
    private static List<String> portSpecs(KubeObject container) {
        List<String> out = new ArrayList<>();
        for (KubeObject port : container.list("ports")) {
            if (port.at("containerPort") != null) {
                out.add(container.at("name") + "=" + port.at("containerPort") + "/" + (port.at("protocol") == null ? "TCP" : port.at("protocol")));
            }
        }
        return out;
    }

    /** Binds the ports in the pod's network namespace (held until {@link #close()}, or released at once); throws when one is taken. */
    private java.util.Optional<Process> bindPorts(KubeObject pod, String netns, List<String> specs, boolean once) throws IOException {
        if (specs.isEmpty()) {
            return java.util.Optional.empty();
        }
        List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", netns, "python3", portHolder.toString()));
        if (once) {
            command.add("--once");
        }
        command.addAll(specs);
        Process holder = new ProcessBuilder(command).redirectErrorStream(true).start();
        holders.add(holder);
        java.io.BufferedReader out = new java.io.BufferedReader(new java.io.InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (!"held".equals(line)) {
            throw new IllegalStateException("pod " + pod.name() + " cannot start: its containers bind one port twice in its one network"
                    + " namespace (" + (line == null ? "the port holder ended" : line) + "; ports " + specs + ")");
        }
        return java.util.Optional.of(holder);
    }

    /**
     * An init container's directory POD_DIR/init-NAME as pod-sandbox.sh reads it: the pod's /etc files (its passwd for
     * the container's user), the image's files (/opt) and home directories, the container's own mounts, environment and
     * security settings, and its command line (argv, NUL-separated: the sandbox with the container's user and groups).
     */
    private Path initContainer(NamespaceState state, KubeObject pod, KubeObject init, Path dir, long fsGroup, String host, long podUid,
            long podGid, List<Long> groups) throws IOException {
        Path cdir = dir.resolve("init-" + init.at("name"));
        Path etc = Files.createDirectories(cdir.resolve("etc-upper"));
        Files.createDirectories(cdir.resolve("etc-work"));
        long uid = number(init.at("securityContext.runAsUser"), pod.at("spec.securityContext.runAsUser"), podUid);
        long gid = number(init.at("securityContext.runAsGroup"), pod.at("spec.securityContext.runAsGroup"), podGid);
        for (String file : List.of("hosts", "resolv.conf", "group")) {
            Files.copy(dir.resolve("etc-upper").resolve(file), etc.resolve(file));
        }
        Files.writeString(etc.resolve("passwd"), IMAGE.passwd(Files.readAllLines(Path.of("/etc/passwd")), uid));
        Files.copy(dir.resolve("image-homes"), cdir.resolve("image-homes"));
        Files.createSymbolicLink(cdir.resolve("opt"), dir.resolve("opt"));
        Map<String, String> env = containerFiles(cdir, state, pod, init, dir, fsGroup, host, uid, Map.of());
        // A mount namespace of its own: its mounts end with it, and none is made where the driver holds its log open.
        List<String> argv = new ArrayList<>(List.of("unshare", "--uts", "--mount", "bash", sandbox.toString(), cdir.toString(), host, Long.toString(uid),
                Long.toString(gid), groupList(groups), "--"));
        Map<String, String> containerEnv = KubeletEnv.of(pod, init, state);
        containerCommand(init).forEach(word -> argv.add(KubeletEnv.expand(word, containerEnv)));
        StringBuilder file = new StringBuilder();
        argv.forEach(a -> file.append(a).append('\0'));
        Files.writeString(cdir.resolve("argv"), file.toString());
        return cdir;
    }

    /**
     * One container's files in {@code cdir} as pod-sandbox.sh reads them (its mounts, read-only root, capability bounding
     * set, no_new_privs and environment; its volumes' sources under the pod directory {@code dir}), and its environment.
     */
    private Map<String, String> containerFiles(Path cdir, NamespaceState state, KubeObject pod, KubeObject container, Path dir, long fsGroup,
            String host, long uid, Map<String, String> overrides) throws IOException {
        StringBuilder mounts = new StringBuilder();
        Map<String, KubeObject> volumes = new LinkedHashMap<>();
        pod.list("spec.volumes").forEach(v -> volumes.put(v.at("name").toString(), v));
        for (KubeObject mount : container.list("volumeMounts")) {
            KubeObject volume = volumes.get(mount.at("name").toString());
            String target = mount.at("mountPath").toString();
            String source = volumeSource(state, pod, volume, dir, fsGroup);
            if (source != null && !target.startsWith("/dev/")) {
                mounts.append(source).append('\t').append(target).append('\t')
                        .append(Boolean.TRUE.equals(mount.at("readOnly")) ? "ro" : "rw").append('\n');
            }
            if (source != null && target.equals("/dev/shm")) {
                Files.writeString(cdir.resolve("shm"), source); // the pod's shared memory: a memory-backed emptyDir of its sizeLimit
            }
        }
        Files.writeString(cdir.resolve("mounts"), mounts.toString());
        Files.deleteIfExists(cdir.resolve("read-only-root"));
        if (Boolean.TRUE.equals(container.at("securityContext.readOnlyRootFilesystem"))) {
            Files.writeString(cdir.resolve("read-only-root"), "");
        }
        Files.writeString(cdir.resolve("bounding-set"), boundingSet(container));
        Files.deleteIfExists(cdir.resolve("no-new-privs"));
        if (Boolean.FALSE.equals(container.at("securityContext.allowPrivilegeEscalation"))) {
            Files.writeString(cdir.resolve("no-new-privs"), "");
        }

        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", IMAGE_PATH);
        env.put("HOSTNAME", host);
        env.put("HOME", IMAGE.runtimeHome(uid));
        env.put("LD_LIBRARY_PATH", IMAGE_LD_LIBRARY_PATH);
        Object gpus = container.at("resources.limits[nvidia.com/gpu]");
        boolean initContainer = pod.list("spec.initContainers").stream().anyMatch(c -> c.at("name").equals(container.at("name")));
        int gpuCount = gpus != null ? Integer.parseInt(gpus.toString()) : initContainer ? 0 : draGpus(state, pod);
        if (gpuCount > 0) {
            List<String> devices = new ArrayList<>();
            for (int g = 0; g < gpuCount; g++) {
                devices.add("GPU-" + pod.name() + "-" + g);
            }
            env.put("NVIDIA_VISIBLE_DEVICES", String.join(",", devices));
        }
        env.putAll(KubeletEnv.of(pod, container, state));
        env.putAll(overrides);
        StringBuilder envFile = new StringBuilder();
        env.forEach((k, v) -> envFile.append(k).append('=').append(v).append('\0'));
        Files.writeString(cdir.resolve("env"), envFile.toString());
        return env;
    }

    /**
     * The container's command and args as the runtime runs them: command replaces the image's ENTRYPOINT (and its
     * CMD), args replace the CMD; neither means ENTRYPOINT then CMD.
     */
    public static List<String> containerCommand(KubeObject container) {
        List<String> command = new ArrayList<>();
        Object cmd = container.at("command");
        boolean ownCommand = cmd instanceof List<?> list && !list.isEmpty();
        if (ownCommand) {
            ((List<?>) cmd).forEach(c -> command.add(String.valueOf(c)));
        } else {
            command.addAll(IMAGE_ENTRYPOINT);
        }
        if (container.at("args") instanceof List<?> args && !args.isEmpty()) {
            args.forEach(a -> command.add(String.valueOf(a)));
        } else if (!ownCommand) {
            command.addAll(IMAGE_CMD);
        }
        return command;
    }

    /**
     * Where a volume comes from, as the pod-sandbox mounts it: a directory, or {@code tmpfs:SIZE:MODE:GID} for an emptyDir
     * (a tmpfs of its sizeLimit, so a full emptyDir fails a write with "No space left on device" as the kubelet's limit
     * ends the pod; world-writable as the kubelet makes an emptyDir, with fsGroup as its group and the set-group-ID bit).
     */
    private String volumeSource(NamespaceState state, KubeObject pod, KubeObject volume, Path dir, long fsGroup) throws IOException {
        if (volume == null) {
            return null;
        }
        String name = volume.at("name").toString();
        if (volume.at("configMap") != null || volume.at("secret") != null) {
            boolean secret = volume.at("secret") != null;
            String prefix = secret ? "secret" : "configMap";
            String objectName = String.valueOf(volume.at(secret ? "secret.secretName" : "configMap.name"));
            KubeObject object = state.named(secret ? "Secret" : "ConfigMap", objectName)
                    .orElseThrow(() -> new IllegalStateException("pod " + pod.name() + " mounts missing " + prefix + " " + objectName));
            Object modeValue = volume.at(prefix + ".defaultMode");
            int defaultMode = modeValue == null ? 0644 : Integer.parseInt(modeValue.toString());
            Map<String, String[]> files = new LinkedHashMap<>();
            Object data = object.at("data");
            List<KubeObject> items = volume.list(prefix + ".items");
            if (data instanceof Map<?, ?> map) {
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    String value = secret ? new String(Base64.getDecoder().decode(e.getValue().toString()), StandardCharsets.UTF_8)
                            : e.getValue().toString();
                    files.put(e.getKey().toString(), new String[] {e.getKey().toString(), value, Integer.toString(defaultMode)});
                }
            }
            if (!items.isEmpty()) {
                Map<String, String[]> chosen = new LinkedHashMap<>();
                for (KubeObject item : items) {
                    String[] f = files.get(item.at("key").toString());
                    if (f != null) {
                        Object mode = item.at("mode");
                        chosen.put(f[0], new String[] {item.at("path").toString(), f[1], mode == null ? f[2] : mode.toString()});
                    }
                }
                files = chosen;
            }
            Path target = Files.createDirectories(dir.resolve("volumes").resolve(name));
            for (String[] f : files.values()) {
                Path file = target.resolve(f[0]);
                Files.createDirectories(file.getParent());
                Files.writeString(file, f[1]);
                int mode = Integer.parseInt(f[2]);
                // As the kubelet with fsGroup: owned by root, the group fsGroup, group-readable when the owner may read.
                mode |= (mode & 0400) != 0 ? 0040 : 0;
                StartupHost.must(List.of("chown", "0:" + fsGroup, file.toString()));
                StartupHost.must(List.of("chmod", Integer.toOctalString(mode), file.toString()));
            }
            return target.toString();
        }
        if (volume.at("persistentVolumeClaim") != null) {
            // A claim's volume as the kubelet hands it to a pod with fsGroup: group fsGroup, group-writable, set-group-ID.
            Path claim = Files.createDirectories(workDir.resolve("claims").resolve(String.valueOf(volume.at("persistentVolumeClaim.claimName"))));
            StartupHost.must(List.of("chown", "0:" + fsGroup, claim.toString()));
            StartupHost.must(List.of("chmod", "2775", claim.toString()));
            return claim.toString();
        }
        if (volume.at("hostPath") != null || volume.at("nfs") != null) {
            // A node directory or an NFS export: one directory of this run per volume, shared by the group's pods (as
            // an NFS export, or a pre-filled hostPath cache on every node, would be).
            // The kubelet changes no ownership of these (fsGroup does not apply): world-writable stands for a directory
            // its administrator prepared for the pods' user.
            Path shared = Files.createDirectories(workDir.resolve("claims").resolve("volume-" + name));
            StartupHost.must(List.of("chmod", "1777", shared.toString()));
            return shared.toString();
        }
        if (volume.at("emptyDir") != null) {
            Object limit = volume.at("emptyDir.sizeLimit");
            long bytes = limit == null ? 0 : new Quantity(limit.toString()).getNumber().longValue();
            return "tmpfs:" + bytes + ":2777:" + fsGroup;
        }
        return null;
    }

    /** The Ray stand-in with the Ray environment's python as its interpreter. */
    private static Path rayStandin(Path workDir, Path rayDir) throws IOException {
        return withInterpreter("nim-serve-ray.py", workDir.resolve("nim-serve-ray"), rayDir.resolve("bin/python3"));
    }

    /** A script of this package's resources written to {@code target} with {@code interpreter} in its first line. */
    static Path withInterpreter(String resource, Path target, Path interpreter) throws IOException {
        try (InputStream in = PodGroupRun.class.getResourceAsStream(resource)) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            Files.writeString(target, text.replaceFirst("^#!.*", "#!" + interpreter));
        }
        return target;
    }

    /**
     * The in-cluster addresses a started pod would reach through a proxy, read from its environment as Python's requests
     * and curl read it ({@link ProxyReaders#proxiedHosts}): localhost, every name /etc/hosts gives the group's pods, every
     * Service of the namespace by its name and its .namespace, .svc and .svc.cluster.local forms (the endpoint picker's
     * aside: only a gateway dials it), and the leader addresses of its environment (MASTER_ADDR, NIM_LEADER_IP_ADDRESS,
     * LWS_LEADER_ADDRESS). Pod and Service IP addresses are left out: the tier's (198.18.0.0/17, 198.19.0.0/16) are not the
     * cluster ranges a user lists in NO_PROXY. One line per address and client; empty when every one goes directly.
     */
    public List<String> proxiedInClusterAddresses() {
        List<String> hosts = new ArrayList<>(List.of("localhost", "127.0.0.1"));
        for (String line : (hosts() + extraHosts).split("\n")) {
            String[] words = line.trim().split("\\s+");
            for (int i = 1; i < words.length; i++) {
                hosts.add(words[i]);
            }
        }
        for (KubeObject svc : state.all("Service")) {
            if ("endpoint-picker".equals(String.valueOf(svc.labels().get("app.kubernetes.io/component")))) {
                continue;
            }
            String ns = svc.namespace();
            hosts.addAll(List.of(svc.name(), svc.name() + "." + ns, svc.name() + "." + ns + ".svc", svc.name() + "." + ns + ".svc.cluster.local"));
        }
        List<String> out = new ArrayList<>();
        for (PodRun run : runs) {
            List<String> dialed = new ArrayList<>(hosts);
            for (String name : List.of("MASTER_ADDR", "NIM_LEADER_IP_ADDRESS", "LWS_LEADER_ADDRESS")) {
                String value = run.env().get(name);
                if (value != null && !value.isBlank()) {
                    dialed.add(value.replaceFirst(":\\d+$", ""));
                }
            }
            ProxyReaders.proxiedHosts(run.env(), dialed).forEach(p -> out.add("pod " + run.pod().name() + ": " + p));
        }
        return out;
    }

    private String hosts() {
        return hosts == null ? "" : hosts;
    }

    /** Resident memory of every pod's processes and their descendants now (the sum of VmRSS in /proc), in bytes. */
    public long residentBytes() {
        long total = 0;
        for (PodRun r : runs) {
            List<ProcessHandle> all = new ArrayList<>(r.process().descendants().toList());
            all.add(r.process().toHandle());
            for (ProcessHandle h : all) {
                try {
                    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(h.pid()), "status"))) {
                        if (line.startsWith("VmRSS:")) {
                            total += Long.parseLong(line.replaceAll("\\D", "")) * 1024;
                        }
                    }
                } catch (IOException | NumberFormatException gone) {
                    // the process ended meanwhile
                }
            }
        }
        return total;
    }

    /** Output of a command run as root in the pod's network namespace only (as a process on its node would dial it). */
    public StartupHost.Result inNetwork(PodRun run, List<String> command, int timeoutSeconds) {
        List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", run.netns()));
        full.addAll(command);
        return StartupHost.run(full, timeoutSeconds);
    }

    /**
     * What every rank the stand-in ran as recorded (from the claims' shared directories: .nim-standin/<group>/*.json under the cache path, wherever a claim holds it).
     * The stand-in writes each record to a temporary name and renames it, so only the directories are listed, by name, and a
     * record is read only once it has its final name; a temporary file that vanishes while listed is no record yet.
     */
    public List<Map<String, Object>> records() {
        List<Map<String, Object>> out = new ArrayList<>();
        List<Path> standins = new ArrayList<>();
        standinDirectories(workDir.resolve("claims"), standins);
        for (Path standin : standins) {
            for (Path pod : entries(standin, "*")) {
                for (Path f : entries(pod, "*.json")) {
                    try {
                        @SuppressWarnings("unchecked")
                        Map<String, Object> record = JSON.readValue(Files.readString(f), Map.class);
                        out.add(record);
                    } catch (IOException e) {
                        throw new UncheckedIOException("cannot read the stand-in's record " + f, e);
                    }
                }
            }
        }
        return out;
    }

    /** Every directory named .nim-standin under dir (the cache path may be a sub-directory of a claim). */
    private static void standinDirectories(Path dir, List<Path> found) {
        for (Path entry : entries(dir, "*")) {
            if (entry.getFileName().toString().equals(".nim-standin")) {
                found.add(entry);
            } else if (Files.isDirectory(entry, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                standinDirectories(entry, found);
            }
        }
    }

    /** The entries of a directory whose names match the glob, none when it does not exist (yet). */
    private static List<Path> entries(Path dir, String glob) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (java.nio.file.DirectoryStream<Path> stream = Files.newDirectoryStream(dir, glob)) {
            List<Path> out = new ArrayList<>();
            stream.forEach(out::add);
            out.sort(null);
            return out;
        } catch (java.nio.file.NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** HTTP status of GET path on the pod's IP and port, asked from inside the pod's network namespace (0: no answer). */
    public int httpStatus(PodRun run, int port, String path) {
        StartupHost.Result r = StartupHost.run(List.of("ip", "netns", "exec", run.netns(), "bash", "-c",
                "exec 3<>\"/dev/tcp/$1/$2\" || exit 1; printf 'GET %s HTTP/1.0\\r\\nHost: x\\r\\n\\r\\n' \"$3\" >&3; IFS= read -r -t 5 s <&3; echo \"$s\"",
                "probe", run.ip(), Integer.toString(port), path), 10);
        String[] words = r.output().split(" ");
        return r.exit() == 0 && words.length > 1 && words[1].matches("\\d{3}") ? Integer.parseInt(words[1]) : 0;
    }

    /**
     * Whether the nim container's readiness probe passes now, run as the kubelet runs it (see {@link #probePasses}). A
     * container without a readiness probe is ready while it runs.
     */
    public boolean readinessProbePasses(PodRun run) {
        return probePasses(run, "readinessProbe");
    }

    /**
     * Whether the nim container's startup probe succeeds as the kubelet judges it: one pass within its failureThreshold
     * attempts (3 when unset), periodSeconds apart (10 when unset). A slow attempt (an exec probe past its timeoutSeconds
     * on a loaded machine) is one failed attempt, as on a node, not a failed probe.
     */
    public boolean startupProbeSucceeds(PodRun run) {
        KubeObject nim = nimContainer(run.pod());
        int attempts = intOr(nim.at("startupProbe.failureThreshold"), 3);
        long period = intOr(nim.at("startupProbe.periodSeconds"), 10) * 1000L;
        for (int i = 0; i < attempts; i++) {
            if (probePasses(run, "startupProbe")) {
                return true;
            }
            if (i + 1 < attempts) {
                dev.nimchart.cluster.LocalProcess.sleep(period);
            }
        }
        return false;
    }

    private static int intOr(Object value, int otherwise) {
        return value == null ? otherwise : Integer.parseInt(value.toString());
    }

    /**
     * Whether one run of the nim container's probe of this kind (startupProbe, livenessProbe, readinessProbe) passes now,
     * as the kubelet runs it: an exec probe in the pod's namespaces as its user with its environment, within the probe's
     * timeoutSeconds; or an HTTP GET of the probe's path on the pod's IP and port (a 2xx or 3xx status); or a TCP
     * connection. A container without that probe passes while its process runs.
     */
    public boolean probePasses(PodRun run, String kind) {
        KubeObject nim = nimContainer(run.pod());
        Object timeoutValue = nim.at(kind + ".timeoutSeconds");
        int timeout = timeoutValue == null ? 1 : Integer.parseInt(timeoutValue.toString());
        return StartupHost.run(executorCommand(run, "probe", kind), timeout + 10).exit() == 0;
    }

    /** The executor's command on this pod, run in its network namespace: {@code pod-run.py VERB POD_DIR [ARG] --pid PID}. */
    List<String> executorCommand(PodRun run, String verb, String... args) {
        List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", run.netns(), python(), executor.toString(), verb,
                run.dir().toString()));
        command.addAll(List.of(args));
        command.addAll(List.of("--pid", Long.toString(run.process().pid())));
        return command;
    }

    /** The container a pod's start-up is about ({@link ServingContainer}). */
    public static KubeObject nimContainer(KubeObject pod) {
        return ServingContainer.of(pod);
    }

    /** A probe's port: a number, or the name of one of the container's ports. */
    private static int port(KubeObject container, Object port) {
        if (port instanceof Number n) {
            return n.intValue();
        }
        return container.list("ports").stream().filter(p -> String.valueOf(port).equals(p.at("name")))
                .map(p -> Integer.parseInt(String.valueOf(p.at("containerPort")))).findFirst()
                .orElseGet(() -> Integer.parseInt(String.valueOf(port)));
    }

    /** Lets every stand-in started with STANDIN_HOLD_READY=1 answer ready (once all its ranks joined). */
    public void releaseReadiness() {
        Path claims = workDir.resolve("claims");
        try (Stream<Path> dirs = Files.walk(claims, 2)) {
            for (Path d : dirs.filter(p -> p.getFileName().toString().equals(".nim-standin") && Files.isDirectory(p)).toList()) {
                Files.writeString(d.resolve("release"), "");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * setpriv's --bounding-set argument for a container's capabilities: {@code -all} plus each added one when it drops
     * ALL; empty (the runtime's default set, left as it is) otherwise.
     */
    static String boundingSet(KubeObject container) {
        if (!(container.at("securityContext.capabilities.drop") instanceof List<?> drop) || !drop.contains("ALL")) {
            return "";
        }
        StringBuilder out = new StringBuilder("-all");
        if (container.at("securityContext.capabilities.add") instanceof List<?> add) {
            add.forEach(c -> out.append(",+").append(c.toString().toLowerCase(java.util.Locale.ROOT).replaceFirst("^cap_", "")));
        }
        return out.toString();
    }

    /** setpriv's --groups argument: the supplementary groups, comma-separated, or "-" for none. */
    private static String groupList(List<Long> groups) {
        return groups.isEmpty() ? "-" : String.join(",", groups.stream().map(String::valueOf).toList());
    }

    /** Exit code of a command run in the pod's namespaces, as its user, with its environment (an exec probe). */
    public int exec(PodRun run, List<String> command) {
        return exec(run, command, 20);
    }

    /** As {@link #exec(PodRun, List)}, ended (and failed) after timeoutSeconds as the kubelet ends a probe. */
    public int exec(PodRun run, List<String> command, int timeoutSeconds) {
        List<String> full = executorCommand(run, "exec", "--timeout", Integer.toString(timeoutSeconds));
        full.add("--");
        full.addAll(command);
        return StartupHost.run(full, timeoutSeconds + 10).exit();
    }

    /** Waits until {@code ready} holds (true), a process of the group ends or the limit passes (false). */
    public boolean await(java.time.Duration limit, java.util.function.BooleanSupplier ready) {
        // What a round saw: the condition held (true), a process ended (false), or neither yet (null).
        java.util.function.Supplier<Boolean> round = () -> ready.getAsBoolean() ? Boolean.TRUE
                : pods().stream().anyMatch(p -> !p.process().isAlive()) ? Boolean.FALSE : null;
        dev.nimchart.cluster.Poll.Result<Boolean> seen = dev.nimchart.cluster.Poll.upTo(limit).every(500).until(round, java.util.Objects::nonNull);
        return seen.held() && seen.last();
    }

    /** The last 3000 characters of every pod's log, each under its name (and exit code once it ended). */
    public String logs() {
        StringBuilder out = new StringBuilder();
        for (PodRun p : pods()) {
            String log = p.logText();
            out.append("--- ").append(p.pod().name()).append(p.process().isAlive() ? "" : " (exited " + p.process().exitValue() + ")").append('\n')
                    .append(log.length() > 3000 ? log.substring(log.length() - 3000) : log).append('\n');
        }
        return out.toString();
    }

    @Override
    public void close() {
        for (Process holder : holders) {
            holder.destroyForcibly();
        }
        List<PodRun> started = runs.stream().filter(r -> r.process() != null).toList();
        for (PodRun r : started) {
            r.process().descendants().forEach(ProcessHandle::destroyForcibly);
            r.process().destroyForcibly();
        }
        for (PodRun r : started) {
            try {
                r.process().waitFor(java.util.concurrent.TimeUnit.SECONDS.toMillis(10), java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        RuntimeException stopping = null;
        if (onPodNetwork != null) {
            try {
                onPodNetwork.close();
            } catch (Exception e) {
                stopping = new IllegalStateException("stopping what ran on the pod network " + fabric + ": " + e.getMessage(), e);
            }
            onPodNetwork = null;
        }
        for (int i = namespaces.size() - 1; i >= 0; i--) {
            StartupHost.run(List.of("ip", "netns", "delete", namespaces.get(i)), 30);
        }
        namespaces.clear();
        if (stopping != null) {
            throw stopping;
        }
    }

    private static long number(Object first, Object second, long fallback) {
        Object v = first != null ? first : second;
        return v == null ? fallback : Long.parseLong(v.toString());
    }

    private static Path resource(String name, Path target) throws IOException {
        try (InputStream in = PodGroupRun.class.getResourceAsStream(name)) {
            Files.write(target, in.readAllBytes());
        }
        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxr-xr-x"));
        return target;
    }

    /** GPUs a DRA driver allocated to the pod's claims (devices of driver {@value #DRA_GPU_DRIVER}), which its runtime
     * would expose as the device plugin exposes nvidia.com/gpu. */
    private static int draGpus(NamespaceState state, KubeObject pod) {
        java.util.Set<Object> claims = new java.util.HashSet<>();
        pod.list("status.resourceClaimStatuses").forEach(c -> claims.add(c.at("resourceClaimName")));
        int count = 0;
        for (KubeObject claim : state.all("ResourceClaim")) {
            if (claims.contains(claim.name())) {
                count += (int) claim.list("status.allocation.devices.results").stream().filter(r -> DRA_GPU_DRIVER.equals(r.at("driver"))).count();
            }
        }
        return count;
    }

    private static final String DRA_GPU_DRIVER = "gpu.nvidia.com";
}
