package dev.nimchart.chart.repository;

import dev.nimchart.tiers.ChartRules;
import dev.nimchart.tiers.Tier;
import dev.nimchart.chart.apiserver.ExampleInstallIT;
import dev.nimchart.chart.controllers.ReconciledExampleIT;
import dev.nimchart.controllers.ExpectedPods;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.fuzz.FuzzScenario;
import dev.nimchart.render.ChartUnderTest;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Random;

/**
 * nim-llm's own rules on the cluster tiers, switched on by this repository's tests: the Pod Security level the README
 * gives each example and its documented exceptions, the one template its refusals come from, the scenarios its fuzz
 * documents start from, the pod count its values ask for, the stored shape of the
 * release ({@link ExampleInstallIT}) and what the controllers must make of it ({@link ReconciledExampleIT}).
 */
public final class NimLlmRules implements ChartRules {

    /** The one template that runs every rule of _preflight.tpl: nim-llm refuses values from there only. */
    public static final String PREFLIGHT_TEMPLATE = "validate/preflight.yaml";

    private static final NimLlmFuzzScenarios SCENARIOS = new NimLlmFuzzScenarios();

    /** Of the files nim-llm starts up (the multi-node examples), those this instance opts in. */
    private final java.util.function.Predicate<Path> startup;

    /** nim-llm's rules, every multi-node example opted into the start-up tier. */
    public NimLlmRules() {
        this(f -> true);
    }

    /** nim-llm's rules, of the multi-node examples only those {@code startup} accepts opted into the start-up tier. */
    public NimLlmRules(java.util.function.Predicate<Path> startup) {
        this.startup = startup;
    }

    /** nim-llm's objects all carry the standard labels. */
    @Override
    public boolean standardLabels() {
        return true;
    }

    /** Every refusal of a rule comes from templates/validate/preflight.yaml, before any object template runs. */
    @Override
    public Optional<String> preflightTemplate() {
        return Optional.of(PREFLIGHT_TEMPLATE);
    }

    /** Fuzz documents start from a coherent nim-llm deployment ({@link NimLlmFuzzScenarios}). */
    @Override
    public FuzzScenario fuzzScenario(Random random) {
        return SCENARIOS.draw(random);
    }

    /** Named after the values file, as this repository's tests name the releases they render and install. */
    @Override
    public String releaseName(Path valuesFile) {
        return ChartUnderTest.releaseName(valuesFile);
    }

    @Override
    public String podSecurityLevel(Path valuesFile, Tier tier) {
        return tier == Tier.API ? "restricted" : PodSecurityExceptions.level(Example.of(valuesFile));
    }

    @Override
    public boolean explainsWarning(Path valuesFile, String warning) {
        return PodSecurityExceptions.documents(Example.of(valuesFile), warning);
    }

    @Override
    public int expectedPods(Path valuesFile, RenderedManifest rendered) {
        return ExpectedPods.of(Example.of(valuesFile).values.raw());
    }

    /** The multi-node examples: their pods' programs are the chart's scripts, sshd and mpirun, and NIM's stand-in. */
    @Override
    public boolean startsUp(Path valuesFile) {
        return Example.of(valuesFile).multiNode() && startup.test(valuesFile);
    }

    /** A group gets its {@code multiNode.clusterStartTimeout} to start, as the chart's own scripts give it. */
    @Override
    public Optional<java.time.Duration> startupTimeout(Path valuesFile) {
        return Optional.of(java.time.Duration.ofSeconds(Example.of(valuesFile).integer("multiNode.clusterStartTimeout")));
    }

    /** What each process of nim-llm's start-up contract was started with ({@link NimLlmStartup}). */
    @Override
    public void started(Started release) {
        NimLlmStartup.check(release);
    }

    @Override
    public void installed(Installed release) {
        ExampleInstallIT.assertStoredRelease(release);
    }

    @Override
    public void reconciled(Reconciled release) {
        ReconciledExampleIT.assertReconciled(release);
    }
}
