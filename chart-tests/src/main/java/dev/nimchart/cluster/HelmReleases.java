package dev.nimchart.cluster;

import dev.nimchart.settings.BinarySource;
import dev.nimchart.settings.Settings;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.InstallCommand;
import com.marcnuri.helm.Release;
import com.marcnuri.helm.UpgradeCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;

/**
 * Helm releases of the chart on a cluster, with real release storage: install, upgrade and uninstall through
 * helm-java (Helm 3.21 in-process), rollback through the Helm 3.21 CLI that ci/build-tools.sh builds from its Go
 * module (helm-java has no rollback).
 */
public final class HelmReleases {

    /** helm-java's setters of an install. */
    private static final ReleaseSetters<InstallCommand> INSTALL = new ReleaseSetters<>(InstallCommand::withName,
            InstallCommand::withNamespace, InstallCommand::withKubeConfigContents, InstallCommand::disableOpenApiValidation,
            InstallCommand::withValuesFile, InstallCommand::set);
    /** helm-java's setters of an upgrade. */
    private static final ReleaseSetters<UpgradeCommand> UPGRADE = new ReleaseSetters<>(UpgradeCommand::withName,
            UpgradeCommand::withNamespace, UpgradeCommand::withKubeConfigContents, UpgradeCommand::disableOpenApiValidation,
            UpgradeCommand::withValuesFile, UpgradeCommand::set);

    private final Path chartDir;
    private final String kubeConfig;
    private final Path workDir;
    private final BinarySource binaries;
    private Path helmCli;

    /** Releases of the chart on the cluster of the kubeconfig; the Helm CLI (for what helm-java lacks) comes from the settings' programs. */
    public HelmReleases(Path chartDir, String kubeConfig, Path workDir, Settings settings) {
        this.chartDir = chartDir;
        this.kubeConfig = kubeConfig;
        this.workDir = workDir;
        this.binaries = BinaryAssets.of(settings);
    }

    /**
     * {@code helm install}. Helm's OpenAPI validation is left out ({@code --disable-openapi-validation}): Helm 3 skips it
     * on a server that validates fields itself (Kubernetes 1.27 and later) and sends no strict directive, so the result
     * is the same, but deciding that downloads OpenAPI documents on every install: about a third of an install's CPU
     * time (the test JVM's and kube-apiserver's, measured on a LeaderWorkerSet example). {@code HelmValidationIT} shows
     * the results are the same on the tiers' Kubernetes.
     */
    public Release install(String release, String namespace, List<Path> valuesFiles, Map<String, String> sets) {
        return INSTALL.configured(new Helm(chartDir).install(), release, namespace, kubeConfig, valuesFiles, sets).call();
    }

    /**
     * {@code helm install --no-hooks} through the Helm CLI (helm-java cannot leave hooks out): the release and its record,
     * hooks recorded but none created or awaited, for a cluster whose controllers would never complete a hook's Job.
     */
    public String installWithoutHooks(String release, String namespace, List<Path> valuesFiles, Map<String, String> sets) {
        List<String> args = new ArrayList<>(List.of("install", release, chartDir.toAbsolutePath().toString(), "--namespace", namespace,
                "--no-hooks", "--disable-openapi-validation"));
        valuesFiles.forEach(f -> args.addAll(List.of("--values", f.toAbsolutePath().toString())));
        sets.forEach((k, v) -> args.addAll(List.of("--set", k + "=" + v)));
        return helmCli(args);
    }

    /** {@code helm test}: runs the release's test hooks and waits for them (Helm's own verdict: a failed test throws). */
    public Release test(String release, String namespace, int timeoutSeconds) {
        return Helm.test(release).withNamespace(namespace).withKubeConfigContents(kubeConfig).withTimeout(timeoutSeconds).call();
    }

    /** {@code helm upgrade}, without Helm's OpenAPI validation as {@link #install}. */
    public Release upgrade(String release, String namespace, List<Path> valuesFiles, Map<String, String> sets) {
        return UPGRADE.configured(new Helm(chartDir).upgrade(), release, namespace, kubeConfig, valuesFiles, sets).call();
    }

    public void uninstall(String release, String namespace) {
        Helm.uninstall(release).withNamespace(namespace).withKubeConfigContents(kubeConfig).call();
    }

    /** {@code helm rollback RELEASE REVISION --namespace NAMESPACE}; returns Helm's output. */
    public String rollback(String release, String namespace, int revision) {
        return helmCli(List.of("rollback", release, Integer.toString(revision), "--namespace", namespace));
    }

    /** Runs the Helm CLI with this cluster's kubeconfig and a Helm home of its own under the work directory. */
    public synchronized String helmCli(List<String> args) {
        if (helmCli == null) {
            helmCli = binaries.tool("helm", line -> { });
        }
        try {
            Files.createDirectories(workDir);
            Path kubeconfigFile = workDir.resolve("kubeconfig");
            Files.writeString(kubeconfigFile, kubeConfig);
            Files.setPosixFilePermissions(kubeconfigFile, PosixFilePermissions.fromString("rw-------"));
            List<String> command = new ArrayList<>(List.of(helmCli.toString(), "--kubeconfig", kubeconfigFile.toString()));
            command.addAll(args);
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            Path home = workDir.resolve("helm-home");
            builder.environment().put("HELM_CONFIG_HOME", home.resolve("config").toString());
            builder.environment().put("HELM_CACHE_HOME", home.resolve("cache").toString());
            builder.environment().put("HELM_DATA_HOME", home.resolve("data").toString());
            Process process = builder.start();
            String output = new String(process.getInputStream().readAllBytes());
            if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("helm " + String.join(" ", args) + " failed: " + output.trim());
            }
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run helm " + String.join(" ", args), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running helm", e);
        }
    }

    /**
     * The options an install and an upgrade share, set in one place through each command's own setters: helm-java's
     * {@code InstallCommand} and {@code UpgradeCommand} have the same ones (each returning the command) but no common
     * type that declares them.
     */
    private record ReleaseSetters<C>(BiFunction<C, String, C> withName, BiFunction<C, String, C> withNamespace,
            BiFunction<C, String, C> withKubeConfigContents, UnaryOperator<C> disableOpenApiValidation,
            BiFunction<C, Path, C> withValuesFile, ValueSetter<C> set) {

        /**
         * {@code command} for this release and namespace on the cluster of this kubeconfig, with these values files and
         * {@code --set}s, without Helm's OpenAPI validation (see {@link HelmReleases#install}).
         */
        C configured(C command, String release, String namespace, String kubeConfig, List<Path> valuesFiles, Map<String, String> sets) {
            C c = withName.apply(command, release);
            c = withNamespace.apply(c, namespace);
            c = withKubeConfigContents.apply(c, kubeConfig);
            c = disableOpenApiValidation.apply(c);
            for (Path file : valuesFiles) {
                c = withValuesFile.apply(c, file);
            }
            for (Map.Entry<String, String> value : sets.entrySet()) {
                c = set.set(c, value.getKey(), value.getValue());
            }
            return c;
        }
    }

    /** A command's {@code set(key, value)}. */
    @FunctionalInterface
    private interface ValueSetter<C> {
        C set(C command, String key, Object value);
    }
}
