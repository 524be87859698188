package dev.nimchart.tiers;

import dev.nimchart.lint.PolicyExceptions;
import dev.nimchart.progress.Progress;
import dev.nimchart.settings.Settings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The options of one check of a chart, one immutable value: what {@code ChartCheck}'s {@code withX} methods set and
 * what every tier is made from ({@link TierFactory}).
 *
 * @param chartDir          the chart's directory, absolute
 * @param valuesDirs        the directories of values files, absolute
 * @param fuzzCount         generated documents for the offline tier's fuzz run (0: none)
 * @param fuzzSeed          their seed
 * @param rules             the chart's own rules on top of the generic checks
 * @param reconcileTimeoutGiven the reconcile timeout given; empty: the settings' ({@link Settings#reconcileTimeout()})
 * @param lint              the policy engines' exceptions on the offline tier; empty: no policy engines
 * @param progress          where the tiers say what they do
 * @param settings          the settings everything runs with
 */
public record CheckOptions(Path chartDir, List<Path> valuesDirs, int fuzzCount, long fuzzSeed, ChartRules rules,
        Optional<Duration> reconcileTimeoutGiven, Optional<PolicyExceptions> lint, Progress progress, Settings settings) {

    public CheckOptions {
        Objects.requireNonNull(chartDir, "chartDir");
        valuesDirs = List.copyOf(valuesDirs);
        Objects.requireNonNull(rules, "rules");
        Objects.requireNonNull(reconcileTimeoutGiven, "reconcileTimeoutGiven");
        Objects.requireNonNull(lint, "lint");
        Objects.requireNonNull(progress, "progress");
        Objects.requireNonNull(settings, "settings");
        if (fuzzCount < 0) {
            throw new IllegalArgumentException("the fuzz count is 0 (no fuzz run) or more, not " + fuzzCount);
        }
    }

    /** How long the controllers get to reconcile one values file: the one given, else the settings'. */
    public Duration reconcileTimeout() {
        return reconcileTimeoutGiven.orElseGet(settings::reconcileTimeout);
    }

    /** The name of the fuzz run, as a check and a table row: {@code fuzz (N documents, seed S)}. */
    public String fuzzSubject() {
        return "fuzz (" + fuzzCount + " documents, seed " + fuzzSeed + ")";
    }

    public CheckOptions withValuesDirs(List<Path> dirs) {
        return new CheckOptions(chartDir, dirs, fuzzCount, fuzzSeed, rules, reconcileTimeoutGiven, lint, progress, settings);
    }

    public CheckOptions withFuzz(int count, long seed) {
        return new CheckOptions(chartDir, valuesDirs, count, seed, rules, reconcileTimeoutGiven, lint, progress, settings);
    }

    public CheckOptions withRules(ChartRules newRules) {
        return new CheckOptions(chartDir, valuesDirs, fuzzCount, fuzzSeed, newRules, reconcileTimeoutGiven, lint, progress, settings);
    }

    public CheckOptions withReconcileTimeout(Duration timeout) {
        return new CheckOptions(chartDir, valuesDirs, fuzzCount, fuzzSeed, rules, Optional.of(timeout), lint, progress, settings);
    }

    public CheckOptions withLint(PolicyExceptions exceptions) {
        return new CheckOptions(chartDir, valuesDirs, fuzzCount, fuzzSeed, rules, reconcileTimeoutGiven, Optional.of(exceptions), progress, settings);
    }

    public CheckOptions withProgress(Progress to) {
        return new CheckOptions(chartDir, valuesDirs, fuzzCount, fuzzSeed, rules, reconcileTimeoutGiven, lint, to, settings);
    }

    public CheckOptions withSettings(Settings newSettings) {
        return new CheckOptions(chartDir, valuesDirs, fuzzCount, fuzzSeed, rules, reconcileTimeoutGiven, lint, progress, newSettings);
    }
}
