package dev.nimchart.tiers;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A tier a values file is checked on: its name (on the command line, in tables and test names) and whether it checks
 * the refusal files. The library's four are the constants below; a tier of a downstream user's own is
 * {@link #named(String, boolean)}, registered with its checks on a {@code ChartCheck} ({@code withTier}). Which tiers
 * exist, and in which order they run, is the door's registry's ({@code dev.nimchart.ChartCheck#tiers()}), not this
 * class's. Two tiers are the same tier only when they are the same object.
 */
public final class Tier {

    private static final Pattern LABEL = Pattern.compile("[a-z][a-z0-9-]*");

    /** Render, values schema, strict object checks, refusals with their expect-error text, fuzz: no cluster. */
    public static final Tier OFFLINE = named("offline", true);
    /** Installed with Helm into a real kube-apiserver (strict dry run, read back, Pod Security). */
    public static final Tier API = named("api", true);
    /**
     * Reconciled by real kube-controller-manager, kube-scheduler, LeaderWorkerSet and mpi-operator on fake GPU nodes.
     * It checks no refusal file: a refused install there is the same Helm call against the same kind of API server,
     * and leaves controllers nothing to reconcile.
     */
    public static final Tier CONTROLLERS = named("controllers", false);
    /** Reconciled as on the controller tier, then every pod's main process started on this machine (opt-in files). */
    public static final Tier STARTUP = named("startup", false);

    private final String label;
    private final boolean checksRefusals;

    private Tier(String label, boolean checksRefusals) {
        this.label = label;
        this.checksRefusals = checksRefusals;
    }

    /**
     * A tier with this name (lower case letters, digits and dashes, starting with a letter; not {@code all}, which
     * the command line reads as every tier) that checks the refusal files ({@code invalid/}) or not.
     */
    public static Tier named(String label, boolean checksRefusals) {
        Objects.requireNonNull(label, "label");
        if (!LABEL.matcher(label).matches() || label.equals("all")) {
            throw new IllegalArgumentException("a tier's name is lower case letters, digits and dashes, starting with a letter, "
                    + "and not 'all': '" + label + "'");
        }
        return new Tier(label, checksRefusals);
    }

    /** The name used on the command line and in tables: offline, api, controllers, startup. */
    public String label() {
        return label;
    }

    /**
     * Whether the tier checks the refusal files (values-examples/invalid/): the offline tier (the render refuses them)
     * and the API-server tier ({@code helm install} is refused and creates nothing) do.
     */
    public boolean checksRefusals() {
        return checksRefusals;
    }

    @Override
    public String toString() {
        return label;
    }
}
