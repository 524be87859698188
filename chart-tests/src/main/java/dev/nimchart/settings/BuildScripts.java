package dev.nimchart.settings;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Consumer;

/**
 * A {@link BinarySource} that is a directory of build scripts: each capability of {@link BinarySource} is a bash script
 * of that directory, named in the directory's manifest {@value #MANIFEST}, a Java properties file with one line per
 * capability, the key being the {@link BinarySource} method's name:
 *
 * <pre>
 * controlPlane=build-control-plane.sh
 * controllers=build-controllers.sh
 * tool=build-tools.sh
 * pythonTool=install-python-tools.sh
 * crds=fetch-crds.sh
 * startupTools=install-startup-tools.sh
 * ray=install-ray.sh
 * modelProxyTools=install-model-proxy.sh
 * networkPolicyEnforcer=build-netpol-enforcer.sh
 * </pre>
 *
 * <p>The contract a script keeps: it runs as {@code bash SCRIPT ARGS...} with the arguments below, builds or installs
 * what is missing (minutes on a fresh machine) and is quick when it is cached; every line it prints (stdout and stderr)
 * is passed on as progress; a non-zero exit fails the call with {@link ToolUnavailableException} and its last lines.
 * <ul>
 * <li>{@code controlPlane}: {@code --print-dir VERSION} (e.g. {@code 1.37.2}): builds etcd, kube-apiserver and kubectl of
 * that Kubernetes version; the last line of its stdout that names an existing directory is the directory holding them.
 * <li>{@code controllers}: {@code --print-dirs --kube-version VERSION}: prints one line {@code NAME /ABSOLUTE/DIR} per
 * controller (kube-controller-manager and kube-scheduler of that version, kwok, lws, mpi-operator, kueue), each
 * directory holding the program and the data files of its version; other lines are ignored.
 * <li>{@code tool}, {@code pythonTool}: {@code --print-path NAME}: the last line of stdout that names an existing file is
 * the tool's executable.
 * <li>{@code crds}: {@code DIR}: fills that directory (which does not exist yet) with the pinned CRDs.
 * <li>{@code startupTools}, {@code modelProxyTools}: no arguments: installs what the start-up tier (or its model proxy)
 * needs of the machine when missing.
 * <li>{@code ray}: {@code DIR}: installs Ray into that directory (a virtual environment) when missing.
 * <li>{@code networkPolicyEnforcer}: {@code --print-dir}: the last line of stdout that names an existing directory is
 * the enforcer's directory.
 * </ul>
 * A missing manifest, a capability it does not list, or a script it names that is not there fails that capability's
 * call (only that one) with a {@link ToolUnavailableException} naming the manifest and the key. The manifest is read
 * when a capability is asked for, so settings that name a directory of build scripts cost nothing until a tier needs a
 * program.
 */
public final class BuildScripts implements BinarySource {

    /** The manifest's file name in the directory. */
    public static final String MANIFEST = "build-scripts.properties";

    private final Path dir;

    private BuildScripts(Path dir) {
        this.dir = dir;
    }

    /** The build scripts of this directory (read when a capability is asked for). */
    public static BuildScripts in(Path dir) {
        return new BuildScripts(dir.toAbsolutePath().normalize());
    }

    /** The directory of build scripts the settings' builder runs, when it is one. */
    public static Optional<Path> dirOf(Settings settings) {
        return settings.binaryBuilder().filter(BuildScripts.class::isInstance).map(b -> ((BuildScripts) b).dir());
    }

    /** The directory. */
    public Path dir() {
        return dir;
    }

    @Override
    public Path controlPlane(String version, Consumer<String> progress) {
        return printedDirectory("controlPlane", List.of("--print-dir", version), progress);
    }

    @Override
    public Map<String, Path> controllers(String kubeVersion, Consumer<String> progress) {
        String out = run("controllers", List.of("--print-dirs", "--kube-version", kubeVersion), progress);
        Map<String, Path> dirs = new HashMap<>();
        out.lines().map(String::strip).filter(l -> l.matches("\\S+ /\\S.*")).forEach(l -> {
            String[] parts = l.split(" ", 2);
            dirs.put(parts[0], Path.of(parts[1]));
        });
        return dirs;
    }

    @Override
    public Path tool(String name, Consumer<String> progress) {
        return printedPath("tool", List.of("--print-path", name), progress);
    }

    @Override
    public Path pythonTool(String name, Consumer<String> progress) {
        return printedPath("pythonTool", List.of("--print-path", name), progress);
    }

    @Override
    public void crds(Path crdsDir, Consumer<String> progress) {
        run("crds", List.of(crdsDir.toString()), progress);
    }

    @Override
    public void startupTools(Consumer<String> progress) {
        run("startupTools", List.of(), progress);
    }

    @Override
    public void ray(Path rayDir, Consumer<String> progress) {
        run("ray", List.of(rayDir.toString()), progress);
    }

    @Override
    public void modelProxyTools(Consumer<String> progress) {
        run("modelProxyTools", List.of(), progress);
    }

    @Override
    public Path networkPolicyEnforcer(Consumer<String> progress) {
        return printedDirectory("networkPolicyEnforcer", List.of("--print-dir"), progress);
    }

    private Path printedPath(String capability, List<String> args, Consumer<String> progress) {
        Path script = script(capability);
        return ScriptRun.printedPath(ScriptRun.run(script, args, progress), ranAs(script, args));
    }

    private Path printedDirectory(String capability, List<String> args, Consumer<String> progress) {
        Path script = script(capability);
        return ScriptRun.printedDirectory(ScriptRun.run(script, args, progress), ranAs(script, args));
    }

    private String run(String capability, List<String> args, Consumer<String> progress) {
        return ScriptRun.run(script(capability), args, progress);
    }

    /** The command line as it ran, the script by its full path. */
    private static String ranAs(Path script, List<String> args) {
        return script + " " + String.join(" ", args);
    }

    /** The script the manifest names for this capability, or a failure naming the manifest and the key. */
    Path script(String capability) {
        Path manifest = dir.resolve(MANIFEST);
        if (!Files.isRegularFile(manifest)) {
            throw new ToolUnavailableException("no " + manifest + ": a directory of build scripts names its scripts there, one line"
                    + " per capability (" + capability + "=SCRIPT, ...); give a directory that has one, or the programs' directory instead");
        }
        Properties entries = new Properties();
        try (Reader reader = Files.newBufferedReader(manifest, StandardCharsets.UTF_8)) {
            entries.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            throw new ToolUnavailableException("cannot read " + manifest + ": " + e.getMessage(), e);
        }
        String name = Optional.ofNullable(entries.getProperty(capability)).map(String::strip).orElse("");
        if (name.isEmpty()) {
            throw new ToolUnavailableException(manifest + " has no entry " + capability + "=SCRIPT: add the line naming the script"
                    + " of this directory that provides it");
        }
        Path script = dir.resolve(name).normalize();
        if (!script.startsWith(dir) || !Files.isRegularFile(script)) {
            throw new ToolUnavailableException(manifest + ": " + capability + "=" + name + " names no script of " + dir
                    + ": put the script there or correct the entry");
        }
        return script;
    }

    @Override
    public String toString() {
        return "the build scripts of " + dir;
    }
}
