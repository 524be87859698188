package dev.nimchart;

import dev.nimchart.result.Check;
import dev.nimchart.result.CheckSkipped;
import dev.nimchart.sessions.TierNotStartedException;
import dev.nimchart.tiers.RefusalChecksInParallel;
import dev.nimchart.tiers.Tier;
import dev.nimchart.tiers.TierCheck;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * One tier run on a check's values files, the same way for every tier: as the door's result tree ({@link #tests()},
 * one check per file the tier checks, then the tier's own) or as verdicts ({@link #verdicts(Consumer)}). What differs
 * between tiers is the tier's to say ({@link Tier#checksRefusals()}, {@link TierCheck#installs(Path)},
 * {@link TierCheck#checksFilesTogether()}, {@link TierCheck#ownChecks()}).
 */
final class TierRun {

    private final Tier tier;
    private final TierCheck checks;
    private final List<Path> valid;
    private final List<Path> invalid;
    private final String name;

    /** The tier's checks on these files (those it checks of them), its checks grouped under this name. */
    TierRun(Tier tier, TierCheck checks, List<Path> validFiles, List<Path> invalidFiles, String name) {
        this.tier = tier;
        this.checks = checks;
        this.valid = validFiles.stream().filter(checks::installs).toList();
        this.invalid = tier.checksRefusals() ? List.copyOf(invalidFiles) : List.of();
        this.name = name;
    }

    /** Every check: the files that must install, the refusal files, then the tier's own checks. */
    Check tests() {
        Supplier<TierCheck> started = startedForTests();
        List<Check> all = new ArrayList<>(installTests(started));
        all.addAll(refusalTests(started));
        checks.ownChecks().forEach(own -> all.add(Check.test(own.name(), () -> {
            started.get();
            named(own.name(), own.body());
        })));
        return Check.group(name, all);
    }

    /** Only the checks of the files that must install. */
    Check installTests() {
        return Check.group(name, installTests(startedForTests()));
    }

    /** Only the checks of the refusal files. */
    Check refusalTests() {
        return Check.group(name, refusalTests(startedForTests()));
    }

    /**
     * Every subject checked now, one verdict each (its files, then its own checks), each handed to {@code progress} as
     * it is reached. A tier that cannot start still gives each subject a verdict, naming why, so the other tiers still
     * run. A skipped own check has no verdict.
     */
    List<Verdict> verdicts(Consumer<Verdict> progress) {
        List<Check.Test> own = checks.ownChecks();
        List<Verdict> verdicts = new ArrayList<>();
        Consumer<Verdict> add = v -> {
            verdicts.add(v);
            progress.accept(v);
        };
        if (valid.isEmpty() && invalid.isEmpty() && own.isEmpty()) {
            return verdicts; // nothing for this tier to check (e.g. no file opted into the start-up tier): nothing started
        }
        try {
            checks.start();
        } catch (RuntimeException | AssertionError e) {
            String reason = "the " + tier.label() + " tier cannot check this chart: " + e.getMessage();
            Stream.concat(valid.stream(), invalid.stream()).forEach(f -> add.accept(new Verdict(f.toString(), tier, reason)));
            own.forEach(c -> add.accept(new Verdict(c.name(), tier, reason)));
            return verdicts;
        }
        if (checks.checksFilesTogether()) {
            Map<Path, Optional<Throwable>> installs = checks.installEach(valid);
            valid.forEach(f -> add.accept(verdict(f.toString(), installs.get(f))));
        } else {
            valid.forEach(f -> add.accept(verdict(f.toString(), RefusalChecksInParallel.failureOf(() -> checks.install(f)))));
        }
        Map<Path, Optional<Throwable>> refusals = checks.refuseEach(invalid);
        invalid.forEach(f -> add.accept(verdict(f.toString(), refusals.get(f))));
        for (Check.Test c : own) {
            Optional<Throwable> failure = RefusalChecksInParallel.failureOf(() -> run(c.body()));
            if (!(failure.orElse(null) instanceof CheckSkipped)) {
                add.accept(verdict(c.name(), failure));
            }
        }
        return verdicts;
    }

    /**
     * The tier's checks, started when the first check needs them (so that a class whose tests are all filtered out starts
     * nothing): a tier that cannot start fails its checks with CI=true and skips them, with the reason printed, otherwise.
     */
    private Supplier<TierCheck> startedForTests() {
        return Once.of(() -> {
            try {
                checks.start();
            } catch (TierNotStartedException e) {
                throw e.failOrSkip();
            }
            return checks;
        });
    }

    /**
     * One check per values file the chart must install and the tier checks: each installs its file, or, for a tier
     * that checks its files together, the first of them checks every file and each then reports its own.
     */
    private List<Check> installTests(Supplier<TierCheck> started) {
        if (checks.checksFilesTogether()) {
            Supplier<Map<Path, Optional<Throwable>>> all = Once.of(() -> started.get().installEach(valid));
            return valid.stream().<Check>map(f -> Check.test(label(f), f.toUri(),
                    () -> named(label(f), () -> RefusalChecksInParallel.rethrow(all.get().get(f))))).toList();
        }
        return valid.stream().<Check>map(f -> Check.test(label(f), f.toUri(), () -> named(label(f), () -> started.get().install(f)))).toList();
    }

    /**
     * One check per values file the chart must refuse. The first of them checks every refusal file, in parallel; each
     * check then reports its own file.
     */
    private List<Check> refusalTests(Supplier<TierCheck> started) {
        Supplier<Map<Path, Optional<Throwable>>> refusals = Once.of(() -> started.get().refuseEach(invalid));
        return invalid.stream().<Check>map(f -> Check.test(label(f), f.toUri(),
                () -> named(label(f), () -> RefusalChecksInParallel.rethrow(refusals.get().get(f))))).toList();
    }

    /** A subject's verdict from what its check threw, if anything: the reason is the failure's message. */
    private Verdict verdict(String subject, Optional<Throwable> failure) {
        return new Verdict(subject, tier, failure.map(e -> e.getMessage() == null ? e.toString() : e.getMessage()).orElse(null));
    }

    /** Runs a check, its failures prefixed with the name of what it checks; a skip passes as it is. */
    private static void named(String name, Check.Body check) throws Throwable {
        try {
            check.run();
        } catch (CheckSkipped e) {
            throw e;
        } catch (AssertionError e) {
            throw new AssertionError(name + ": " + e.getMessage(), e);
        }
    }

    private static void run(Check.Body body) {
        try {
            body.run();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** {@code file.yaml}, or {@code invalid/file.yaml}. */
    static String label(Path file) {
        Path parent = file.getParent();
        return parent != null && parent.getFileName() != null && parent.getFileName().toString().equals("invalid")
                ? "invalid/" + file.getFileName() : file.getFileName().toString();
    }
}
