package dev.nimchart.chart.repository;

import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.PodTemplate;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartUnderTest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** One values file with its merged values and its render, rendered once per test JVM. */
public final class Example {

    private static final Map<Path, Example> CACHE = new java.util.concurrent.ConcurrentHashMap<>();

    final Path file;
    public final KubeObject values;
    public final RenderedManifest manifest;
    /** The model's pod templates (every template but the Inference Gateway's endpoint picker's). */
    public final List<PodTemplate> templates;

    private Example(Path file) {
        this.file = file;
        this.values = new KubeObject(ChartUnderTest.values(file));
        this.manifest = ChartUnderTest.render(file);
        this.templates = modelTemplates(manifest);
    }

    /** The pod templates of a manifest but the endpoint picker's (inferencePool.enabled), which runs no model. */
    public static List<PodTemplate> modelTemplates(RenderedManifest manifest) {
        return PodTemplate.of(manifest).stream().filter(t -> !t.role().equals(PodTemplate.ENDPOINT_PICKER)).toList();
    }

    /** Whether an object belongs to the endpoint picker (its Deployment, Service, ServiceAccount, Role, ConfigMap). */
    public static boolean endpointPicker(KubeObject o) {
        return PodTemplate.ENDPOINT_PICKER.equals(String.valueOf(o.labels().get("app.kubernetes.io/component")));
    }

    public static Example of(Path file) {
        return CACHE.computeIfAbsent(file, Example::new);
    }

    public String name() {
        return file.getFileName().toString();
    }

    public boolean flag(String path) {
        return Boolean.TRUE.equals(values.at(path));
    }

    public int integer(String path) {
        Object v = values.at(path);
        return v == null ? 0 : Integer.parseInt(v.toString());
    }

    public String text(String path) {
        Object v = values.at(path);
        return v == null ? "" : v.toString();
    }

    public boolean multiNode() {
        return flag("multiNode.enabled");
    }

    /** statefulset | deployment | leaderworkerset | mpijob, decided from the values as the chart documents it. */
    public String mode() {
        if (multiNode()) {
            return flag("multiNode.leaderWorkerSet.enabled") ? "leaderworkerset" : "mpijob";
        }
        return flag("statefulSet.enabled") ? "statefulset" : "deployment";
    }

    /**
     * How a multi-node group starts (mpi | native | ray), by the rule the chart documents for multiNode.launchMode: an
     * MPIJob is mpi; an explicit mode wins; auto is ray for an image.tag of major version 2 or more, else native when
     * env sets NIM_USE_SGLANG=1, else mpi.
     */
    public String launchMode() {
        return launchMode(values);
    }

    /** {@link #launchMode()} of merged values. */
    public static String launchMode(KubeObject values) {
        String mode = String.valueOf(values.at("multiNode.launchMode"));
        if (!Boolean.TRUE.equals(values.at("multiNode.leaderWorkerSet.enabled"))) {
            return "mpi";
        }
        if (!mode.equals("auto")) {
            return mode;
        }
        java.util.regex.Matcher version = java.util.regex.Pattern.compile("^v?(\\d+)\\.\\d+").matcher(String.valueOf(values.at("image.tag")));
        if (version.find() && Integer.parseInt(version.group(1)) >= 2) {
            return "ray";
        }
        boolean sglang = values.at("env") instanceof java.util.List<?> env && env.stream()
                .anyMatch(e -> e instanceof java.util.Map<?, ?> m && "NIM_USE_SGLANG".equals(m.get("name")) && "1".equals(String.valueOf(m.get("value"))));
        return sglang ? "native" : "mpi";
    }

    public int gpuLimit() {
        return integer("resources.limits[nvidia.com/gpu]");
    }

    /** The enabled networking provider, when it applies (multi-node), else null. */
    public String networkingProvider() {
        return networkingProvider(values);
    }

    /** The networking provider merged values inject: the enabled one in multi-node, else null. */
    public static String networkingProvider(KubeObject values) {
        if (!Boolean.TRUE.equals(values.at("multiNode.enabled"))) {
            return null;
        }
        return List.of("aws", "azure", "gcp", "oci").stream()
                .filter(p -> Boolean.TRUE.equals(values.at("multinodeNetworking." + p + ".enabled")))
                .findFirst().orElse(null);
    }

    /**
     * The directories the chart prepends to the image's LD_LIBRARY_PATH in the GPU pods (files/mpi/library-path.sh):
     * the AWS provider's ldLibraryPath, GCP's mounted TCPXO plugin directory, else empty.
     */
    public String libraryPathPrefix() {
        String provider = networkingProvider();
        if ("aws".equals(provider)) {
            return text("multinodeNetworking.aws.ldLibraryPath");
        }
        return "gcp".equals(provider) ? "/usr/local/nvidia/lib64" : "";
    }

    /** The user's env entries by name. */
    public Map<String, KubeObject> userEnv() {
        Map<String, KubeObject> env = new java.util.LinkedHashMap<>();
        Object list = values.at("env");
        if (list instanceof List<?> items) {
            for (Object i : items) {
                @SuppressWarnings("unchecked")
                KubeObject e = new KubeObject((Map<String, Object>) i);
                env.put((String) e.at("name"), e);
            }
        }
        return env;
    }

    public List<PodTemplate> gpuTemplates() {
        return templates.stream().filter(PodTemplate::gpuPod).toList();
    }

    /**
     * The role the chart gives a Service in its {@code <prefix>/service} label ({@code inference} for the one clients
     * use), whatever the prefix (nim-llm, or a vendored copy's own); null when it has none.
     */
    public static Object serviceRole(KubeObject service) {
        return service.labels().entrySet().stream().filter(e -> e.getKey().endsWith("/service")).map(java.util.Map.Entry::getValue)
                .findFirst().orElse(null);
    }

    @Override
    public String toString() {
        return name();
    }
}
