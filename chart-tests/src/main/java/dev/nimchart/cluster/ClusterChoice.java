package dev.nimchart.cluster;

import dev.nimchart.settings.Settings;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Which cluster the tier uses, from {@link Settings#cluster()} (the system property {@value #PROPERTY}): {@code local} (the control plane built
 * from Go modules), {@code k3s} (Testcontainers), {@code auto} (the default: K3s where Docker runs and its image
 * can be had, else the local control plane), or {@code kubeconfig}: an {@link ExistingCluster} the harness did not
 * start (the API-server and reconciled-state checks run there; the start-up tier and the tests that need the tier's own
 * fake nodes do not).
 */
public enum ClusterChoice {
    AUTO, LOCAL, K3S, KUBECONFIG;

    public static final String PROPERTY = "nim.cluster";

    /** The choice the settings name; another word fails naming the four. */
    public static ClusterChoice of(Settings settings) {
        String value = settings.cluster().trim();
        try {
            return valueOf(value.isEmpty() ? "AUTO" : value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ClusterUnavailableException("-D" + PROPERTY + "=" + value + " is not a cluster: use auto, local, k3s or kubeconfig");
        }
    }

    /** Whether the tiers run on a cluster the harness did not start ({@code -Dnim.cluster=kubeconfig}). */
    public static boolean existing(Settings settings) {
        return of(settings) == KUBECONFIG;
    }

    /** Starts the chosen cluster; for auto, a K3s failure is reported and the local control plane tried next. */
    public TestCluster start(Settings settings, Consumer<String> progress) {
        return switch (this) {
            case LOCAL -> LocalControlPlane.start(settings, progress);
            case K3S -> K3sCluster.start(settings, progress);
            case AUTO -> startAny(settings, progress);
            case KUBECONFIG -> ExistingCluster.of(settings, progress);
        };
    }

    private static TestCluster startAny(Settings settings, Consumer<String> progress) {
        List<String> failures = new ArrayList<>();
        if (K3sCluster.dockerAvailable()) {
            try {
                return K3sCluster.start(settings, progress);
            } catch (ClusterUnavailableException e) {
                failures.add(e.getMessage());
                progress.accept("K3s unavailable, trying the local control plane: " + e.getMessage());
            }
        } else {
            failures.add("K3s: no Docker engine answers");
        }
        try {
            return LocalControlPlane.start(settings, progress);
        } catch (ClusterUnavailableException e) {
            failures.add(e.getMessage());
            throw new ClusterUnavailableException("no cluster could be started:\n - " + String.join("\n - ", failures), e);
        }
    }
}
