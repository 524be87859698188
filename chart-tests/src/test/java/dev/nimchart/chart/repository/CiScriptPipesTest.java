package dev.nimchart.chart.repository;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No pipeline in this repository's ci/ scripts stops reading before its writer ends ({@code | head}, {@code | grep -q},
 * {@code | grep -m}). The scripts run under {@code set -o pipefail}: when the reader exits early, a writer that writes
 * again dies of SIGPIPE (exit 141) and the whole pipeline, so the script, fails, by chance. It did: a fresh machine's
 * {@code ci/build-control-plane.sh} failed at its very end on {@code etcd --version | head -n 1} (etcd writes its four
 * lines in four writes) after a 34-minute build, and the same line failed 55 times in 100 at a load of about 11.
 * {@code sed -n 1p} reads to the end.
 */
class CiScriptPipesTest {

    private static final Pattern EARLY_READER = Pattern.compile("\\|\\s*(head\\b|grep\\s+(-[a-zA-Z]*[qm]|--quiet|--max-count))");

    @Test
    void noCiScriptPipesIntoAReaderThatStopsEarly() throws IOException {
        assertThat(earlyReaders(CiScript.ciDir())).as("pipelines into head or grep -q/-m in ci/ (use sed -n 1p, or grep on a file)").isEmpty();
    }

    @Test
    void theScanFindsThePipelineThatFailedTheColdBuild() throws IOException {
        Path dir = Files.createTempDirectory("ci-pipes");
        try {
            Files.writeString(dir.resolve("a.sh"), "set -euo pipefail\n\"${dest}/etcd\" --version | head -n 1 | sed 's/^/  /'\n"
                    + "ok=$(sed -n 1p <file)\n");
            Files.createDirectories(dir.resolve("lib"));
            Files.writeString(dir.resolve("lib/b.sh"), "kubectl get pods | grep -q Running\n# a comment | head is no pipeline\n");
            assertThat(earlyReaders(dir)).containsExactly("a.sh:2: \"${dest}/etcd\" --version | head -n 1 | sed 's/^/  /'",
                    "lib/b.sh:1: kubectl get pods | grep -q Running");
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** Lines (file:number: text) of the shell scripts under {@code dir} that pipe into a reader that stops early. */
    private static List<String> earlyReaders(Path dir) throws IOException {
        List<String> found = new ArrayList<>();
        List<Path> scripts;
        try (Stream<Path> files = Files.walk(dir)) {
            scripts = files.filter(p -> p.toString().endsWith(".sh")).sorted().toList();
        }
        for (Path script : scripts) {
            List<String> lines = Files.readAllLines(script);
            for (int i = 0; i < lines.size(); i++) {
                String code = lines.get(i).strip();
                if (!code.startsWith("#") && EARLY_READER.matcher(code).find()) {
                    found.add(dir.relativize(script) + ":" + (i + 1) + ": " + code);
                }
            }
        }
        return found;
    }
}
