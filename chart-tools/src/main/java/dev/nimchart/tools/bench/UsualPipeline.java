package dev.nimchart.tools.bench;

import dev.nimchart.render.ChartRenderer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import tools.jackson.databind.json.JsonMapper;

/**
 * The pipeline a chart's CI usually runs per values file, as processes:
 * {@code helm template RELEASE CHART -f FILE --namespace nim --kube-version 1.34.0 | kubeconform -strict -summary
 * -output json -schema-location TEMPLATE}, with the Helm CLI and kubeconform built from their Go modules
 * (ci/build-tools.sh) and the schemas prepared offline ({@link KubeconformSchemas}). kubeconform runs without
 * {@code -ignore-missing-schemas}, so a kind without a schema is an error, never a skip; its schema location is a local
 * path, so it never touches the network. Helm gets its own config, cache and data directories and no kubeconfig.
 */
public final class UsualPipeline {

    /** The namespace every release is rendered in, as in the harness. */
    public static final String NAMESPACE = "nim";

    /**
     * One run: the values file (or "stdin"), wall time of the processes, kubeconform's JSON summary and what went
     * wrong (empty when nothing did). {@code validated} is the sum of the four counts.
     */
    public record Result(String source, long wallNanos, int validated, int valid, int invalid, int errors, int skipped,
                         String errorText) {

        /** Every resource valid, at least one, and nothing refused, failed or skipped. */
        public boolean passed() {
            return errorText.isEmpty() && valid > 0 && valid == validated;
        }
    }

    private final Path helm;
    private final Path kubeconform;
    private final Path chartDir;
    private final String schemaLocation;
    private final Path workDir;

    /**
     * @param schemaLocation kubeconform's {@code -schema-location}, e.g. {@link KubeconformSchemas#schemaLocation}
     * @param workDir        holds Helm's home directories and the processes' stderr
     */
    public UsualPipeline(Path helm, Path kubeconform, Path chartDir, String schemaLocation, Path workDir) {
        this.helm = helm;
        this.kubeconform = kubeconform;
        this.chartDir = chartDir.toAbsolutePath();
        this.schemaLocation = schemaLocation;
        this.workDir = workDir.toAbsolutePath();
    }

    /** The kubeconform binary the pipeline runs. */
    public Path kubeconform() {
        return kubeconform;
    }

    /** The {@code -schema-location} the pipeline passes to kubeconform. */
    public String schemaLocation() {
        return schemaLocation;
    }

    /**
     * Prepares the pipeline offline: starts a cluster (see {@code ClusterSession}), takes its {@code /openapi/v2}
     * (built-in kinds and the installed CRDs), tears it down, writes the kubeconform schemas to schemasDir (emptied
     * first) and finds the built helm and kubeconform. Progress, with the schema count and time, goes to progress.
     */
    public static UsualPipeline prepare(dev.nimchart.settings.Settings settings, Path workDir, Path schemasDir, Consumer<String> progress) throws IOException {
        Path chartDir = settings.chartDir();
        Map<String, Object> openApi;
        try (dev.nimchart.cluster.ClusterSession session = dev.nimchart.cluster.ClusterSession.start(settings, workDir, progress)) {
            openApi = dev.nimchart.cluster.KubeApi.require(session.api().get("/openapi/v2"), "read /openapi/v2");
        }
        if (Files.isDirectory(schemasDir)) {
            try (java.util.stream.Stream<Path> old = Files.list(schemasDir)) {
                for (Path f : old.toList()) {
                    Files.delete(f);
                }
            }
        }
        long started = System.nanoTime();
        List<Path> files = new KubeconformSchemas(openApi).writeTo(schemasDir);
        progress.accept(String.format("%d kubeconform schema files written in %d ms to %s", files.size(),
                (System.nanoTime() - started) / 1_000_000, schemasDir.toAbsolutePath()));
        return new UsualPipeline(dev.nimchart.cluster.BinaryAssets.of(settings).tool("helm", progress), dev.nimchart.cluster.BinaryAssets.of(settings).tool("kubeconform", progress), chartDir,
                KubeconformSchemas.schemaLocation(schemasDir), workDir);
    }

    /** Runs {@code helm template ... | kubeconform ...} for one values file, as release {@code ChartRenderer.releaseName}. */
    public Result run(Path valuesFile) {
        ProcessBuilder template = helmTemplate(valuesFile).redirectError(workDir.resolve("helm.stderr").toFile());
        ProcessBuilder validate = kubeconform(kubeconform, schemaLocation).redirectError(workDir.resolve("kubeconform.stderr").toFile());
        long started = System.nanoTime();
        try {
            List<Process> processes = ProcessBuilder.startPipeline(List.of(template, validate));
            byte[] json = readAll(processes.get(1).getInputStream());
            int helmExit = processes.get(0).waitFor();
            int kubeconformExit = processes.get(1).waitFor();
            long wall = System.nanoTime() - started;
            List<String> stderr = new ArrayList<>();
            if (helmExit != 0) {
                stderr.add("helm template exited " + helmExit + ": " + read(workDir.resolve("helm.stderr")));
            }
            String kubeconformStderr = read(workDir.resolve("kubeconform.stderr"));
            if (!kubeconformStderr.isEmpty()) {
                stderr.add("kubeconform stderr: " + kubeconformStderr);
            }
            return result(valuesFile.getFileName().toString(), wall, json, kubeconformExit, stderr);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run the pipeline for " + valuesFile, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** {@link #run} for each file in turn. */
    public List<Result> runAll(List<Path> valuesFiles) {
        return valuesFiles.stream().map(this::run).toList();
    }

    /** What {@code helm template} prints for one values file (stdout), or an exception with its stderr. */
    public String template(Path valuesFile) {
        try {
            Process process = helmTemplate(valuesFile).redirectError(workDir.resolve("helm.stderr").toFile()).start();
            String manifest = new String(readAll(process.getInputStream()), StandardCharsets.UTF_8);
            if (process.waitFor() != 0) {
                throw new IllegalStateException("helm template failed for " + valuesFile + ": " + read(workDir.resolve("helm.stderr")));
            }
            return manifest;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** kubeconform alone, with the pipeline's flags, over a manifest given on its stdin. */
    public static Result validate(Path kubeconform, String schemaLocation, String manifest) {
        long started = System.nanoTime();
        Path stderrFile = null;
        try {
            stderrFile = Files.createTempFile("kubeconform", ".stderr");
            Process process = kubeconform(kubeconform, schemaLocation).redirectError(stderrFile.toFile()).start();
            try (var stdin = process.getOutputStream()) {
                stdin.write(manifest.getBytes(StandardCharsets.UTF_8));
            }
            byte[] json = readAll(process.getInputStream());
            int exit = process.waitFor();
            String stderr = read(stderrFile);
            return result("stdin", System.nanoTime() - started, json, exit,
                    stderr.isEmpty() ? List.of() : List.of("kubeconform stderr: " + stderr));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            if (stderrFile != null) {
                stderrFile.toFile().delete();
            }
        }
    }

    /**
     * The same pipeline as one shell script over the files, as a chart's CI runs it: {@code helm template ... |
     * kubeconform ...} per values file, one after the other, with the commands, flags and Helm environment of
     * {@link #run}; it exits 1 when any file fails.
     */
    public String shellScript(List<Path> valuesFiles) {
        StringBuilder script = new StringBuilder("#!/usr/bin/env bash\n# helm template | kubeconform -strict per values file"
                + " (written by dev.nimchart.tools.bench.UsualPipeline)\nset -uo pipefail\nstatus=0\n");
        if (!valuesFiles.isEmpty()) {
            Map<String, String> env = helmTemplate(valuesFiles.get(0)).environment();
            for (String name : List.of("HELM_CONFIG_HOME", "HELM_CACHE_HOME", "HELM_DATA_HOME", "KUBECONFIG")) {
                script.append("export ").append(name).append('=').append(shellQuoted(env.get(name))).append('\n');
            }
        }
        String validate = kubeconform(kubeconform, schemaLocation).command().stream().map(UsualPipeline::shellQuoted)
                .collect(Collectors.joining(" "));
        for (Path f : valuesFiles) {
            script.append(helmTemplate(f).command().stream().map(UsualPipeline::shellQuoted).collect(Collectors.joining(" ")))
                    .append(" | ").append(validate).append(" || status=1\n");
        }
        return script.append("exit $status\n").toString();
    }

    private static String shellQuoted(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }

    private ProcessBuilder helmTemplate(Path valuesFile) {
        ProcessBuilder builder = new ProcessBuilder(helm.toString(), "template", dev.nimchart.render.ChartRenderer.releaseName(valuesFile), chartDir.toString(),
                "-f", valuesFile.toAbsolutePath().toString(), "--namespace", NAMESPACE, "--kube-version", ChartRenderer.KUBE_VERSION);
        Map<String, String> env = builder.environment();
        for (String home : List.of("CONFIG", "CACHE", "DATA")) {
            Path dir = workDir.resolve("helm-" + home.toLowerCase());
            createDirectories(dir);
            env.put("HELM_" + home + "_HOME", dir.toString());
        }
        env.put("KUBECONFIG", workDir.resolve("no-cluster.kubeconfig").toString());
        return builder;
    }

    private static ProcessBuilder kubeconform(Path kubeconform, String schemaLocation) {
        return new ProcessBuilder(kubeconform.toString(), "-strict", "-summary", "-output", "json", "-schema-location", schemaLocation);
    }

    /** Reads kubeconform's JSON output; anything else it printed, or a non-zero exit, goes to the error text. */
    private static Result result(String source, long wallNanos, byte[] json, int exit, List<String> stderr) {
        List<String> problems = new ArrayList<>(stderr);
        Map<String, Object> report;
        try {
            report = JsonMapper.shared().readValue(json, Map.class);
        } catch (RuntimeException e) {
            problems.add("kubeconform exited " + exit + " without a JSON report: " + new String(json, StandardCharsets.UTF_8).strip());
            return new Result(source, wallNanos, 0, 0, 0, 0, 0, String.join("\n", problems));
        }
        Map<?, ?> summary = report.get("summary") instanceof Map<?, ?> s ? s : Map.of();
        int valid = count(summary, "valid");
        int invalid = count(summary, "invalid");
        int errors = count(summary, "errors");
        int skipped = count(summary, "skipped");
        if (report.get("resources") instanceof List<?> resources) {
            for (Object resource : resources) {
                Map<?, ?> r = (Map<?, ?>) resource;
                problems.add(r.get("status") + " " + r.get("kind") + "/" + r.get("name") + ": " + r.get("msg"));
            }
        }
        if (exit != 0 && problems.isEmpty()) {
            problems.add("kubeconform exited " + exit);
        }
        return new Result(source, wallNanos, valid + invalid + errors + skipped, valid, invalid, errors, skipped,
                String.join("\n", problems));
    }

    private static int count(Map<?, ?> summary, String key) {
        return summary.get(key) instanceof Number n ? n.intValue() : 0;
    }

    private static byte[] readAll(InputStream in) throws IOException {
        try (in) {
            return in.readAllBytes();
        }
    }

    private static String read(Path stderrFile) {
        try {
            return Files.readString(stderrFile).strip();
        } catch (IOException e) {
            return "(stderr unreadable: " + e.getMessage() + ")";
        }
    }

    private static void createDirectories(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Joins results as a table: file, ms, validated, valid, invalid, errors, skipped. */
    public static String table(List<Result> results) {
        return results.stream().map(r -> String.format("%-45s %8.1f ms %4d %4d %4d %4d %4d%s", r.source(), r.wallNanos() / 1e6,
                        r.validated(), r.valid(), r.invalid(), r.errors(), r.skipped(),
                        r.errorText().isEmpty() ? "" : "\n    " + r.errorText().replace("\n", "\n    ")))
                .collect(Collectors.joining("\n", String.format("%-45s %11s %4s %4s %4s %4s %4s%n", "values file", "wall",
                        "res", "ok", "inv", "err", "skip"), "\n"));
    }
}
