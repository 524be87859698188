package dev.nimchart.tiers;

import java.util.Arrays;
import java.util.Locale;

/** The tiers a values file is checked on, cheapest first. */
public enum Tier {
    /** Render, values schema, strict object checks, refusals with their expect-error text, fuzz: no cluster. */
    OFFLINE,
    /** Installed with Helm into a real kube-apiserver (strict dry run, read back, Pod Security). */
    API,
    /** Reconciled by real kube-controller-manager, kube-scheduler, LeaderWorkerSet and mpi-operator on fake GPU nodes. */
    CONTROLLERS,
    /** Reconciled as on the controller tier, then every pod's main process started on this machine (opt-in files). */
    STARTUP;

    /**
     * Whether the tier checks the refusal files (values-examples/invalid/): offline (the render refuses them) and on the
     * API server ({@code helm install} is refused and creates nothing). The controller and start-up tiers do not: a
     * refused install there is the same Helm call against the same kind of API server, and leaves controllers nothing
     * to reconcile.
     */
    public boolean checksRefusals() {
        return this == OFFLINE || this == API;
    }

    /** The name used on the command line and in tables: offline, api, controllers, startup. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Tier of(String label) {
        return Arrays.stream(values()).filter(t -> t.label().equals(label.strip())).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown tier '" + label + "': "
                        + String.join(", ", Arrays.stream(values()).map(Tier::label).toList()) + " or all"));
    }
}
