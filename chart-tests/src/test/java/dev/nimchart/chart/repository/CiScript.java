package dev.nimchart.chart.repository;

import dev.nimchart.cluster.BinaryAssets;
import dev.nimchart.cluster.ClusterUnavailableException;
import dev.nimchart.settings.BuildScripts;
import dev.nimchart.settings.ScriptRun;
import dev.nimchart.settings.SettingsFromProperties;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * This repository's ci/ scripts for its own tests (moved out of the library, which takes its programs from
 * {@code Settings}): the directory of build scripts the settings' builder uses ({@code -Dnim.ci.dir}: chart-tests' and
 * chart-tools' poms set it for Surefire, Failsafe and their exec executions), a script of it run as a process, and the
 * tools its scripts build.
 */
public final class CiScript {

    private CiScript() {
    }

    /** The repository's ci/ directory. */
    public static Path ciDir() {
        return BuildScripts.dirOf(SettingsFromProperties.shared())
                .orElseThrow(() -> new ClusterUnavailableException("cannot find the project's ci/ directory; set -D"
                        + SettingsFromProperties.CI_DIR + "=<repo>/ci"));
    }

    /** Runs {@code bash ci/<script> args...}; returns stdout, or throws with the last lines of output on failure. */
    public static String run(String script, List<String> args, Consumer<String> progress) {
        return ScriptRun.run(ciDir().resolve(script), args, progress);
    }

    /** The path of a tool ci/build-tools.sh builds, or finds cached (or the binaries directory holds): "helm", "ct", ... */
    public static Path builtTool(String tool, Consumer<String> progress) {
        return BinaryAssets.of(SettingsFromProperties.shared()).tool(tool, progress);
    }

    /** The path of a Python tool ci/install-python-tools.sh installs into its own environment, or finds cached: "yamllint", ... */
    public static Path pythonTool(String tool, Consumer<String> progress) {
        return BinaryAssets.of(SettingsFromProperties.shared()).pythonTool(tool, progress);
    }
}
