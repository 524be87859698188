package dev.nimchart.settings;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The {@link BinarySource} of this repository's ci/ directory, which {@link SettingsFromProperties} wires in: each
 * script builds what is missing from pinned sources (minutes on a fresh machine, progress passed on) and is instant
 * when cached. The only library class that knows the scripts' names and what they print.
 */
final class CiScripts implements BinarySource {

    private final Path ciDir;
    /** Where ci/build-control-plane.sh puts the versions it builds: {@code $NIM_CONTROL_PLANE_DIR} or its default. */
    private final Path controlPlaneRoot;
    private final String arch;

    CiScripts(Path ciDir, Path controlPlaneRoot, String osArch) {
        this.ciDir = ciDir;
        this.controlPlaneRoot = controlPlaneRoot;
        this.arch = osArch.equals("aarch64") ? "arm64" : osArch.equals("x86_64") ? "amd64" : osArch;
    }

    Path dir() {
        return ciDir;
    }

    @Override
    public Path controlPlane(String version, Consumer<String> progress) {
        run("build-control-plane.sh", List.of(version), progress);
        return controlPlaneRoot.resolve(version + "-linux-" + arch);
    }

    @Override
    public Map<String, Path> controllers(String kubeVersion, Consumer<String> progress) {
        String out = run("build-controllers.sh", List.of("--print-dirs", "--kube-version", kubeVersion), progress);
        Map<String, Path> dirs = new HashMap<>();
        out.lines().map(String::strip).filter(l -> l.matches("\\S+ /\\S.*")).forEach(l -> {
            String[] parts = l.split(" ", 2);
            dirs.put(parts[0], Path.of(parts[1]));
        });
        return dirs;
    }

    @Override
    public Path tool(String name, Consumer<String> progress) {
        return ScriptRun.printedPath(run("build-tools.sh", List.of("--print-path", name), progress),
                ranAs("build-tools.sh", "--print-path", name));
    }

    @Override
    public Path pythonTool(String name, Consumer<String> progress) {
        return ScriptRun.printedPath(run("install-python-tools.sh", List.of("--print-path", name), progress),
                ranAs("install-python-tools.sh", "--print-path", name));
    }

    @Override
    public void crds(Path dir, Consumer<String> progress) {
        run("fetch-crds.sh", List.of(dir.toString()), progress);
    }

    @Override
    public void startupTools(Consumer<String> progress) {
        run("install-startup-tools.sh", List.of(), progress);
    }

    @Override
    public void ray(Path dir, Consumer<String> progress) {
        run("install-ray.sh", List.of(dir.toString()), progress);
    }

    @Override
    public void modelProxyTools(Consumer<String> progress) {
        run("install-model-proxy.sh", List.of(), progress);
    }

    @Override
    public Path networkPolicyEnforcer(Consumer<String> progress) {
        return ScriptRun.printedDirectory(run("build-netpol-enforcer.sh", List.of("--print-dir"), progress),
                ranAs("build-netpol-enforcer.sh", "--print-dir"));
    }

    /** The command line as it ran, the script by its full path (where it is, not where this repository keeps it). */
    private String ranAs(String script, String... args) {
        return ciDir.resolve(script) + " " + String.join(" ", args);
    }

    private String run(String script, List<String> args, Consumer<String> progress) {
        return ScriptRun.run(ciDir.resolve(script), args, progress);
    }

    @Override
    public String toString() {
        return "the scripts of " + ciDir;
    }
}
