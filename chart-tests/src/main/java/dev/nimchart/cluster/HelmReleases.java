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

/**
 * Helm releases of the chart on a cluster, with real release storage: install, upgrade and uninstall through
 * helm-java (Helm 3.21 in-process), rollback through the Helm 3.21 CLI that ci/build-tools.sh builds from its Go
 * module (helm-java has no rollback).
 */
public final class HelmReleases {

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
        InstallCommand install = new Helm(chartDir).install().withName(release).withNamespace(namespace)
                .withKubeConfigContents(kubeConfig).disableOpenApiValidation();
        valuesFiles.forEach(install::withValuesFile);
        sets.forEach(install::set);
        return install.call();
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
        UpgradeCommand upgrade = new Helm(chartDir).upgrade().withName(release).withNamespace(namespace)
                .withKubeConfigContents(kubeConfig).disableOpenApiValidation();
        valuesFiles.forEach(upgrade::withValuesFile);
        sets.forEach(upgrade::set);
        return upgrade.call();
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
}
