package dev.nimchart.settings;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Everything the harness's tiers are configured with, as one immutable value (as envtest's {@code Environment}):
 * where the programs come from, which cluster, where reports go, how long to wait. A caller builds it from
 * {@link #defaults()} with the {@code with...} methods and hands it to {@code ChartCheck.of(chart, settings)} or to a tier;
 * this repository's command line and tests build it from system properties with {@link SettingsFromProperties}, the
 * one class that reads them. No other library class reads a system property, an environment variable or a fixed
 * directory of this machine.
 *
 * <p>Each field, its default, and the property {@link SettingsFromProperties} takes it from, are listed in
 * docs/harness.md ("Settings").
 */
public final class Settings {

    /**
     * The Kubernetes version of the local control plane and the controller tier: the pin of
     * ci/control-plane/kubernetes/go.mod, the newest minor the Go module proxy serves.
     */
    public static final String DEFAULT_KUBE_VERSION = "1.37.2";
    /**
     * The oldest Kubernetes version the chart claims (its kubeVersion), which the API-server tier also runs on (a second
     * Failsafe execution with {@code -Dnim.kube.version} set to it): committed modules in ci/control-plane/v1.34.10/.
     */
    public static final String OLDEST_KUBE_VERSION = "1.34.10";
    /** The K3s image of {@code cluster=k3s} (and of {@code auto} where Docker runs). */
    public static final String DEFAULT_K3S_IMAGE = "rancher/k3s:v1.34.1-k3s1";
    /** How long the controllers get to reconcile one values file on the harness's own cluster. */
    public static final Duration DEFAULT_RECONCILE_TIMEOUT = Duration.ofSeconds(90);
    /** On a cluster the harness did not start (image pulls, model loads). */
    public static final Duration DEFAULT_EXISTING_CLUSTER_RECONCILE_TIMEOUT = Duration.ofSeconds(900);
    /** The cluster choices: see {@code dev.nimchart.cluster.ClusterChoice}. */
    public static final List<String> CLUSTERS = List.of("auto", "local", "k3s", "kubeconfig");

    private final Optional<Path> binariesDir;
    private final Optional<BinarySource> binaryBuilder;
    private final Optional<Path> crdsDir;
    private final Optional<Path> chartDir;
    private final Optional<Path> examplesDir;
    private final List<Path> valuesDirs;
    private final String cluster;
    private final Optional<Path> kubeconfig;
    private final String clusterWrites;
    private final Path workDir;
    private final Optional<Duration> reconcileTimeout;
    private final String kubeVersion;
    private final String k3sImage;
    private final Optional<Path> nodesFile;
    private final Optional<Path> slicesFile;
    private final Optional<Path> helmLibraryDir;
    private final Optional<Path> rayDir;
    private final boolean ci;
    private final Optional<Path> controllerLock;
    private final Optional<Path> lookupKubeconfig;

    private Settings(Values v) {
        binariesDir = Optional.ofNullable(v.binariesDir);
        binaryBuilder = Optional.ofNullable(v.binaryBuilder);
        crdsDir = Optional.ofNullable(v.crdsDir);
        chartDir = Optional.ofNullable(v.chartDir);
        examplesDir = Optional.ofNullable(v.examplesDir);
        valuesDirs = List.copyOf(v.valuesDirs);
        cluster = v.cluster;
        kubeconfig = Optional.ofNullable(v.kubeconfig);
        clusterWrites = v.clusterWrites;
        workDir = v.workDir;
        reconcileTimeout = Optional.ofNullable(v.reconcileTimeout);
        kubeVersion = v.kubeVersion;
        k3sImage = v.k3sImage;
        nodesFile = Optional.ofNullable(v.nodesFile);
        slicesFile = Optional.ofNullable(v.slicesFile);
        helmLibraryDir = Optional.ofNullable(v.helmLibraryDir);
        rayDir = Optional.ofNullable(v.rayDir);
        ci = v.ci;
        controllerLock = Optional.ofNullable(v.controllerLock);
        lookupKubeconfig = Optional.ofNullable(v.lookupKubeconfig);
    }

    /**
     * The defaults: no programs (give a directory or a builder), the tiers' own cluster ({@code auto}), work directory
     * {@code target/} of the working directory, the reconcile timeouts above, the built-in fake nodes and devices, not
     * CI (an unavailable tier is skipped).
     */
    public static Settings defaults() {
        return new Settings(new Values());
    }

    // ---- the fields ----

    /** A directory of the tiers' programs in the layout of {@code ci/binaries.sh DIR} (envtest's binary assets); wins over the builder. */
    public Optional<Path> binariesDir() {
        return binariesDir;
    }

    /** What builds or finds the programs when {@link #binariesDir()} is empty. */
    public Optional<BinarySource> binaryBuilder() {
        return binaryBuilder;
    }

    /** The pinned CRDs: the offline judge's custom-resource schemas and what the cluster tiers install; empty: the bundled ones offline, {@code <workDir>/crds} on a cluster. */
    public Optional<Path> crdsDir() {
        return crdsDir;
    }

    /** The chart of a run's own tests (a test suite's chart under test, the controller session's {@code releases()}); none by default. */
    public Path chartDir() {
        return chartDir.orElseThrow(() -> new IllegalStateException("no chart directory in the settings: give Settings.withChartDir(DIR),"
                + " or -Dnim.chart.dir=DIR where the settings come from system properties"));
    }

    /** The example values files of a run's own tests; none by default. */
    public Path examplesDir() {
        return examplesDir.orElseThrow(() -> new IllegalStateException("no examples directory in the settings: give"
                + " Settings.withExamplesDir(DIR), or -Dnim.examples.dir=DIR where the settings come from system properties"));
    }

    /** Extra directories of values files the examples' tests also run (a downstream team's); empty by default. */
    public List<Path> valuesDirs() {
        return valuesDirs;
    }

    /** Which cluster the tiers use: auto, local, k3s or kubeconfig (as given; {@code ClusterChoice} refuses another). */
    public String cluster() {
        return cluster;
    }

    /** Whether the tiers run on a cluster the harness did not start ({@code cluster=kubeconfig}). */
    public boolean existingCluster() {
        return cluster.strip().toLowerCase(Locale.ROOT).equals("kubeconfig");
    }

    /** The kubeconfig of the existing cluster of {@code cluster=kubeconfig}. */
    public Optional<Path> kubeconfig() {
        return kubeconfig;
    }

    /** What the harness may create on an existing cluster: namespaced (default) or cluster (as given; {@code ExistingCluster.Writes} refuses another). */
    public String clusterWrites() {
        return clusterWrites;
    }

    /** Where the JUnit tiers write their reports, Helm homes and run directories: {@code target/} by default. */
    public Path workDir() {
        return workDir;
    }

    /**
     * How long the controllers get to reconcile one values file: the timeout given ({@link #withReconcileTimeout}), else
     * {@link #DEFAULT_RECONCILE_TIMEOUT} on the harness's own cluster and the longer
     * {@link #DEFAULT_EXISTING_CLUSTER_RECONCILE_TIMEOUT} on a cluster it did not start ({@link #existingCluster()}).
     */
    public Duration reconcileTimeout() {
        return reconcileTimeout.orElse(existingCluster() ? DEFAULT_EXISTING_CLUSTER_RECONCILE_TIMEOUT : DEFAULT_RECONCILE_TIMEOUT);
    }

    /** The Kubernetes version of the harness's own control plane, without a leading v. */
    public String kubeVersion() {
        return kubeVersion;
    }

    public String k3sImage() {
        return k3sImage;
    }

    /** The controller tier's fake node pools; empty: the built-in ones. */
    public Optional<Path> nodesFile() {
        return nodesFile;
    }

    /** The controller tier's fake DRA devices; empty: the built-in ones. */
    public Optional<Path> slicesFile() {
        return slicesFile;
    }

    /** Where the command's launcher unpacks Helm's native library; empty: as helm-java loads it. */
    public Optional<Path> helmLibraryDir() {
        return helmLibraryDir;
    }

    /** Where Ray is installed for the start-up tier's Ray groups. */
    public Path rayDir() {
        return rayDir.orElseThrow(() -> new IllegalStateException("no Ray directory: give Settings.withRayDir(DIR) (-Dnim.ray.dir=DIR)"));
    }

    /** Whether this is CI: a tier that cannot start then fails instead of being skipped. */
    public boolean ci() {
        return ci;
    }

    /** The machine-wide lock file of the controller tier (for an mpi-operator that binds port 8080); default under the work directory. */
    public Path controllerLock() {
        return controllerLock.orElse(workDir.resolve("controller-tier.lock"));
    }

    /** The kubeconfig file the lookup stub writes, which Helm's lookups read (the JVM's KUBECONFIG). */
    public Optional<Path> lookupKubeconfig() {
        return lookupKubeconfig;
    }

    // ---- copies with one field changed ----

    public Settings withBinariesDir(Path dir) {
        return with(v -> v.binariesDir = abs(dir));
    }

    public Settings withBinaryBuilder(BinarySource builder) {
        return with(v -> v.binaryBuilder = builder);
    }

    public Settings withCrdsDir(Path dir) {
        return with(v -> v.crdsDir = abs(dir));
    }

    public Settings withChartDir(Path dir) {
        return with(v -> v.chartDir = abs(dir));
    }

    public Settings withExamplesDir(Path dir) {
        return with(v -> v.examplesDir = abs(dir));
    }

    public Settings withValuesDirs(List<Path> dirs) {
        return with(v -> v.valuesDirs = dirs.stream().map(Settings::abs).toList());
    }

    /** auto, local, k3s or kubeconfig. */
    public Settings withCluster(String choice) {
        return with(v -> v.cluster = choice);
    }

    /** An existing cluster ({@code cluster=kubeconfig}) reached with this kubeconfig, the harness writing only namespaced objects or also cluster-scoped ones. */
    public Settings withExistingCluster(Path kubeconfig, String writes) {
        return with(v -> {
            v.cluster = "kubeconfig";
            v.kubeconfig = abs(kubeconfig);
            v.clusterWrites = writes;
        });
    }

    public Settings withKubeconfig(Path file) {
        return with(v -> v.kubeconfig = file == null ? null : abs(file));
    }

    /** namespaced or cluster. */
    public Settings withClusterWrites(String writes) {
        return with(v -> v.clusterWrites = writes);
    }

    public Settings withWorkDir(Path dir) {
        return with(v -> v.workDir = abs(dir));
    }

    public Settings withReconcileTimeout(Duration timeout) {
        return with(v -> v.reconcileTimeout = timeout);
    }

    public Settings withKubeVersion(String version) {
        return with(v -> v.kubeVersion = version.replaceFirst("^v", ""));
    }

    public Settings withK3sImage(String image) {
        return with(v -> v.k3sImage = image);
    }

    public Settings withNodesFile(Path file) {
        return with(v -> v.nodesFile = file == null ? null : abs(file));
    }

    public Settings withSlicesFile(Path file) {
        return with(v -> v.slicesFile = file == null ? null : abs(file));
    }

    public Settings withHelmLibraryDir(Path dir) {
        return with(v -> v.helmLibraryDir = dir == null ? null : abs(dir));
    }

    public Settings withRayDir(Path dir) {
        return with(v -> v.rayDir = abs(dir));
    }

    public Settings withCi(boolean ci) {
        return with(v -> v.ci = ci);
    }

    public Settings withControllerLock(Path file) {
        return with(v -> v.controllerLock = abs(file));
    }

    public Settings withLookupKubeconfig(Path file) {
        return with(v -> v.lookupKubeconfig = file == null ? null : abs(file));
    }

    @Override
    public String toString() {
        return "Settings[binariesDir=" + binariesDir + ", binaryBuilder=" + binaryBuilder + ", crdsDir=" + crdsDir + ", chartDir=" + chartDir
                + ", examplesDir=" + examplesDir + ", valuesDirs=" + valuesDirs + ", cluster=" + cluster + ", kubeconfig=" + kubeconfig
                + ", clusterWrites=" + clusterWrites + ", workDir=" + workDir + ", reconcileTimeout=" + reconcileTimeout
                + ", kubeVersion=" + kubeVersion + ", k3sImage=" + k3sImage + ", nodesFile=" + nodesFile + ", slicesFile=" + slicesFile
                + ", helmLibraryDir=" + helmLibraryDir + ", rayDir=" + rayDir + ", ci=" + ci + ", controllerLock=" + controllerLock
                + ", lookupKubeconfig=" + lookupKubeconfig + "]";
    }

    private Settings with(Consumer<Values> change) {
        Values v = new Values(this);
        change.accept(v);
        return new Settings(v);
    }

    private static Path abs(Path path) {
        return path.toAbsolutePath().normalize();
    }

    /** The fields while a copy is made. */
    private static final class Values {
        Path binariesDir;
        BinarySource binaryBuilder;
        Path crdsDir;
        Path chartDir;
        Path examplesDir;
        List<Path> valuesDirs = List.of();
        String cluster = "auto";
        Path kubeconfig;
        String clusterWrites = "namespaced";
        Path workDir = abs(Path.of("target"));
        Duration reconcileTimeout;
        String kubeVersion = DEFAULT_KUBE_VERSION;
        String k3sImage = DEFAULT_K3S_IMAGE;
        Path nodesFile;
        Path slicesFile;
        Path helmLibraryDir;
        Path rayDir;
        boolean ci;
        Path controllerLock;
        Path lookupKubeconfig;

        Values() {
        }

        Values(Settings s) {
            binariesDir = s.binariesDir.orElse(null);
            binaryBuilder = s.binaryBuilder.orElse(null);
            crdsDir = s.crdsDir.orElse(null);
            chartDir = s.chartDir.orElse(null);
            examplesDir = s.examplesDir.orElse(null);
            valuesDirs = s.valuesDirs;
            cluster = s.cluster;
            kubeconfig = s.kubeconfig.orElse(null);
            clusterWrites = s.clusterWrites;
            workDir = s.workDir;
            reconcileTimeout = s.reconcileTimeout.orElse(null);
            kubeVersion = s.kubeVersion;
            k3sImage = s.k3sImage;
            nodesFile = s.nodesFile.orElse(null);
            slicesFile = s.slicesFile.orElse(null);
            helmLibraryDir = s.helmLibraryDir.orElse(null);
            rayDir = s.rayDir.orElse(null);
            ci = s.ci;
            controllerLock = s.controllerLock.orElse(null);
            lookupKubeconfig = s.lookupKubeconfig.orElse(null);
        }
    }
}
