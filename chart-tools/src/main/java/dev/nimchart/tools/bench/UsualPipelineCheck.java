package dev.nimchart.tools.bench;

import dev.nimchart.values.ExampleValuesFiles;
import dev.nimchart.cluster.ClusterSession;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.representer.Representer;

/**
 * A manual check of {@link UsualPipeline} against schemas from a real API server: starts a cluster (see
 * {@code ClusterSession}), takes its {@code /openapi/v2} (CRDs included) and tears it down, writes the kubeconform
 * schemas to target/kubeconform-schemas, runs the pipeline over every valid example and prints a table; then feeds
 * kubeconform rendered manifests with one unknown field planted in the Deployment and in the LeaderWorkerSet, which
 * must be refused. Exits 1 when an example fails or a broken manifest passes.
 * <p>
 * {@code mvn -pl chart-tools -am compile exec:exec@usual-pipeline} (needs target/crds: generate-test-resources once).
 */
public final class UsualPipelineCheck {

    private UsualPipelineCheck() {
    }

    public static void main(String[] args) throws IOException {
        dev.nimchart.settings.Settings paths = dev.nimchart.settings.SettingsFromProperties.shared();
        Path work = Path.of("target", "usual-pipeline");
        Path schemasDir = Path.of("target", "kubeconform-schemas");
        long t0 = System.nanoTime();
        Consumer<String> progress = line -> System.err.printf("[%5.1fs] %s%n", (System.nanoTime() - t0) / 1e9, line);

        UsualPipeline pipeline = UsualPipeline.prepare(paths, work, schemasDir, progress);
        pipeline.runAll(ExampleValuesFiles.of(paths).valid()); // warm-up: page cache, first exec
        List<UsualPipeline.Result> results = pipeline.runAll(ExampleValuesFiles.of(paths).valid());
        System.out.println(UsualPipeline.table(results));
        long[] ms = results.stream().mapToLong(r -> r.wallNanos() / 1_000_000).sorted().toArray();
        System.out.printf("%d files: total %d ms, median %d ms, min %d ms, max %d ms%n%n", ms.length,
                java.util.Arrays.stream(ms).sum(), ms[ms.length / 2], ms[0], ms[ms.length - 1]);
        boolean ok = results.stream().allMatch(UsualPipeline.Result::passed);

        Path examples = paths.examplesDir();
        ok &= refused(pipeline, examples.resolve("single-node-deployment-static-volume.yaml"), "Deployment",
                List.of("spec", "template", "spec", "containers", "0"));
        ok &= refused(pipeline, examples.resolve("multi-node-llama-3.1-405b-lws.yaml"), "LeaderWorkerSet",
                List.of("spec", "leaderWorkerTemplate", "workerTemplate", "spec", "containers", "0"));
        ok &= refused(pipeline, examples.resolve("multi-node-llama-3.1-405b-lws.yaml"), "LeaderWorkerSet",
                List.of("spec", "leaderWorkerTemplate"));
        System.exit(ok ? 0 : 1);
    }

    /** Renders the file, plants {@code unknownField: 1} at the path in the object of that kind, validates. */
    private static boolean refused(UsualPipeline pipeline, Path valuesFile, String kind, List<String> path) {
        Yaml yaml = new Yaml(new SafeConstructor(new LoaderOptions()), new Representer(new DumperOptions()), new DumperOptions());
        List<Object> documents = new ArrayList<>();
        yaml.loadAll(pipeline.template(valuesFile)).forEach(documents::add);
        Map<String, Object> target = documents.stream().filter(d -> d instanceof Map<?, ?> m && kind.equals(m.get("kind")))
                .map(UsualPipelineCheck::map).findFirst()
                .orElseThrow(() -> new IllegalStateException(valuesFile + " renders no " + kind));
        Object at = target;
        for (String step : path) {
            at = at instanceof List<?> list ? list.get(Integer.parseInt(step)) : map(at).get(step);
        }
        map(at).put("unknownField", 1);
        UsualPipeline.Result result = UsualPipeline.validate(pipeline.kubeconform(), pipeline.schemaLocation(),
                yaml.dumpAll(documents.iterator()));
        boolean refused = result.invalid() == 1 && result.valid() == result.validated() - 1;
        System.out.printf("%s with %s.%s.unknownField: %s (%d valid, %d invalid, %d errors, %d skipped)%n    %s%n",
                valuesFile.getFileName(), kind, String.join(".", path), refused ? "refused" : "NOT REFUSED", result.valid(),
                result.invalid(), result.errors(), result.skipped(), result.errorText().replace("\n", "\n    "));
        return refused;
    }


    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }
}
