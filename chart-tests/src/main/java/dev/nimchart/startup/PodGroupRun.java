package dev.nimchart.startup;

import dev.nimchart.cluster.Poll;
import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.ServingContainer;
import dev.nimchart.values.FileTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The main container process of each of some reconciled pods, started on this machine as a container runtime would:
 * each pod in a network namespace of its own with its pod IP ({@link PodNetwork}: all from the tier's 198.18.0.0/17,
 * joined by a bridge inside one more namespace, none with a route anywhere else), the host names the headless
 * Services publish in its /etc/hosts ({@link EtcHosts}), its host name, its volumes ({@link PodVolumes}: ConfigMap and
 * Secret files as the kubelet writes them, one shared directory per claim, hostPath or NFS volume, emptyDirs; read-only
 * where the pod says so), its security settings ({@link ContainerSecurity}: its root filesystem read-only, its
 * capabilities, no_new_privs), its user ({@link PodUser}), exactly the environment the kubelet gives it plus what the
 * runtime adds ({@link ContainerEnvironment}), its command ({@link ContainerCommand}), its init containers
 * ({@link InitContainers}), the ports its other containers declare ({@link PortHolders}) and its probes
 * ({@link PodProbes}), each pod run by one executor ({@link PodExecutor}). The image's own files are a stand-in for
 * NIM's server ({@link PodImage}). Everything is named after this JVM's PID and removed by name and PID on
 * {@link #close()}.
 */
public final class PodGroupRun implements AutoCloseable {

    private static final AtomicInteger RUNS = new AtomicInteger();

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

    /**
     * The program a pod's image holds as NIM's server (at {@link PodImage#STANDIN_PATHS}), and the model it serves under
     * its own name (as a model-specific NIM image has one built in; the chart's model.name must match it).
     * {@link #STANDIN}: the stand-in, {@code nim-standin.py}.
     */
    public record Server(Path program, String servedModel) {
        public static final Server STANDIN = new Server(null, null);
    }

    private final String base;
    private final Path workDir;
    private final NamespaceState state;
    private final Map<String, String> overrides;
    private final List<PodRun> runs = new ArrayList<>();
    /** False for {@link #prepare}: the pods' plans are written, nothing is started and no network namespace is made. */
    private final boolean launch;
    private PodImage image;
    private ContainerSandbox sandbox;
    private PodExecutor executor;
    private PodProbes probes;
    private Path initDriver;
    private PortHolders portHolders;
    private StandinRecords standinRecords;
    private PodVolumes volumes;
    private PodNetwork network;
    private String hosts;
    private String extraHosts = "";
    private boolean initContainers;
    private AutoCloseable onPodNetwork;
    /** The index of the next pod started (names its network namespace); pods recreated get new ones. */
    private int nextIndex;

    private PodGroupRun(String base, Path workDir, NamespaceState state, Map<String, String> overrides, boolean launch) {
        this.base = base;
        this.workDir = workDir;
        this.state = state;
        this.overrides = overrides;
        this.launch = launch;
    }

    /**
     * Starts the nim container of each pod (in order). {@code overrides} replaces environment entries after the
     * kubelet's expansion (empty for a faithful run).
     */
    public static PodGroupRun start(NamespaceState state, List<KubeObject> pods, Path workDir, Map<String, String> overrides, Path rayDir) {
        return start(state, pods, workDir, overrides, Server.STANDIN, rayDir);
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
            Path rayDir, Function<String, AutoCloseable> onPodNetwork) {
        return start(state, pods, workDir, overrides, server, rayDir, true, onPodNetwork);
    }

    /**
     * The pods' runtime plans in {@code workDir} (each pod's directory with its plan.json and the files pod-sandbox.sh
     * reads, the sandbox, the init driver and the executor beside them), as {@link #start} writes them, with nothing
     * started and no network namespace made: what the executor ({@value PodExecutor#EXECUTOR}) runs elsewhere, in a
     * network namespace of its own (ServingPodRun, the GPU check's bundle). The returned runs have no process and no netns.
     */
    public static List<PodRun> prepare(NamespaceState state, List<KubeObject> pods, Path workDir, boolean initContainers) {
        try (PodGroupRun run = start(state, List.of(), workDir, Map.of(), Server.STANDIN, null, false, podNetwork -> () -> { })) {
            run.runInitContainers(initContainers);
            pods.forEach(run::add);
            return List.copyOf(run.pods());
        }
    }

    private static PodGroupRun start(NamespaceState state, List<KubeObject> pods, Path workDir, Map<String, String> overrides, Server server,
            Path rayDir, boolean launch, Function<String, AutoCloseable> onPodNetwork) {
        String base = "n" + (ProcessHandle.current().pid() % 100000) + "x" + RUNS.incrementAndGet() % 100;
        PodGroupRun run = new PodGroupRun(base, workDir, state, overrides, launch);
        try {
            PodVolumes.release(workDir); // emptyDirs an earlier run of this directory left mounted (its JVM was killed)
            FileTrees.delete(workDir); // records of an earlier run must not count as ranks of this one
            Files.createDirectories(workDir);
            run.volumes = new PodVolumes(workDir);
            run.sandbox = new ContainerSandbox(StartupResources.executable("pod-sandbox.sh", workDir.resolve("pod-sandbox.sh")), run.volumes);
            run.standinRecords = new StandinRecords(run.volumes.claims());
            run.image = new PodImage(workDir, server, rayDir);
            run.initDriver = StartupResources.executable("pod-init.sh", workDir.resolve("pod-init.sh"));
            run.executor = new PodExecutor(workDir);
            run.probes = new PodProbes(run.executor);
            run.portHolders = new PortHolders(StartupResources.executable("port-holder.py", workDir.resolve("port-holder.py")));
            if (launch) {
                run.network = new PodNetwork(base);
                run.onPodNetwork = onPodNetwork.apply(run.network.fabric());
            }
            run.hosts = EtcHosts.of(state);
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
            PodRun started = startPod(pod, nextIndex++);
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
    public <T> Optional<T> onPodNetwork(Class<T> type) {
        return type.isInstance(onPodNetwork) ? Optional.of(type.cast(onPodNetwork)) : Optional.empty();
    }

    /** The network namespace that holds the pods' bridge (their node's network, as a network plugin sees it); null for {@link #prepare}. */
    public String podNetwork() {
        return network == null ? null : network.fabric();
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
        return network.attach(suffix, suffix, address);
    }

    /**
     * Where the pod's init containers stand: empty when it has none or none has run yet, "running NAME" while one runs,
     * "Init:Error: init container NAME exited with N" when one failed (the main container then never starts), "started"
     * once all completed and the main container was started.
     */
    public String initStatus(PodRun run) {
        return InitContainers.status(run.dir());
    }

    /** What an init container of the pod wrote (stdout and stderr), empty before it ran. */
    public String initLog(PodRun run, String container) {
        return InitContainers.log(run.dir(), container);
    }

    /** The environment an init container of the pod was started with (as the kubelet expands it, plus the runtime's). */
    public Map<String, String> initEnv(PodRun run, String container) {
        return InitContainers.env(run.dir(), container);
    }

    private PodRun startPod(KubeObject pod, int index) throws IOException {
        return startPod(pod, index, "");
    }

    /** Starts the pod; {@code logHead} opens its log (what a pod it replaces said). */
    private PodRun startPod(KubeObject pod, int index, String logHead) throws IOException {
        KubeObject nim = nimContainer(pod);
        String ip = String.valueOf(pod.at("status.podIP"));
        if (!ip.startsWith("198.18.") || Integer.parseInt(ip.split("\\.")[2]) >= 128) {
            throw new IllegalStateException("pod " + pod.name() + " has IP " + ip + ", outside the tier's 198.18.0.0/17");
        }
        String host = EtcHosts.hostName(pod);
        PodUser user = PodUser.of(pod, nim);

        Path dir = workDir.resolve(pod.name());
        PodVolumes.release(dir); // a pod of this name before (recreated): its emptyDirs go with it
        FileTrees.delete(dir);
        Path etc = Files.createDirectories(dir.resolve("etc-upper"));
        Files.createDirectories(dir.resolve("etc-work"));
        Files.writeString(etc.resolve("hosts"), hosts + extraHosts + "127.0.1.1\t" + host + "\n");
        Files.writeString(etc.resolve("resolv.conf"), "nameserver 127.0.0.1\noptions timeout:1 attempts:1\n");
        image.writeInto(dir, user.uid());

        PodVolumes.writeEmptyDirs(dir, pod, user.fsGroup());
        Map<String, String> env = sandbox.writeFiles(dir, state, pod, nim, dir, user, host, overrides);
        // The pod's init containers (run in order before the main container, each in the same sandbox: its own mounts,
        // environment, user and security settings, the pod's network and files), in POD_DIR/init-<name>.
        List<Path> inits = new ArrayList<>();
        for (KubeObject init : initContainers ? pod.list("spec.initContainers") : List.<KubeObject>of()) {
            inits.add(InitContainers.write(sandbox, state, pod, init, dir, host, user));
        }

        // The main container in a UTS and mount namespace of its own (its mounts end with it, wherever it is started).
        List<String> container = sandbox.commandLine(List.of("--uts", "--mount", "--propagation", "private"), dir, host, user,
                ContainerCommand.expanded(state, pod, nim));
        List<String> argv = container;
        if (!inits.isEmpty()) {
            // The init driver runs each init container to completion in order, then execs the main container's sandbox.
            List<String> driven = new ArrayList<>(List.of("bash", initDriver.toString(), dir.toString()));
            inits.forEach(d -> driven.add(d.toString()));
            driven.add("--");
            driven.addAll(argv);
            argv = driven;
        }
        PodExecutor.writePlan(dir, pod, nim, host, ip, user, argv, container);
        Path log = dir.resolve("main.log");
        Files.writeString(log, logHead);
        if (!launch) {
            return new PodRun(pod, null, ip, dir, null, log, env, user.uid(), user.gid(), user.groups());
        }
        // The pod's emptyDirs, made once for the pod before its first container (the executor's `volumes`), here in this
        // JVM's mount namespace: a restart of its container (a new copy of this namespace) finds them as they were.
        executor.mountVolumes(dir);
        String netns = network.attach("p" + index, Integer.toString(index), ip + "/17");
        portHolders.holdDeclaredPorts(pod, nim, netns);
        // The executor execs the plan's command line: the process is the pod's main process (its pid the container's).
        Process process = new ProcessBuilder(executor.startCommand(netns, dir)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        return new PodRun(pod, netns, ip, dir, process, log, env, user.uid(), user.gid(), user.groups());
    }

    /**
     * The kubelet's restart of a pod's main container ({@link PodRestarts}): what is left of its process tree ends, and its
     * container's command line starts again in the same pod (network namespace, address, directory, volumes: its
     * emptyDirs with what was written to them), without its init containers; its log goes on in the same file after a line saying so. Returns the new run, which takes the old
     * one's place in {@link #pods()}.
     */
    public PodRun restartContainer(PodRun run, String why) {
        stop(run);
        try {
            Files.writeString(run.log(), "--- " + why + "\n", java.nio.file.StandardOpenOption.APPEND);
            Process process = new ProcessBuilder(executor.restartCommand(run.netns(), run.dir())).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(run.log().toFile())).start();
            PodRun restarted = new PodRun(run.pod(), run.netns(), run.ip(), run.dir(), process, run.log(), run.env(), run.uid(), run.gid(),
                    run.groups());
            runs.set(runs.indexOf(run), restarted);
            return restarted;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A controller's recreation of some pods (LeaderWorkerSet's of a group, {@link PodRestarts}): each one's processes end
     * and its network namespace goes; then each starts again as a new pod of the same name and address, in the order given:
     * its directory, volumes and /etc written afresh (the old pod's emptyDirs unmounted, new empty ones; claims and
     * hostPath volumes keep their files), its
     * init containers run again. Each new log opens with the last 3000 characters of the old pod's. Returns the new runs,
     * which take the old ones' places in {@link #pods()}.
     */
    public List<PodRun> recreate(List<PodRun> pods, String why) {
        for (PodRun run : pods) {
            stop(run);
            portHolders.release(run.netns());
            network.detach(run.netns());
        }
        List<PodRun> fresh = new ArrayList<>();
        for (PodRun run : pods) {
            String head = "--- the pod before it was recreated (last 3000 characters of its log):\n" + tail(run.logText(), 3000)
                    + "--- " + why + "\n";
            try {
                PodRun started = startPod(run.pod(), nextIndex++, head);
                runs.set(runs.indexOf(run), started);
                fresh.add(started);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return fresh;
    }

    /** Ends a pod's process tree and waits (up to 10 s) for it. */
    private static void stop(PodRun run) {
        kill(run);
        awaitEnd(run);
    }

    /** Kills a pod's process tree. */
    private static void kill(PodRun run) {
        run.process().descendants().forEach(ProcessHandle::destroyForcibly);
        run.process().destroyForcibly();
    }

    /** Waits up to 10 s for a pod's main process to end. */
    private static void awaitEnd(PodRun run) {
        try {
            run.process().waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The last {@code chars} characters of a text (all of it when shorter). */
    private static String tail(String text, int chars) {
        return text.length() > chars ? text.substring(text.length() - chars) : text;
    }

    /** The executor's command on this pod, run in its network namespace: {@code pod-run.py VERB POD_DIR [ARG] --pid PID}. */
    List<String> executorCommand(PodRun run, String verb, String... args) {
        return executor.command(run, verb, args);
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

    /** The directory that stands for the volume of the claim {@code claimName} in this run, shared by every pod that mounts it. */
    public Path claim(String claimName) {
        return volumes.claims().resolve(claimName);
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
     * What every rank the stand-in ran as recorded (from the claims' shared directories: .nim-standin/<group>/*.json under
     * the cache path, wherever a claim holds it; {@link StandinRecords}).
     */
    public List<Map<String, Object>> records() {
        return standinRecords.all();
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
     * attempts (3 when unset), periodSeconds apart (10 when unset); see {@link PodProbes#startupSucceeds}.
     */
    public boolean startupProbeSucceeds(PodRun run) {
        return probes.startupSucceeds(run);
    }

    /**
     * Whether one run of the nim container's probe of this kind (startupProbe, livenessProbe, readinessProbe) passes now,
     * as the kubelet runs it ({@link PodProbes}). A container without that probe passes while its process runs.
     */
    public boolean probePasses(PodRun run, String kind) {
        return probes.passes(run, kind);
    }

    /** The container a pod's start-up is about ({@link ServingContainer}). */
    public static KubeObject nimContainer(KubeObject pod) {
        return ServingContainer.of(pod);
    }

    /** Lets every stand-in started with STANDIN_HOLD_READY=1 answer ready (once all its ranks joined). */
    public void releaseReadiness() {
        standinRecords.releaseReadiness();
    }

    /** Exit code of a command run in the pod's namespaces, as its user, with its environment (an exec probe). */
    public int exec(PodRun run, List<String> command) {
        return exec(run, command, 20);
    }

    /** As {@link #exec(PodRun, List)}, ended (and failed) after timeoutSeconds as the kubelet ends a probe. */
    public int exec(PodRun run, List<String> command, int timeoutSeconds) {
        return executor.exec(run, command, timeoutSeconds);
    }

    /**
     * As {@link #await}, with the cluster restarting what ends ({@link PodRestarts}): a pod whose process ended has its
     * container restarted, or its LeaderWorkerSet group recreated, and the wait goes on; true once {@code ready} holds,
     * false when the limit passes or a pod stays ended or crash-loops ({@code restarts} says which). {@code ready} must
     * look its pods up through {@link #pod(String)} or {@link #pods()} each time: a restart replaces their runs.
     */
    public boolean awaitRestarting(Duration limit, BooleanSupplier ready, PodRestarts restarts) {
        Supplier<Boolean> round = () -> {
            if (ready.getAsBoolean()) {
                return Boolean.TRUE;
            }
            for (PodRun ended : List.copyOf(runs)) {
                if (!runs.contains(ended) || ended.process().isAlive()) {
                    continue;
                }
                PodRestarts.Decision decision = restarts.ended(ended.pod(), ended.process().exitValue(), this::pending);
                switch (decision.action()) {
                    case RESTART_CONTAINER -> restartContainer(ended, decision.said());
                    case RECREATE_GROUP -> {
                        List<String> names = restarts.groupPods(ended.pod()).stream().map(KubeObject::name).toList();
                        List<PodRun> group = runs.stream().filter(r -> names.contains(r.pod().name()))
                                .sorted(java.util.Comparator.comparing((PodRun r) -> !GroupLabels.isLeader(r.pod()))).toList();
                        recreate(group, decision.said());
                    }
                    default -> {
                        return Boolean.FALSE;
                    }
                }
            }
            return null;
        };
        Poll.Result<Boolean> seen = Poll.upTo(limit).every(500).until(round, Objects::nonNull);
        return seen.held() && seen.last();
    }

    /** Whether the pod is Pending as the API server would say: started here, its init containers not all done. */
    private boolean pending(KubeObject pod) {
        return runs.stream().filter(r -> r.pod().name().equals(pod.name())).findFirst()
                .map(r -> !pod.list("spec.initContainers").isEmpty() && initContainers && !"started".equals(initStatus(r))).orElse(true);
    }

    /** Waits until {@code ready} holds (true), a process of the group ends or the limit passes (false). */
    public boolean await(Duration limit, BooleanSupplier ready) {
        // What a round saw: the condition held (true), a process ended (false), or neither yet (null).
        Supplier<Boolean> round = () -> ready.getAsBoolean() ? Boolean.TRUE
                : pods().stream().anyMatch(p -> !p.process().isAlive()) ? Boolean.FALSE : null;
        Poll.Result<Boolean> seen = Poll.upTo(limit).every(500).until(round, Objects::nonNull);
        return seen.held() && seen.last();
    }

    /** The last 3000 characters of every pod's log, each under its name (and exit code once it ended). */
    public String logs() {
        StringBuilder out = new StringBuilder();
        for (PodRun p : pods()) {
            String log = p.logText();
            out.append("--- ").append(p.pod().name()).append(p.process().isAlive() ? "" : " (exited " + p.process().exitValue() + ")").append('\n')
                    .append(tail(log, 3000)).append('\n');
        }
        return out.toString();
    }

    @Override
    public void close() {
        if (portHolders != null) {
            portHolders.close();
        }
        List<PodRun> started = runs.stream().filter(r -> r.process() != null).toList();
        started.forEach(PodGroupRun::kill);
        started.forEach(PodGroupRun::awaitEnd);
        RuntimeException stopping = null;
        if (onPodNetwork != null) {
            try {
                onPodNetwork.close();
            } catch (Exception e) {
                stopping = new IllegalStateException("stopping what ran on the pod network " + podNetwork() + ": " + e.getMessage(), e);
            }
            onPodNetwork = null;
        }
        if (network != null) {
            network.close();
        }
        try {
            PodVolumes.release(workDir); // every pod's emptyDirs, also those of a pod whose start failed
        } catch (RuntimeException e) {
            stopping = stopping != null ? stopping : e;
        }
        if (stopping != null) {
            throw stopping;
        }
    }
}
