package dev.nimchart.cluster;

import dev.nimchart.settings.BinarySource;
import dev.nimchart.settings.Settings;
import dev.nimchart.settings.ToolUnavailableException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Where the tiers' programs come from, as {@link Settings} says: the directory of {@link Settings#binariesDir()} (as
 * envtest takes its binary assets) when given, else {@link Settings#binaryBuilder()}. The directory's layout is one
 * directory per program: {@code DIR/control-plane/{etcd,kube-apiserver,kubectl}}, {@code DIR/<controller>/<controller>}
 * with the data files of its version beside it (kube-controller-manager, kube-scheduler, kwok, lws, mpi-operator,
 * kueue), {@code DIR/<tool>/<tool>} (helm, kube-score, ct, registry, kubeconform) and {@code DIR/<python tool>/bin/<tool>}
 * (checkov, yamllint, yamale); {@code ci/binaries.sh DIR} of the nim-llm chart repository builds everything and links it
 * there. Whatever cannot be had fails with a {@link ClusterUnavailableException} naming it.
 */
public final class BinaryAssets implements BinarySource {

    /** The programs besides etcd and kube-apiserver, each in a directory of its own with the data files of its version. */
    public static final List<String> CONTROLLERS = List.of("kube-controller-manager", "kube-scheduler", "kwok", "lws", "mpi-operator", "kueue");

    private final Path dir;
    /** What the directory does not hold (CRDs, the start-up tier's machine tools): the builder, if any. */
    private final BinarySource rest;

    private BinaryAssets(Path dir, BinarySource rest) {
        this.dir = dir;
        this.rest = rest;
    }

    /** The programs of these settings: from the binaries directory when given, else from the builder. */
    public static BinarySource of(Settings settings) {
        BinarySource builder = new Unavailable(settings.binaryBuilder().orElse(null));
        return settings.binariesDir().<BinarySource>map(d -> new BinaryAssets(d, builder)).orElse(builder);
    }

    /** The executable {@code relative} under the directory, or a failure naming it and the script that makes it. */
    public static Path require(Path dir, String relative) {
        Path file = dir.resolve(relative);
        if (!Files.isExecutable(file)) {
            throw new ClusterUnavailableException("no executable " + file + " in the binaries directory (-Dnim.binaries.dir=" + dir
                    + "): put the program there at the version the tiers pin (the layout: one directory per program, "
                    + relative + " for this one), or leave the binaries directory out and give Settings.withBinaryBuilder(...)"
                    + " a builder");
        }
        return file;
    }

    /** The directory given, when the programs come from one. */
    public Path dir() {
        return dir;
    }

    @Override
    public Path controlPlane(String version, Consumer<String> progress) {
        require(dir, "control-plane/etcd");
        return require(dir, "control-plane/kube-apiserver").getParent();
    }

    @Override
    public Map<String, Path> controllers(String kubeVersion, Consumer<String> progress) {
        Map<String, Path> dirs = new LinkedHashMap<>();
        for (String name : CONTROLLERS) {
            dirs.put(name, require(dir, name + "/" + name).getParent());
        }
        return dirs;
    }

    @Override
    public Path tool(String name, Consumer<String> progress) {
        return require(dir, name + "/" + name);
    }

    @Override
    public Path pythonTool(String name, Consumer<String> progress) {
        return require(dir, name + "/bin/" + name);
    }

    @Override
    public void crds(Path crdsDir, Consumer<String> progress) {
        rest.crds(crdsDir, progress);
    }

    @Override
    public void startupTools(Consumer<String> progress) {
        rest.startupTools(progress);
    }

    @Override
    public void ray(Path rayDir, Consumer<String> progress) {
        rest.ray(rayDir, progress);
    }

    @Override
    public Path networkPolicyEnforcer(Consumer<String> progress) {
        return rest.networkPolicyEnforcer(progress);
    }

    @Override
    public void modelProxyTools(Consumer<String> progress) {
        rest.modelProxyTools(progress);
    }

    @Override
    public String toString() {
        return "the binaries directory " + dir;
    }

    /** A builder whose failures are the tiers' "unavailable" (skipped without CI, failing with it); none: always unavailable. */
    private record Unavailable(BinarySource builder) implements BinarySource {

        private <T> T call(Supplier<T> action) {
            if (builder == null) {
                throw new ClusterUnavailableException("no programs for the tiers: give Settings.withBinariesDir(DIR) (-Dnim.binaries.dir=DIR,"
                        + " a directory with one directory per program: control-plane/kube-apiserver, kwok/kwok, ...) or"
                        + " Settings.withBinaryBuilder(...)");
            }
            try {
                return action.get();
            } catch (ToolUnavailableException e) {
                throw new ClusterUnavailableException(e.getMessage(), e);
            }
        }

        private void run(Runnable action) {
            call(() -> {
                action.run();
                return null;
            });
        }

        @Override
        public Path controlPlane(String version, Consumer<String> progress) {
            return call(() -> builder.controlPlane(version, progress));
        }

        @Override
        public Map<String, Path> controllers(String kubeVersion, Consumer<String> progress) {
            return call(() -> builder.controllers(kubeVersion, progress));
        }

        @Override
        public Path tool(String name, Consumer<String> progress) {
            return call(() -> builder.tool(name, progress));
        }

        @Override
        public Path pythonTool(String name, Consumer<String> progress) {
            return call(() -> builder.pythonTool(name, progress));
        }

        @Override
        public void crds(Path dir, Consumer<String> progress) {
            run(() -> builder.crds(dir, progress));
        }

        @Override
        public void startupTools(Consumer<String> progress) {
            run(() -> builder.startupTools(progress));
        }

        @Override
        public void ray(Path dir, Consumer<String> progress) {
            run(() -> builder.ray(dir, progress));
        }

        @Override
        public Path networkPolicyEnforcer(Consumer<String> progress) {
            return call(() -> builder.networkPolicyEnforcer(progress));
        }

        @Override
        public void modelProxyTools(Consumer<String> progress) {
            run(() -> builder.modelProxyTools(progress));
        }

        @Override
        public String toString() {
            return builder == null ? "no programs" : builder.toString();
        }
    }
}
