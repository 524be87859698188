package dev.nimchart.lint;

import dev.nimchart.cluster.BinaryAssets;
import dev.nimchart.settings.BinarySource;
import dev.nimchart.settings.Settings;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartRenderer;
import dev.nimchart.values.ValuesMerger;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * Established policy engines (kube-score and checkov) judge what a chart renders for values files, pods inside custom
 * resources included ({@link UnwrappedPods}); every finding a {@link PolicyExceptions} entry does not document is a
 * failure. The engines are the project's own pinned builds: kube-score from its Go module (ci/build-tools.sh), checkov
 * from PyPI into an environment of its own (ci/install-python-tools.sh).
 */
public final class PolicyCheck {

    /**
     * What the engines found.
     *
     * @param undocumented findings no exception documents: each one fails
     * @param documented   findings an exception documents
     * @param used         the exceptions that documented at least one finding
     */
    public record Result(List<Finding> undocumented, List<Finding> documented, Set<PolicyExceptions.Exception> used) {
    }

    private final List<PolicyEngine> engines;

    private PolicyCheck(List<PolicyEngine> engines) {
        this.engines = List.copyOf(engines);
    }

    /** kube-score and checkov from the settings' programs (this repository's ci/ scripts build or install them when not cached yet). */
    public static PolicyCheck withProjectTools(Settings settings, Consumer<String> progress) {
        BinarySource tools = BinaryAssets.of(settings);
        return new PolicyCheck(List.of(new KubeScore(tools.tool("kube-score", progress)),
                new Checkov(tools.pythonTool("checkov", progress))));
    }

    /** The engines' names, in the order they run. */
    public List<String> engines() {
        return engines.stream().map(PolicyEngine::name).toList();
    }

    /** Renders each values file (release named after it, in {@code namespace}) and judges all of them at once. */
    public Result run(Path chartDir, Settings settings, List<Path> valuesFiles, String namespace, PolicyExceptions exceptions) {
        Path workDir = settings.workDir();
        ChartRenderer renderer = new ChartRenderer(chartDir, settings);
        Map<String, RenderedManifest> manifests = new LinkedHashMap<>();
        Map<String, Map<String, Object>> values = new LinkedHashMap<>();
        for (Path file : valuesFiles) {
            String subject = file.getFileName().toString();
            manifests.put(subject, renderer.render(ChartRenderer.releaseName(file), namespace, List.of(file), Map.of()));
            values.put(subject, ValuesMerger.mergedValues(chartDir, List.of(file)));
        }
        return judge(manifests, values, namespace, exceptions, workDir);
    }

    /** Judges rendered manifests (subject to manifest, with each subject's merged values). */
    public Result judge(Map<String, RenderedManifest> manifests, Map<String, Map<String, Object>> values, String namespace,
            PolicyExceptions exceptions, Path workDir) {
        Path dir = workDir.resolve("policy-engines").toAbsolutePath();
        Map<String, Path> files = new LinkedHashMap<>();
        Map<String, Map<String, Map<String, Object>>> labels = new LinkedHashMap<>();
        try {
            if (Files.isDirectory(dir)) {
                try (var old = Files.list(dir)) {
                    for (Path p : old.toList()) {
                        Files.delete(p);
                    }
                }
            }
            Files.createDirectories(dir);
            DumperOptions options = new DumperOptions();
            options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
            Yaml yaml = new Yaml(options);
            int i = 0;
            for (Map.Entry<String, RenderedManifest> e : manifests.entrySet()) {
                List<Map<String, Object>> objects = UnwrappedPods.of(e.getValue(), namespace);
                Path file = dir.resolve(String.format("%03d-%s", i++, e.getKey().replaceAll("[^A-Za-z0-9._-]", "_")));
                Files.writeString(file, yaml.dumpAll(objects.iterator()));
                files.put(e.getKey(), file);
                labels.put(e.getKey(), labelsByObject(objects));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Finding> undocumented = new ArrayList<>();
        List<Finding> documented = new ArrayList<>();
        Set<PolicyExceptions.Exception> used = new LinkedHashSet<>();
        for (PolicyEngine engine : engines) {
            for (Finding f : engine.judge(files, labels)) {
                PolicyExceptions.Exception x = exceptions.documenting(f, values.getOrDefault(f.subject(), Map.of()));
                if (x == null) {
                    undocumented.add(f);
                } else {
                    documented.add(f);
                    used.add(x);
                }
            }
        }
        return new Result(undocumented, documented, used);
    }

    /** "Kind/name" to the labels of the object's pods (a pod template's), else of the object. */
    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> labelsByObject(List<Map<String, Object>> objects) {
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        for (Map<String, Object> o : objects) {
            Map<String, Object> meta = (Map<String, Object>) o.getOrDefault("metadata", Map.of());
            Object template = o.get("spec") instanceof Map<?, ?> spec ? spec.get("template") : null;
            Object templateLabels = template instanceof Map<?, ?> t && t.get("metadata") instanceof Map<?, ?> tm ? tm.get("labels") : null;
            Object l = templateLabels != null ? templateLabels : meta.get("labels");
            out.put(o.get("kind") + "/" + meta.get("name"), l instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of());
        }
        return out;
    }
}
