package dev.nimchart;

import dev.nimchart.tiers.Tier;

/**
 * The outcome of one tier for one subject (a values file, or the fuzz run): passed, or the first reason it failed.
 *
 * @param subject what was checked: a values file's path, or {@code fuzz (N documents, seed S)}
 * @param reason  null when it passed
 */
public record Verdict(String subject, Tier tier, String reason) {

    public static Verdict passed(String subject, Tier tier) {
        return new Verdict(subject, tier, null);
    }

    public boolean ok() {
        return reason == null;
    }
}
