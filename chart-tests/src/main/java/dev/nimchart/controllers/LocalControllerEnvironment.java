package dev.nimchart.controllers;

import dev.nimchart.settings.Settings;
import dev.nimchart.cluster.LocalProcess;
import dev.nimchart.cluster.FreePort;
import dev.nimchart.cluster.Pki;
import dev.nimchart.cluster.ControlPlane;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.cluster.CrdInstaller;
import dev.nimchart.cluster.KubeApi;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * A Kubernetes cluster of real controllers on fake GPU nodes, as local processes: the {@link ControlPlane} (etcd,
 * kube-apiserver) the API-server tier starts too, then kube-controller-manager, kube-scheduler, kwok with the node pools
 * of {@link FakeGpuNodes}, the LeaderWorkerSet controller with its webhooks, and mpi-operator. The fake nodes' DRA devices
 * ({@link FakeResourceSlices}) are published, and {@link ComputeDomainStandIn} makes the channel claim templates of NVIDIA
 * ComputeDomains. Started in two lanes side by side once the control plane is up (the CRDs, then LWS and
 * mpi-operator; kube-controller-manager, kube-scheduler, kwok, then the nodes), each step once the one before it is
 * ready; stopped in reverse, webhooks first (they fail closed). Tests see a kubeconfig and a {@link KubeApi}.
 */
public final class LocalControllerEnvironment implements ControllerEnvironment {

    private final Path runDir;
    private final Access access;
    private final List<LocalProcess> processes;
    private final List<String> webhookPaths;
    private final Map<String, Duration> startTimes;
    private final MachineLock machineLock;
    private final ComputeDomainStandIn computeDomains;
    private final Consumer<String> progress;

    private LocalControllerEnvironment(Path runDir, Access access, List<LocalProcess> processes, List<String> webhookPaths,
            Map<String, Duration> startTimes, MachineLock machineLock, ComputeDomainStandIn computeDomains, Consumer<String> progress) {
        this.progress = progress;
        this.machineLock = machineLock;
        this.computeDomains = computeDomains;
        this.runDir = runDir;
        this.access = access;
        this.processes = processes;
        this.webhookPaths = webhookPaths;
        this.startTimes = startTimes;
    }

    /** Builds what is missing, then starts everything; on any failure, stops what it started and says why. */
    static LocalControllerEnvironment start(Settings settings, Path workDir, Consumer<String> progress) {
        ControllerBinaries binaries = ControllerBinaries.ensureBuilt(settings, progress);
        MachineLock machineLock = MachineLock.forTier(binaries, settings.controllerLock(), progress);
        Path crds = CrdInstaller.crdsDir(settings, progress);
        Path runDir = workDir.resolve("run-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS")));
        List<LocalProcess> processes = new ArrayList<>();
        List<String> webhookPaths = java.util.Collections.synchronizedList(new ArrayList<>());
        Map<String, Duration> times = java.util.Collections.synchronizedMap(new LinkedHashMap<>());
        long started = System.nanoTime();
        KubeApi api = null;
        // what the custom-resource lane started (it runs on a thread of its own): stopped with the rest on a failure
        List<LocalProcess> crdLane = java.util.Collections.synchronizedList(new ArrayList<>());
        java.util.concurrent.CompletableFuture<Void> crdLaneDone = null;
        try {
            ControlPlane plane = ControlPlane.start(binaries.binary("etcd"), binaries.binary("kube-apiserver"), runDir, true);
            processes.addAll(plane.processes());
            times.putAll(plane.startTimes());
            Pki pki = plane.pki();
            String kubeConfig = plane.kubeConfigYaml();
            Path kubeconfigFile = runDir.resolve("kubeconfig");
            Files.writeString(kubeconfigFile, kubeConfig);
            api = new KubeApi(kubeConfig);
            KubeApi tierApi = api;
            KubeApi.require(api.post("/api/v1/namespaces", Map.of("apiVersion", "v1", "kind", "Namespace",
                    "metadata", Map.of("name", MpiOperatorProcess.LOCK_NAMESPACE))), "create the mpi-operator namespace");
            // Two lanes side by side, each step once the one before it is ready: the custom resources' (the CRDs
            // established, then the controllers that watch them: LWS and its webhooks, mpi-operator) and the
            // nodes' (kube-controller-manager, kube-scheduler, kwok, the fake nodes and their DRA devices). Neither
            // needs the other; the API server establishes CRDs while the other processes start.
            crdLaneDone = java.util.concurrent.CompletableFuture.runAsync(() -> {
                try {
                    timed(times, "CRDs established", () -> CrdInstaller.install(tierApi, crdDir(runDir, crds, binaries)));
                    int webhookPort = FreePort.take();
                    crdLane.add(timed(times, "lws-controller", () -> LwsControllerProcess.start(binaries, runDir, pki, kubeconfigFile, webhookPort)));
                    webhookPaths.addAll(LwsWebhooks.register(tierApi, binaries, pki, webhookPort));
                    timed(times, "LWS webhooks answering", () -> awaitLwsWebhooks(tierApi));
                    crdLane.add(timed(times, "mpi-operator", () -> MpiOperatorProcess.start(binaries, runDir, kubeconfigFile)));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }, task -> {
                Thread lane = new Thread(task, "controller tier: custom resources");
                lane.setDaemon(true);
                lane.start();
            });
            processes.add(timed(times, "kube-controller-manager", () -> ControllerManagerProcess.start(binaries, runDir, pki, kubeconfigFile)));
            processes.add(timed(times, "kube-scheduler", () -> SchedulerProcess.start(binaries, runDir, kubeconfigFile)));
            processes.add(timed(times, "kwok", () -> KwokProcess.start(binaries, runDir, kubeconfigFile)));
            List<String> nodes = timed(times, "fake nodes Ready", () -> FakeGpuNodes.create(tierApi, settings));
            timed(times, "DRA devices published", () -> FakeResourceSlices.create(tierApi, settings, FakeGpuNodes.nodeObjects(settings)));
            joined(crdLaneDone);
            processes.addAll(crdLane);
            crdLane.clear();
            ClusterPreconditions.createDefaultClass(api);
            times.put("all ready", Duration.ofNanos(System.nanoTime() - started));
            progress.accept("controller tier ready in " + times.get("all ready").toMillis() + " ms: " + processes.size()
                    + " processes, " + nodes.size() + " fake nodes; logs in " + runDir.resolve("logs"));
            return new LocalControllerEnvironment(runDir, new Access(kubeConfig, api, nodes, settings), processes, webhookPaths, times,
                    machineLock, ComputeDomainStandIn.start(api), progress);
        } catch (RuntimeException | IOException e) {
            if (crdLaneDone != null) {
                // the other lane may still be starting a process: wait for it to end (it fails fast once the API
                // server is gone, or ends), then stop what it started with the rest
                crdLaneDone.handle((ok, failed) -> null).join();
                processes.addAll(crdLane);
            }
            stop(api, webhookPaths, processes);
            machineLock.close();
            if (e instanceof ControllerTierException c) {
                throw c;
            }
            throw new ControllerTierException("the controller tier did not start: " + e.getMessage(), e);
        }
    }

    /** The tier started this environment: its fake nodes, stand-ins and processes are there to use. */
    @Override
    public boolean startedByHarness() {
        return true;
    }

    @Override
    public boolean clusterScopedWrites() {
        return true;
    }

    /** Pods get 120 s to go after an uninstall or a namespace deletion. */
    @Override
    public Duration settleTimeout() {
        return Duration.ofSeconds(120);
    }

    @Override
    public ControllerEnvironment requireStartedByHarness(String what) {
        return this;
    }

    @Override
    public Access access() {
        return access;
    }

    /** How long each step of the start took, and "all ready". */
    @Override
    public Map<String, Duration> startTimes() {
        return startTimes;
    }

    @Override
    public java.util.Optional<Path> runDir() {
        return java.util.Optional.of(runDir);
    }

    /**
     * Fails with the log tail of the first process that is no longer running, except a controller that exited because
     * it could not renew its leader lease in time: on a loaded machine the API server can answer a renewal later than
     * client-go's renew deadline (10 s), and mpi-operator, the LWS controller, Kueue, kube-controller-manager and
     * kube-scheduler then exit (mpi-operator's log ends "Leader election stopped", the others' "leaderelection lost" or
     * "leader election lost"). In a real cluster the kubelet restarts such a container; the harness does the same, says
     * so, and counts it: a fourth restart of one controller is a crash loop and fails.
     */
    @Override
    public synchronized void requireAllRunning() {
        for (LocalProcess p : processes) {
            if (!p.alive() && !CONTROL_PLANE.contains(p.name()) && LEASE_LOST.matcher(p.tail()).find()) {
                int restarts = leaseRestarts.merge(p.name(), 1, Integer::sum);
                if (restarts > MOST_LEASE_RESTARTS) {
                    throw new ControllerTierException(p.name() + " lost its leader lease and exited " + restarts
                            + " times (a crash loop); last lines of " + p.log() + ":\n" + p.tail());
                }
                restartAsTheKubeletWould(p, "exited: it could not renew its leader lease in time (restart " + restarts + ")");
            }
            p.requireAlive();
        }
    }

    /** The control plane's own processes: never restarted by {@link #requireAllRunning}. */
    private static final List<String> CONTROL_PLANE = List.of("etcd", "kube-apiserver");
    /** What a controller's log says when it exits for a leader lease it could not renew (client-go, controller-runtime). */
    static final java.util.regex.Pattern LEASE_LOST = java.util.regex.Pattern.compile("(?i)leader ?election (lost|stopped)");
    /** Lease-loss restarts one controller may have before it counts as crash-looping. */
    private static final int MOST_LEASE_RESTARTS = 3;
    private final Map<String, Integer> leaseRestarts = new java.util.HashMap<>();

    @Override
    public List<LocalProcess> processes() {
        return processes;
    }

    /**
     * Stops kube-apiserver and etcd (in that order, as a control-plane node's restart does) and starts them again on
     * the same ports and data, while the controllers, kwok and the webhooks keep running; returns from the stop until
     * /readyz answers again. Only on the tier's own environment.
     */
    @Override
    public Duration restartControlPlane() {
        LocalProcess etcd = process("etcd");
        LocalProcess apiServer = process("kube-apiserver");
        long started = System.nanoTime();
        apiServer.close();
        etcd.close();
        etcd.restart(Duration.ofSeconds(30));
        apiServer.restart(Duration.ofSeconds(60));
        awaitCustomResourcesServed(Duration.ofSeconds(60));
        restartControllersThatLostTheirLease(started);
        return Duration.ofNanos(System.nanoTime() - started);
    }

    /**
     * Longest a controller keeps running without renewing its leader lease: client-go's default renew deadline (10 s)
     * and two retry periods (2 s each), with a second to spare.
     */
    private static final Duration LEADER_RENEW_GRACE = Duration.ofSeconds(15);

    /**
     * A controller that cannot renew its leader lease while the API server is down exits once its renew deadline has
     * passed (mpi-operator, the LWS controller, kube-controller-manager and kube-scheduler all do), and in a real cluster
     * the kubelet then restarts its container. The harness does the same: it waits out the renew deadline counted from
     * the start of the outage, starts again every controller that exited, and waits for the readiness it had.
     */
    private void restartControllersThatLostTheirLease(long outageStarted) {
        LocalProcess.sleep(Math.max(0, (outageStarted + LEADER_RENEW_GRACE.toNanos() - System.nanoTime()) / 1_000_000));
        for (LocalProcess p : processes) {
            if (!p.alive() && !CONTROL_PLANE.contains(p.name())) {
                restartAsTheKubeletWould(p, "exited during the control-plane restart (lost its leader lease)");
            }
        }
    }

    /** Starts an exited controller again, as the kubelet restarts its container, and says why in the tier's progress. */
    private void restartAsTheKubeletWould(LocalProcess p, String why) {
        progress.accept(p.name() + " " + why + "; restarted as the kubelet restarts a container (" + p.log() + ")");
        p.restart(Duration.ofSeconds(60));
    }

    /**
     * Until every established CRD's objects can be listed: a restarted API server answers /readyz before the storage of
     * its custom resources is initialized ("storage is (re)initializing").
     */
    @SuppressWarnings("unchecked")
    private void awaitCustomResourcesServed(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<Object> crds = (List<Object>) KubeApi.require(api().get("/apis/apiextensions.k8s.io/v1/customresourcedefinitions"),
                "list the CRDs").getOrDefault("items", List.of());
        for (Object item : crds) {
            KubeObject crd = new KubeObject((Map<String, Object>) item);
            String version = crd.list("spec.versions").stream().filter(v -> Boolean.TRUE.equals(v.at("storage")))
                    .map(v -> String.valueOf(v.at("name"))).findFirst().orElseThrow();
            String path = "/apis/" + crd.at("spec.group") + "/" + version + "/" + crd.at("spec.names.plural") + "?limit=1";
            Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
            dev.nimchart.cluster.Poll.upTo(left).every(100).until(() -> api().get(path), KubeApi.Response::ok)
                    .orElseThrow(r -> new ControllerTierException("the restarted API server did not serve " + path + " within "
                            + timeout.toSeconds() + " s: " + r.message()));
        }
    }

    private LocalProcess process(String name) {
        return processes.stream().filter(p -> p.name().equals(name)).findFirst()
                .orElseThrow(() -> new ControllerTierException("the controller tier runs no " + name));
    }

    @Override
    public void close() {
        computeDomains.close();
        stop(api(), webhookPaths, processes);
        machineLock.close();
        deleteRecursively(runDir.resolve("etcd-data"));
    }

    private static void stop(KubeApi api, List<String> webhookPaths, List<LocalProcess> processes) {
        if (api != null) {
            for (String path : webhookPaths) {
                try {
                    api.delete(path);
                } catch (RuntimeException ignored) {
                    // the API server may be gone already; the processes are stopped below either way
                }
            }
        }
        // the controllers together (none needs another to shut down), then the control plane, API server first
        List<LocalProcess> planeLast = new ArrayList<>();
        List<LocalProcess> controllers = new ArrayList<>();
        for (LocalProcess p : processes) {
            (ControlPlane.isControlPlane(p) ? planeLast : controllers).add(p);
        }
        LocalProcess.closeTogether(controllers);
        for (int i = planeLast.size() - 1; i >= 0; i--) {
            planeLast.get(i).close();
        }
    }

    /** The CRDs the chart targets (ci/fetch-crds.sh) plus DisaggregatedSet, which the LWS controller watches. */
    private static Path crdDir(Path runDir, Path crds, ControllerBinaries binaries) {
        Path dir = runDir.resolve("crds");
        try (Stream<Path> chartCrds = Files.list(crds); Stream<Path> lwsCrds = Files.list(binaries.home("lws").resolve("crds"))) {
            Files.createDirectories(dir);
            for (Path f : Stream.concat(chartCrds, lwsCrds).filter(f -> f.toString().endsWith(".yaml")).toList()) {
                Files.copy(f, dir.resolve(f.getFileName()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot gather the CRDs into " + dir, e);
        }
        return dir;
    }

    /** The LWS webhooks answer: a dry-run LeaderWorkerSet comes back defaulted by the mutating webhook. */
    private static Object awaitLwsWebhooks(KubeApi api) {
        Map<String, Object> container = Map.of("name", "c", "image", "example.invalid/probe:1");
        Map<String, Object> lws = Map.of("apiVersion", "leaderworkerset.x-k8s.io/v1", "kind", "LeaderWorkerSet",
                "metadata", Map.of("name", "webhook-probe", "namespace", "default"),
                "spec", Map.of("leaderWorkerTemplate", Map.of("size", 2,
                        "workerTemplate", Map.of("spec", Map.of("containers", List.of(container))))));
        dev.nimchart.cluster.Poll.upTo(Duration.ofSeconds(30)).every(100)
                .until(() -> api.post("/apis/leaderworkerset.x-k8s.io/v1/namespaces/default/leaderworkersets?dryRun=All", lws),
                        r -> r.ok() && new KubeObject(r.body()).at("spec.networkConfig.subdomainPolicy") != null)
                .orElseThrow(r -> new ControllerTierException("the LWS webhooks did not answer within 30 s: "
                        + (r.ok() ? "not defaulted by the webhook" : r.message())));
        return null;
    }

    /** Waits for the lane; its failure is thrown as it was thrown there. */
    private static void joined(java.util.concurrent.CompletableFuture<Void> lane) throws IOException {
        try {
            lane.join();
        } catch (java.util.concurrent.CompletionException e) {
            Throwable cause = e.getCause() instanceof UncheckedIOException u ? u.getCause() : e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    private interface Step<T> {
        T run() throws IOException;
    }

    private static <T> T timed(Map<String, Duration> times, String what, Step<T> step) throws IOException {
        long started = System.nanoTime();
        T result = step.run();
        times.put(what, Duration.ofNanos(System.nanoTime() - started));
        return result;
    }

    private static void deleteRecursively(Path dir) {
        try {
            dev.nimchart.values.FileTrees.delete(dir);
        } catch (IOException e) {
            // leftovers in target/ are harmless
        }
    }
}
