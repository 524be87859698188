package dev.nimchart.render;

import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.settings.Settings;
import dev.nimchart.values.FileTrees;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Renders one chart with {@code helm template} through helm-java (Helm embedded as a native library). */
public final class ChartRenderer {

    /**
     * The Kubernetes version every render claims; helm-java would otherwise claim v1.20. The oldest minor the suite runs
     * a cluster of (so a chart's kubeVersion that claims it renders offline too).
     */
    public static final String KUBE_VERSION = "1.34.0";

    /** What Helm's CLI appends to a template error; it means nothing here. */
    private static final String DEBUG_HINT = "Use --debug flag to render out invalid YAML";

    private final Helm helm;
    /** The chart directory this renderer renders (for a renderer without the values schema: the original's). */
    private final Path chartDir;
    /** The file Helm's lookups read ({@link Settings#lookupKubeconfig()}), which the stub writes. */
    private final Optional<Path> lookupKubeconfig;
    /** The stub that answers this renderer's Helm lookups, started with its first render. */
    private volatile LookupStub lookups;

    /**
     * A renderer of the chart in this directory with these settings: Helm's lookups go to a stub at
     * {@link Settings#lookupKubeconfig()}, and Helm's native library is unpacked into {@link Settings#helmLibraryDir()}
     * when given (both once per process: the first renderer's settings decide, as Helm's library loads once).
     */
    public ChartRenderer(Path chartDir, Settings settings) {
        this(chartDir, chartDir, settings);
    }

    /** A renderer of the chart in {@code renderedDir} that stands for the chart in {@code chartDir} (a copy of it). */
    private ChartRenderer(Path chartDir, Path renderedDir, Settings settings) {
        UnpackedHelmLibrary.unpackInto(settings.helmLibraryDir());
        this.lookupKubeconfig = settings.lookupKubeconfig();
        this.helm = new Helm(renderedDir);
        this.chartDir = chartDir.toAbsolutePath().normalize();
    }

    /**
     * The manifest {@code helm template} prints for these values files (in order) and {@code --set} values.
     *
     * @throws ChartRefusedException with Helm's error text when Helm refuses the values or a template fails
     */
    public String template(String releaseName, String namespace, List<Path> valuesFiles, Map<String, String> setValues) {
        return template(releaseName, namespace, valuesFiles, setValues, KUBE_VERSION);
    }

    /** As {@link #template(String, String, List, Map)}, claiming Kubernetes {@code kubeVersion} (a rule that depends on it). */
    public String template(String releaseName, String namespace, List<Path> valuesFiles, Map<String, String> setValues, String kubeVersion) {
        lookups();
        TemplateCommand command = helm.template()
                .withName(releaseName)
                .withNamespace(namespace)
                .withKubeVersion(kubeVersion);
        valuesFiles.forEach(command::withValuesFile);
        setValues.forEach(command::set);
        try {
            return command.call();
        } catch (IllegalStateException e) {
            throw new ChartRefusedException(e.getMessage().replace(DEBUG_HINT, "").strip(), e);
        }
    }

    /**
     * Loads Helm's native library now (unpacking it, loading it, starting its Go runtime: a few hundred milliseconds
     * once per JVM) rather than in the first render, unpacked where the settings say ({@link Settings#helmLibraryDir()}).
     * Throws what the first render would throw when it cannot be loaded.
     */
    public static void loadHelmLibrary(Settings settings) {
        UnpackedHelmLibrary.unpackInto(settings.helmLibraryDir());
        Helm.version().call();
    }

    /**
     * The stub that answers this renderer's Helm {@code lookup} calls (helm-java's {@code template} performs real
     * lookups against the cluster of {@code KUBECONFIG}, which must name a writable file ending in
     * {@value LookupStub#KUBECONFIG_FILE_NAME}: the stub writes its loopback address there, so a render never reaches a
     * real cluster). Started with the first render; a test hands the chart live objects or Secrets through it.
     */
    public LookupStub lookups() {
        LookupStub stub = lookups;
        if (stub == null) {
            stub = LookupStub.forRenderers(lookupKubeconfig);
            lookups = stub;
        }
        return stub;
    }

    /**
     * A renderer of a copy of the chart without its values.schema.json and its vendored subcharts' (in a temporary
     * directory removed when the JVM ends): Helm then skips its own schema check, which costs more than the render
     * itself for a chart that embeds Kubernetes definitions. For values an independent validator has already accepted.
     */
    public static ChartRenderer withoutValuesSchema(Path chartDir, Settings settings) {
        try {
            List<Path> schemas;
            try (Stream<Path> files = Files.walk(chartDir)) {
                schemas = files.filter(ChartRenderer::isValuesSchema).toList();
            }
            if (schemas.isEmpty()) {
                return new ChartRenderer(chartDir, settings);
            }
            Path copy = Files.createTempDirectory("chart-without-schema-").resolve(chartDir.getFileName().toString());
            FileTrees.copy(chartDir, copy, schemas::contains);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(copy.getParent())));
            return new ChartRenderer(chartDir, copy, settings);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy the chart " + chartDir, e);
        }
    }

    /** A values.schema.json Helm checks: the one beside a Chart.yaml (the chart's, or a vendored subchart's). */
    private static boolean isValuesSchema(Path file) {
        return file.getFileName().toString().equals("values.schema.json") && Files.isRegularFile(file.resolveSibling("Chart.yaml"));
    }

    private static void deleteTree(Path dir) {
        try {
            FileTrees.delete(dir);
        } catch (IOException ignored) {
            // a temporary directory left behind is harmless
        }
    }

    /** A release name derived from the values file name: lower case, DNS-safe, at most 30 characters. */
    public static String releaseName(Path valuesFile) {
        String base = valuesFile.getFileName().toString().replaceFirst("\\.ya?ml$", "").toLowerCase(Locale.ROOT);
        String name = base.replaceAll("[^a-z0-9-]+", "-");
        name = name.length() > 30 ? name.substring(0, 30) : name;
        return name.replaceAll("^-+|-+$", "");
    }

    /**
     * A short release name unique to the values file: up to 8 characters of its name ({@link #releaseName(Path)}, a
     * leading digit prefixed with {@code r}), a dash and 6 hex digits of a hash of its absolute path, e.g.
     * {@code daemonse-3fa1c9} for {@code ci/daemonset-customnodeport-values.yaml}: at most 15 characters, so that the
     * chart's object names (usually the release and the chart's name, plus a suffix) stay within 63. The same file
     * always gets the same name (a failure can be reproduced); two files of the same name in different charts do not.
     */
    public static String shortReleaseName(Path valuesFile) {
        String base = releaseName(valuesFile);
        String prefix = (base.length() > 8 ? base.substring(0, 8) : base).replaceAll("-+$", "");
        if (prefix.isEmpty() || !Character.isLetter(prefix.charAt(0))) {
            prefix = ("r" + prefix).replaceAll("-+$", "");
        }
        try {
            byte[] digest = java.security.MessageDigest.getInstance("SHA-256")
                    .digest(valuesFile.toAbsolutePath().normalize().toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return prefix + "-" + java.util.HexFormat.of().formatHex(digest).substring(0, 6);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("no SHA-256 in this JVM", e);
        }
    }

    /** {@link #template} parsed into objects. */
    public RenderedManifest render(String releaseName, String namespace, List<Path> valuesFiles, Map<String, String> setValues) {
        return RenderedManifest.parse(template(releaseName, namespace, valuesFiles, setValues));
    }

    /**
     * The release rendered as {@code helm install} of it would apply it (its name, namespace, values files and sets).
     *
     * @throws IllegalArgumentException when the release is of another chart than this renderer's
     * @throws ChartRefusedException with Helm's error text when Helm refuses the values or a template fails
     */
    public RenderedManifest render(Release release) {
        if (!release.chart().toAbsolutePath().normalize().equals(chartDir)) {
            throw new IllegalArgumentException("the release " + release.namespace() + "/" + release.name() + " is of the chart "
                    + release.chart() + ", not of this renderer's " + chartDir);
        }
        return render(release.name(), release.namespace(), release.valuesFiles(), release.sets());
    }
}
