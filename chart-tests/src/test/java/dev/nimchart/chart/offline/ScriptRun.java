package dev.nimchart.chart.offline;

import dev.nimchart.objects.KubeObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One run of a chart's script (or a container's command) on this machine, as the offline tests run them: in a
 * directory, with only PATH (this machine's, after {@code pathFirst} when given) and the given variables in its
 * environment, stdout and stderr together, failing the test when it does not end within 30 s.
 */
record ScriptRun(int exit, String output) {

    /** Runs {@code command} in {@code dir} with {@code env}; {@code pathFirst} (or null) goes before this machine's PATH. */
    static ScriptRun of(List<String> command, Path dir, Path pathFirst, Map<String, String> env) throws Exception {
        // The output goes to a file: a command that prints more than a pipe holds would otherwise wait for a reader.
        Path output = Files.createTempFile("script-run", ".txt");
        try {
            ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(command)).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(output.toFile());
            pb.environment().clear();
            pb.environment().put("PATH", (pathFirst == null ? "" : pathFirst + ":") + System.getenv("PATH"));
            pb.environment().putAll(env);
            Process p = pb.start();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(command + " did not end within 30 s");
            }
            return new ScriptRun(p.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(output);
        }
    }

    /** The container's command then args, as a runtime runs them, with its literal env entries after {@code env}. */
    static ScriptRun ofContainer(KubeObject container, Path dir, Path pathFirst, Map<String, String> env) throws Exception {
        List<String> command = new ArrayList<>();
        ((List<?>) container.at("command")).forEach(c -> command.add(c.toString()));
        ((List<?>) container.at("args")).forEach(c -> command.add(c.toString()));
        Map<String, String> all = new LinkedHashMap<>(env);
        for (KubeObject e : container.list("env")) {
            all.put((String) e.at("name"), (String) e.at("value"));
        }
        return of(command, dir, pathFirst, all);
    }
}
