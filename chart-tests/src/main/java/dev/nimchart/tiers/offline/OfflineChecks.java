package dev.nimchart.tiers.offline;

import dev.nimchart.settings.Settings;

import dev.nimchart.tiers.ChartRules;
import dev.nimchart.tiers.Tier;
import dev.nimchart.tiers.TierCheck;
import dev.nimchart.judge.ValuesJudge;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The offline tier: the one judge of a values file ({@link ValuesJudge}) with the chart's rules; no cluster. A file
 * that must install renders valid objects; a refusal file is refused with its {@code expect-error} text. Files are
 * judged in parallel on every core ({@link #installEach}, {@link #refuseEach}). The fuzz run and the policy engines are
 * the door's, on top ({@code ChartCheck}).
 */
public final class OfflineChecks implements TierCheck {

    private final Path chartDir;
    private final ChartRules rules;
    private final Settings settings;
    private ValuesJudge judge;

    /** With these settings: where Helm's lookups go, the CRD schemas the strict object checks use ({@code crdsDir}; empty: those the harness carries). */
    public OfflineChecks(Path chartDir, ChartRules rules, Settings settings) {
        this.chartDir = chartDir;
        this.rules = rules;
        this.settings = settings;
    }

    @Override
    public Tier tier() {
        return Tier.OFFLINE;
    }

    /** Makes the judge (reads the chart, its schemas and subcharts); throws when the chart cannot be judged offline. */
    @Override
    public synchronized void start() {
        judge();
    }

    /** The judge of this chart with its rules, made on first use. */
    public synchronized ValuesJudge judge() {
        if (judge == null) {
            judge = new ValuesJudge(chartDir, settings, rules.standardLabels(), rules.preflightTemplate(), rules::releaseName);
        }
        return judge;
    }

    @Override
    public void install(Path valuesFile) {
        judge().mustInstall(valuesFile).ifPresent(OfflineChecks::fail);
    }

    @Override
    public void refuse(Path valuesFile) {
        judge().mustBeRefused(valuesFile).ifPresent(OfflineChecks::fail);
    }

    @Override
    public Map<Path, Optional<Throwable>> installEach(List<Path> files) {
        return failures(files, judge().mustInstallEach(files));
    }

    @Override
    public Map<Path, Optional<Throwable>> refuseEach(List<Path> files) {
        return failures(files, judge().mustBeRefusedEach(files));
    }

    private static Map<Path, Optional<Throwable>> failures(List<Path> files, List<Optional<String>> problems) {
        Map<Path, Optional<Throwable>> out = new LinkedHashMap<>();
        for (int i = 0; i < files.size(); i++) {
            out.put(files.get(i), problems.get(i).map(AssertionError::new));
        }
        return out;
    }

    private static void fail(String problem) {
        throw new AssertionError(problem);
    }
}
