package dev.nimchart.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A directory of build scripts: its manifest names the script of each capability, each runs with the contract's
 * arguments and its printed path is the result; a missing manifest, entry or script says which file and key.
 */
class BuildScriptsTest {

    @TempDir
    Path dir;

    private final List<String> progress = new ArrayList<>();

    @Test
    void eachCapabilityRunsTheScriptItsManifestNamesWithTheContractsArguments() throws IOException {
        Path built = Files.createDirectories(dir.resolve("out/1.37.2"));
        Path helm = Files.createFile(dir.resolve("out/helm"));
        manifest("controlPlane=make-cp.sh", "controllers=make-controllers.sh", "tool=make-tool.sh", "crds=crds.sh");
        script("make-cp.sh", "echo \"building $*\"; echo '" + built + "'");
        script("make-controllers.sh", "echo \"args $*\"; echo 'kwok /opt/kwok-1'; echo 'lws /opt/lws 2'");
        script("make-tool.sh", "echo \"$*\" >&2; echo '" + helm + "'");
        script("crds.sh", "mkdir -p \"$1\"; echo \"filled $1\"");
        BuildScripts scripts = BuildScripts.in(dir);

        assertThat(scripts.controlPlane("1.37.2", progress::add)).isEqualTo(built);
        assertThat(scripts.controllers("1.37.2", progress::add))
                .isEqualTo(Map.of("kwok", Path.of("/opt/kwok-1"), "lws", Path.of("/opt/lws 2")));
        assertThat(scripts.tool("helm", progress::add)).isEqualTo(helm);
        scripts.crds(dir.resolve("crds"), progress::add);

        assertThat(progress).startsWith("building --print-dir 1.37.2").contains("args --print-dirs --kube-version 1.37.2",
                "--print-path helm", "filled " + dir.resolve("crds"));
        assertThat(dir.resolve("crds")).isDirectory();
        assertThat(BuildScripts.dirOf(Settings.defaults().withBinaryBuilder(scripts))).contains(dir);
        assertThat(BuildScripts.dirOf(Settings.defaults())).isEmpty();
    }

    @Test
    void aScriptThatPrintsNoPathFailsNamingWhatRan() throws IOException {
        manifest("tool=make-tool.sh");
        script("make-tool.sh", "echo 'nothing here'");

        assertThatThrownBy(() -> BuildScripts.in(dir).tool("kubeconform", progress::add))
                .hasMessageContaining(dir.resolve("make-tool.sh") + " --print-path kubeconform printed no path");
    }

    @Test
    void aMissingManifestNamesTheFileAndTheCapability() {
        assertThatThrownBy(() -> BuildScripts.in(dir).ray(dir.resolve("ray"), progress::add))
                .isInstanceOf(ToolUnavailableException.class)
                .hasMessageContaining("no " + dir.resolve(BuildScripts.MANIFEST)).hasMessageContaining("ray=SCRIPT");
    }

    @Test
    void aMissingEntryNamesTheManifestAndTheKey() throws IOException {
        manifest("tool=make-tool.sh", "ray=");
        script("make-tool.sh", "true");

        assertThatThrownBy(() -> BuildScripts.in(dir).startupTools(progress::add))
                .isInstanceOf(ToolUnavailableException.class)
                .hasMessageContaining(dir.resolve(BuildScripts.MANIFEST) + " has no entry startupTools=SCRIPT");
        assertThatThrownBy(() -> BuildScripts.in(dir).ray(dir.resolve("ray"), progress::add))
                .as("an empty entry is none").hasMessageContaining("has no entry ray=SCRIPT");
    }

    @Test
    void anEntryNamingNoScriptOfTheDirectorySaysSo() throws IOException {
        manifest("networkPolicyEnforcer=gone.sh", "modelProxyTools=../outside.sh");
        Files.writeString(dir.getParent().resolve("outside.sh"), "true\n");

        assertThatThrownBy(() -> BuildScripts.in(dir).networkPolicyEnforcer(progress::add))
                .isInstanceOf(ToolUnavailableException.class)
                .hasMessageContaining(BuildScripts.MANIFEST + ": networkPolicyEnforcer=gone.sh names no script of " + dir);
        assertThatThrownBy(() -> BuildScripts.in(dir).modelProxyTools(progress::add))
                .hasMessageContaining("modelProxyTools=../outside.sh names no script of " + dir);
    }

    @Test
    void aFailingScriptFailsTheCallWithItsLastLines() throws IOException {
        manifest("pythonTool=py.sh");
        script("py.sh", "echo 'pip: no network'; exit 3");

        assertThatThrownBy(() -> BuildScripts.in(dir).pythonTool("checkov", progress::add))
                .isInstanceOf(ToolUnavailableException.class).hasMessageContaining("py.sh failed (exit 3)").hasMessageContaining("pip: no network");
    }

    private void manifest(String... lines) throws IOException {
        Files.writeString(dir.resolve(BuildScripts.MANIFEST), "# test\n" + String.join("\n", lines) + "\n");
    }

    private void script(String name, String body) throws IOException {
        Files.writeString(dir.resolve(name), "set -euo pipefail\n" + body + "\n");
    }
}
