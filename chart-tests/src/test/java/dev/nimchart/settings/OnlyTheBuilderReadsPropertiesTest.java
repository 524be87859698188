package dev.nimchart.settings;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.CiScript;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The library's configuration comes from one place: {@link Settings}, built by the caller or by
 * {@link SettingsFromProperties} (the one class that reads system properties and environment variables, and the one
 * that knows this repository's ci/ scripts and machine paths). Reads the library's sources, so a new
 * {@code System.getProperty} in a tier, a fixed home path or a call of ci/ from a library class fails here.
 */
class OnlyTheBuilderReadsPropertiesTest {

    private static final Path LIBRARY = CiScript.ciDir().getParent().resolve("chart-tests/src/main/java/dev/nimchart");
    private static final String BUILDER = "settings/SettingsFromProperties.java";
    /** The one class that runs this repository's ci/ scripts for the builder (which finds their directory). */
    private static final String CI_SCRIPTS = "settings/CiScripts.java";

    private static final Pattern PROPERTY_READ = Pattern.compile(
            "System\\.getProperty|System\\.getenv|System\\.getProperties|System::getProperty|System::getenv|Long\\.getLong|Integer\\.getInteger|Boolean\\.getBoolean");
    /** Reads allowed elsewhere: the temporary directory of the JVM's port locks (one directory for every JVM of the machine). */
    private static final Set<String> ALLOWED_READS = Set.of(
            "cluster/FreePort.java: private static final Path LOCK_DIR = Path.of(System.getProperty(\"java.io.tmpdir\"), \"nim-llm-chart-ports\");");
    private static final Pattern MACHINE_PATH = Pattern.compile("user\\.home|\\.cache/nim-llm-chart|\"\\.cache\"|/usr/local/lib/nim-llm-chart|Path\\.of\\(\"ci\"");
    private static final Pattern CI_SCRIPT = Pattern.compile(
            "\"(ci/)?(build-control-plane|build-controllers|build-tools|install-python-tools|fetch-crds|install-startup-tools|install-ray"
                    + "|install-model-proxy|install-node-tools|build-epp|build-netpol-enforcer)\\.sh\"|resolve\\(\"ci/");
    /** The command lines and JUnit entry points that take this JVM's settings from the builder; no tier does. */
    private static final Set<String> BUILDER_CALLERS = Set.of(BUILDER, "CheckChart.java", "ChartCheck.java", "sessions/TierLifecycle.java",
            "render/ChartUnderTest.java", "render/UnpackedHelmLibrary.java", "render/LookupStub.java", "values/ExampleValuesFiles.java",
            "controllers/ReconciledExample.java", "controllers/LocalCluster.java", "report/ChartSummary.java");

    @Test
    void onlyTheBuilderReadsSystemPropertiesAndEnvironmentVariables() throws IOException {
        List<String> reads = codeLines(PROPERTY_READ).stream().filter(l -> !l.startsWith(BUILDER + ":")).filter(l -> !ALLOWED_READS.contains(l)).toList();

        assertThat(reads).as("property or environment reads outside " + BUILDER + ": take the value from Settings instead").isEmpty();
        assertThat(codeLines(PROPERTY_READ)).as("the builder reads them").anyMatch(l -> l.startsWith(BUILDER + ":"));
    }

    @Test
    void noLibraryClassButTheBuilderNamesAMachinePathOrRunsTheCiScripts() throws IOException {
        assertThat(codeLines(MACHINE_PATH)).as("fixed machine paths outside the builder: make them Settings fields")
                .allMatch(l -> l.startsWith(BUILDER + ":"));
        assertThat(codeLines(CI_SCRIPT)).as("ci/ scripts named outside " + CI_SCRIPTS + " and the builder: take the program from Settings' BinarySource")
                .isNotEmpty().allMatch(l -> l.startsWith(CI_SCRIPTS + ":") || l.startsWith(BUILDER + ":"));
    }

    @Test
    void onlyCommandLinesAndJUnitEntryPointsAskTheBuilder() throws IOException {
        List<String> callers = codeLines(Pattern.compile("SettingsFromProperties\\.(shared|fromSystemProperties|from)\\(")).stream()
                .map(l -> l.substring(0, l.indexOf(':'))).distinct().toList();

        assertThat(callers).as("library classes that build settings from properties; a tier gets them passed in").isNotEmpty()
                .allMatch(BUILDER_CALLERS::contains);
    }

    /** "file: line" for each line of code (not comment) of the library that matches. */
    private static List<String> codeLines(Pattern pattern) throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(LIBRARY)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                String name = LIBRARY.relativize(file).toString();
                for (String line : Files.readAllLines(file)) {
                    String code = line.strip();
                    if (code.startsWith("*") || code.startsWith("/*") || code.startsWith("//")) {
                        continue;
                    }
                    int comment = code.indexOf(" // ");
                    if (comment >= 0) {
                        code = code.substring(0, comment);
                    }
                    if (pattern.matcher(code).find()) {
                        out.add(name + ": " + code);
                    }
                }
            }
        }
        return out;
    }
}
