package dev.nimchart.settings;

import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * The one place that reads the harness's system properties and environment variables, and the one place that knows
 * this machine's cache paths (~/.cache/nim-llm-chart, Ray's default install directory): it builds the {@link Settings}
 * of the command line ({@code CheckChart}), of this repository's own tests and of the JUnit adapters. A library user
 * who builds {@link Settings} itself never comes here. Every property keeps the name and meaning it had
 * (docs/harness.md, docs/existing-cluster.md, pom.xml and ci/*.sh pass them); a relative path in a property is
 * relative to the Maven module the tests run in ({@code basedir}), where the user typed it, not to a forked JVM's
 * working directory. It knows no repository's layout: the chart, the examples and the directory of build scripts come
 * from their properties only ({@value #CHART_DIR}, {@value #EXAMPLES_DIR}, {@value #CI_DIR}); with none given, what
 * needs one says which property to set.
 */
public final class SettingsFromProperties {

    public static final String BINARIES_DIR = "nim.binaries.dir";
    public static final String CI_DIR = "nim.ci.dir";
    public static final String CRDS_DIR = "nim.crds.dir";
    public static final String CHART_DIR = "nim.chart.dir";
    public static final String EXAMPLES_DIR = "nim.examples.dir";
    /** Extra directories of values files, separated by commas or the platform's path separator. */
    public static final String VALUES_DIRS = "nim.values.dirs";
    public static final String CLUSTER = "nim.cluster";
    public static final String KUBECONFIG = "nim.kubeconfig";
    public static final String CLUSTER_WRITES = "nim.cluster.writes";
    /** Seconds, for both the harness's own cluster and an existing one. */
    public static final String RECONCILE_TIMEOUT = "nim.reconcile.timeout";
    public static final String KUBE_VERSION = "nim.kube.version";
    public static final String K3S_IMAGE = "nim.k3s.image";
    public static final String NODES_FILE = "nim.nodes.file";
    public static final String SLICES_FILE = "nim.slices.file";
    public static final String HELM_LIBRARY_DIR = "nim.helm.library.dir";
    public static final String RAY_DIR = "nim.ray.dir";
    /** Where ci/install-ray.sh installs Ray by default. */
    public static final String DEFAULT_RAY_DIR = "/usr/local/lib/nim-llm-chart/ray";

    private static final Pattern LIST_SEPARATOR = Pattern.compile("[," + Pattern.quote(File.pathSeparator) + "]");

    private static volatile Settings shared;

    private final UnaryOperator<String> properties;
    private final UnaryOperator<String> environment;
    private final Path workingDir;

    SettingsFromProperties(UnaryOperator<String> properties, UnaryOperator<String> environment, Path workingDir) {
        this.properties = properties;
        this.environment = environment;
        this.workingDir = workingDir.toAbsolutePath().normalize();
    }

    /** This JVM's settings, read once on first use. */
    public static Settings shared() {
        Settings s = shared;
        if (s == null) {
            synchronized (SettingsFromProperties.class) {
                if (shared == null) {
                    shared = fromSystemProperties();
                }
                s = shared;
            }
        }
        return s;
    }

    /** Settings read now from this JVM's system properties and environment. */
    public static Settings fromSystemProperties() {
        return new SettingsFromProperties(System::getProperty, System::getenv, Path.of("")).settings();
    }

    /** Settings from these properties and environment variables, relative paths against this working directory. */
    public static Settings from(Map<String, String> properties, Map<String, String> environment, Path workingDir) {
        return new SettingsFromProperties(properties::get, environment::get, workingDir).settings();
    }

    Settings settings() {
        Settings s = Settings.defaults()
                .withWorkDir(workingDir.resolve("target"))
                .withCluster(property(CLUSTER).orElse("auto"))
                .withClusterWrites(property(CLUSTER_WRITES).orElse("namespaced"))
                .withKubeVersion(property(KUBE_VERSION).orElse(Settings.DEFAULT_KUBE_VERSION))
                .withK3sImage(property(K3S_IMAGE).orElse(Settings.DEFAULT_K3S_IMAGE))
                .withRayDir(Path.of(property(RAY_DIR).orElse(DEFAULT_RAY_DIR)))
                .withCi("true".equalsIgnoreCase(environment.apply("CI")))
                .withValuesDirs(valuesDirs())
                .withBinaryBuilder(buildScripts());
        s = userPath(BINARIES_DIR).map(s::withBinariesDir).orElse(s);
        s = property(CRDS_DIR).map(d -> workingDir.resolve(d)).map(s::withCrdsDir).orElse(s);
        s = userPath(CHART_DIR).map(s::withChartDir).orElse(s);
        s = userPath(EXAMPLES_DIR).map(s::withExamplesDir).orElse(s);
        s = userPath(KUBECONFIG).map(s::withKubeconfig).orElse(s);
        s = reconcileTimeout().map(s::withReconcileTimeout).orElse(s);
        s = userPath(NODES_FILE).map(s::withNodesFile).orElse(s);
        s = userPath(SLICES_FILE).map(s::withSlicesFile).orElse(s);
        s = property(HELM_LIBRARY_DIR).map(d -> workingDir.resolve(d)).map(s::withHelmLibraryDir).orElse(s);
        s = home().map(h -> h.resolve(".cache/nim-llm-chart/controller-tier.lock")).map(s::withControllerLock).orElse(s);
        s = Optional.ofNullable(environment.apply("KUBECONFIG")).filter(k -> !k.isBlank()).map(k -> workingDir.resolve(k))
                .map(s::withLookupKubeconfig).orElse(s);
        return s;
    }

    /**
     * A path a user gave in a system property: a relative one is relative to the Maven module the tests run in (the
     * {@code basedir} property Surefire and Failsafe set), where the user typed it, not to a forked JVM's working
     * directory; outside Maven, to the working directory.
     */
    private Optional<Path> userPath(String name) {
        return property(name).map(p -> userDir().resolve(p).normalize());
    }

    private Path userDir() {
        return Optional.ofNullable(properties.apply("basedir")).map(String::strip).filter(b -> !b.isEmpty())
                .map(b -> workingDir.resolve(b)).orElse(workingDir);
    }

    private List<Path> valuesDirs() {
        return property(VALUES_DIRS).stream()
                .flatMap(LIST_SEPARATOR::splitAsStream)
                .map(String::strip)
                .filter(dir -> !dir.isEmpty())
                .map(dir -> userDir().resolve(dir).normalize())
                .toList();
    }

    /** -Dnim.reconcile.timeout in seconds; blank or not a number: not given (as Long.getLong took it). */
    private Optional<Duration> reconcileTimeout() {
        try {
            return property(RECONCILE_TIMEOUT).map(Long::parseLong).map(Duration::ofSeconds);
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * The directory of build scripts ({@link BuildScripts}) of -D{@value #CI_DIR}, relative to the module; none given: a
     * builder that says, when asked for a program, which properties give one.
     */
    private BinarySource buildScripts() {
        return property(CI_DIR).map(d -> workingDir.resolve(d).normalize()).<BinarySource>map(BuildScripts::in)
                .orElseGet(() -> missing("no programs for the tiers and nothing to build them with: give the programs' directory"
                        + " with -D" + BINARIES_DIR + "=DIR, or a directory of build scripts (one with a " + BuildScripts.MANIFEST
                        + " manifest) with -D" + CI_DIR + "=DIR"));
    }

    private Optional<Path> home() {
        return Optional.ofNullable(properties.apply("user.home")).filter(h -> !h.isBlank()).map(Path::of);
    }

    private Optional<String> property(String name) {
        return Optional.ofNullable(properties.apply(name)).map(String::strip).filter(value -> !value.isEmpty());
    }

    private static BinarySource missing(String why) {
        return new BinarySource() {
            @Override
            public Path controlPlane(String version, Consumer<String> progress) {
                throw new ToolUnavailableException(why);
            }

            @Override
            public Map<String, Path> controllers(String kubeVersion, Consumer<String> progress) {
                throw new ToolUnavailableException(why);
            }

            @Override
            public Path tool(String name, Consumer<String> progress) {
                throw new ToolUnavailableException(why);
            }

            @Override
            public Path pythonTool(String name, Consumer<String> progress) {
                throw new ToolUnavailableException(why);
            }

            @Override
            public void crds(Path dir, Consumer<String> progress) {
                throw new ToolUnavailableException(why);
            }

            @Override
            public void startupTools(Consumer<String> progress) {
                throw new ToolUnavailableException(why);
            }

            @Override
            public void ray(Path dir, Consumer<String> progress) {
                throw new ToolUnavailableException(why);
            }

            @Override
            public void modelProxyTools(Consumer<String> progress) {
                throw new ToolUnavailableException(why);
            }

            @Override
            public String toString() {
                return why;
            }
        };
    }
}
