package dev.nimchart.tiers.offline;

import dev.nimchart.fuzz.FuzzRun;
import dev.nimchart.judge.ValuesJudge;
import dev.nimchart.lint.Finding;
import dev.nimchart.lint.PolicyCheck;
import dev.nimchart.lint.PolicyExceptions;
import dev.nimchart.result.Check;
import dev.nimchart.tiers.CheckOptions;
import dev.nimchart.tiers.TierCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The offline tier: the one judge of a values file ({@link ValuesJudge}) with the chart's rules; no cluster. A file
 * that must install renders valid objects (and, when the options ask for the policy engines, what it renders passes
 * kube-score and checkov but for the documented exceptions); a refusal file is refused with its {@code expect-error}
 * text. Files are judged together, in parallel on every core ({@link #installEach}, {@link #refuseEach}). Its own
 * check is the fuzz run ({@link #ownChecks()}).
 */
public final class OfflineChecks implements TierCheck {

    private final CheckOptions options;
    private ValuesJudge judge;

    /** With these options: the chart and its rules, the settings (where Helm's lookups go, the CRD schemas), fuzz and policy engines. */
    public OfflineChecks(CheckOptions options) {
        this.options = options;
    }

    /** Makes the judge (reads the chart, its schemas and subcharts); throws when the chart cannot be judged offline. */
    @Override
    public synchronized void start() {
        judge();
    }

    /** The judge of this chart with its rules, made on first use. */
    public synchronized ValuesJudge judge() {
        if (judge == null) {
            judge = new ValuesJudge(options.chartDir(), options.settings(), options.rules().standardLabels(),
                    options.rules().preflightTemplate(), options.rules()::releaseName);
        }
        return judge;
    }

    @Override
    public boolean checksFilesTogether() {
        return true;
    }

    @Override
    public void install(Path valuesFile) {
        installEach(List.of(valuesFile)).get(valuesFile).ifPresent(OfflineChecks::rethrow);
    }

    @Override
    public void refuse(Path valuesFile) {
        judge().mustBeRefused(valuesFile).ifPresent(OfflineChecks::fail);
    }

    /** Each file judged (in parallel), then the policy engines on those that passed, when the options ask for them. */
    @Override
    public Map<Path, Optional<Throwable>> installEach(List<Path> files) {
        Map<Path, Optional<Throwable>> out = failures(files, judge().mustInstallEach(files));
        options.lint().ifPresent(exceptions -> {
            List<Path> passed = files.stream().filter(f -> out.get(f).isEmpty()).toList();
            policyFindings(passed, exceptions).forEach((file, reason) -> out.put(file, Optional.of(new AssertionError(reason))));
        });
        return out;
    }

    @Override
    public Map<Path, Optional<Throwable>> refuseEach(List<Path> files) {
        return failures(files, judge().mustBeRefusedEach(files));
    }

    /**
     * The fuzz run, when the options ask for one: documents generated from values.schema.json each render valid objects
     * or are refused clearly (skipped for a chart without a values.schema.json to draw them from).
     */
    @Override
    public List<Check.Test> ownChecks() {
        if (options.fuzzCount() == 0) {
            return List.of();
        }
        if (!Files.isRegularFile(options.chartDir().resolve("values.schema.json"))) {
            return List.of(Check.skipped(options.fuzzSubject(), "no fuzz documents: the chart has no values.schema.json to draw them from"));
        }
        return List.of(Check.test(options.fuzzSubject(), this::fuzz));
    }

    private void fuzz() {
        Path work = options.settings().workDir();
        FuzzRun.Result result = new FuzzRun(judge(), work, options.rules()::fuzzScenario).run(options.fuzzSeed(), options.fuzzCount());
        if (!result.failures().isEmpty()) {
            throw new AssertionError(result.failures().size() + " of " + options.fuzzCount() + " documents failed (kept under "
                    + work.resolve("fuzz-failures") + "); the first: " + result.failures().get(0));
        }
    }

    /** Values file to why the policy engines fail it (its undocumented findings), for files with any. */
    private Map<Path, String> policyFindings(List<Path> files, PolicyExceptions exceptions) {
        Map<Path, String> out = new LinkedHashMap<>();
        if (files.isEmpty()) {
            return out;
        }
        PolicyCheck.Result result = PolicyCheck.withProjectTools(options.settings(), line -> { })
                .run(options.chartDir(), options.settings(), files, ValuesJudge.NAMESPACE, exceptions);
        Map<String, List<Finding>> bySubject = new LinkedHashMap<>();
        result.undocumented().forEach(f -> bySubject.computeIfAbsent(f.subject(), k -> new ArrayList<>()).add(f));
        for (Path file : files) {
            List<Finding> list = bySubject.get(file.getFileName().toString());
            if (list != null) {
                out.put(file, "policy engines: " + list.size() + " undocumented finding" + (list.size() == 1 ? "" : "s")
                        + "; the first: " + list.get(0));
            }
        }
        return out;
    }

    private static Map<Path, Optional<Throwable>> failures(List<Path> files, List<Optional<String>> problems) {
        Map<Path, Optional<Throwable>> out = new LinkedHashMap<>();
        for (int i = 0; i < files.size(); i++) {
            out.put(files.get(i), problems.get(i).map(AssertionError::new));
        }
        return out;
    }

    private static void rethrow(Throwable failure) {
        if (failure instanceof RuntimeException e) {
            throw e;
        }
        throw (AssertionError) failure;
    }

    private static void fail(String problem) {
        throw new AssertionError(problem);
    }
}
