package dev.nimchart.settings;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.nimchart.chart.repository.CiScript;
import dev.nimchart.junit.RunSettings;
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
 * that knows this machine's cache paths), which only a command's {@code main} and the JUnit run's {@link RunSettings}
 * call. Reads the library's sources and class files, so a new {@code System.getProperty} in a tier (or in
 * {@link BuildScripts}, which takes everything from its directory), a fixed home path or a call of the builder from a
 * library class fails here. That no library text names a ci/ script or another file of this repository is
 * {@code LibraryTextsNameNoRepositoryFileTest}'s.
 */
class OnlyTheBuilderReadsPropertiesTest {

    private static final Path LIBRARY = CiScript.ciDir().getParent().resolve("chart-tests/src/main/java/dev/nimchart");
    private static final String BUILDER = "settings/SettingsFromProperties.java";

    private static final Pattern PROPERTY_READ = Pattern.compile(
            "System\\.getProperty|System\\.getenv|System\\.getProperties|System::getProperty|System::getenv|Long\\.getLong|Integer\\.getInteger|Boolean\\.getBoolean");
    /** Reads allowed elsewhere: the temporary directory of the JVM's port locks (one directory for every JVM of the machine). */
    private static final Set<String> ALLOWED_READS = Set.of(
            "cluster/FreePort.java: private static final Path LOCK_DIR = Path.of(System.getProperty(\"java.io.tmpdir\"), \"nim-llm-chart-ports\");");
    private static final Pattern MACHINE_PATH = Pattern.compile("user\\.home|\\.cache/nim-llm-chart|\"\\.cache\"|/usr/local/lib/nim-llm-chart");
    /** The builder's methods that read this JVM's properties (or take a map of them). */
    private static final Set<String> BUILDS = Set.of("shared", "fromSystemProperties", "from");
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("dev.nimchart");

    @Test
    void onlyTheBuilderReadsSystemPropertiesAndEnvironmentVariables() throws IOException {
        List<String> reads = codeLines(PROPERTY_READ).stream().filter(l -> !l.startsWith(BUILDER + ":")).filter(l -> !ALLOWED_READS.contains(l)).toList();

        assertThat(reads).as("property or environment reads outside " + BUILDER + ": take the value from Settings instead").isEmpty();
        assertThat(codeLines(PROPERTY_READ)).as("the builder reads them").anyMatch(l -> l.startsWith(BUILDER + ":"));
    }

    @Test
    void noLibraryClassButTheBuilderNamesAMachinePath() throws IOException {
        assertThat(codeLines(MACHINE_PATH)).as("fixed machine paths outside the builder: make them Settings fields")
                .isNotEmpty().allMatch(l -> l.startsWith(BUILDER + ":"));
    }

    /**
     * Settings are built from properties in two kinds of place only: a command's {@code main} (and a lambda of it), and
     * the JUnit run's {@link RunSettings}; every other class is handed them. Read from the class files, so a call
     * through any name or a static field's initializer counts.
     */
    @Test
    void onlyCommandMainsAndTheJUnitRunBuildSettingsFromProperties() {
        List<JavaMethodCall> calls = CLASSES.stream().flatMap(c -> c.getMethodCallsFromSelf().stream())
                .filter(call -> call.getTargetOwner().isEquivalentTo(SettingsFromProperties.class) && BUILDS.contains(call.getName()))
                .filter(call -> !call.getOriginOwner().isEquivalentTo(SettingsFromProperties.class))
                .toList();
        List<String> elsewhere = calls.stream().filter(call -> !commandMainOrJUnitRun(call.getOrigin()))
                .map(call -> call.getOrigin().getFullName() + " calls SettingsFromProperties." + call.getName()).distinct().sorted().toList();

        assertThat(calls).as("the commands' mains and RunSettings build settings from properties").isNotEmpty();
        assertThat(elsewhere).as("library code that builds settings from properties: take them as a parameter instead").isEmpty();
    }

    private static boolean commandMainOrJUnitRun(JavaCodeUnit origin) {
        return origin.getOwner().isEquivalentTo(RunSettings.class)
                || origin.getName().equals("main") || origin.getName().startsWith("lambda$main$");
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
