package dev.nimchart.chart.repository;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.settings.BinarySource;
import dev.nimchart.settings.BuildScripts;
import java.io.IOException;
import java.io.Reader;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * This repository's ci/ as a directory of build scripts (ci/build-scripts.properties, {@link BuildScripts}): its manifest
 * names a script of ci/ for every capability of {@link BinarySource} and nothing else, and each script that must print
 * where it built documents the option the contract passes in its usage line.
 */
class BuildScriptsManifestTest {

    /** The option each printing capability passes its script (BuildScripts' Javadoc). */
    private static final Map<String, String> PRINT_OPTIONS = Map.of("controlPlane", "--print-dir", "controllers", "--print-dirs",
            "tool", "--print-path", "pythonTool", "--print-path", "networkPolicyEnforcer", "--print-dir");

    @Test
    void theManifestNamesAScriptOfCiForEveryCapabilityAndNothingElse() throws IOException {
        Properties manifest = manifest();
        Set<String> capabilities = Arrays.stream(BinarySource.class.getMethods()).map(Method::getName).collect(Collectors.toSet());

        assertThat(manifest.stringPropertyNames()).as("ci/" + BuildScripts.MANIFEST + "'s keys: BinarySource's methods")
                .containsExactlyInAnyOrderElementsOf(capabilities);
        for (String capability : capabilities) {
            assertThat(CiScript.ciDir().resolve(manifest.getProperty(capability).strip())).as(capability).isRegularFile();
        }
    }

    @Test
    void eachPrintingScriptTakesTheContractsOption() throws IOException {
        Properties manifest = manifest();
        for (Map.Entry<String, String> option : PRINT_OPTIONS.entrySet()) {
            String script = Files.readString(CiScript.ciDir().resolve(manifest.getProperty(option.getKey()).strip()));
            assertThat(script).as(option.getKey() + "'s script documents " + option.getValue() + " in its usage line")
                    .contains("[" + option.getValue() + "]");
        }
    }

    private static Properties manifest() throws IOException {
        Properties manifest = new Properties();
        try (Reader reader = Files.newBufferedReader(CiScript.ciDir().resolve(BuildScripts.MANIFEST))) {
            manifest.load(reader);
        }
        return manifest;
    }
}
