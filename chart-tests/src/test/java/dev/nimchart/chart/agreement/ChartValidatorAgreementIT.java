package dev.nimchart.chart.agreement;

import dev.nimchart.settings.SettingsFromProperties;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.cluster.KubeApi;
import dev.nimchart.chart.repository.CiScript;
import dev.nimchart.chart.routing.PickerStartCheck;
import dev.nimchart.controllers.KedaWebhooks;
import dev.nimchart.controllers.Kueue;
import dev.nimchart.junit.ControllerTier;
import dev.nimchart.sessions.ControllerSession;
import dev.nimchart.sessions.TierNamespaces;
import dev.nimchart.judge.ValuesJudge;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartRefusedException;
import dev.nimchart.render.ChartRenderer;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.startup.StartupHost;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The chart agrees with the real validators, both ways (issue 34): generated values documents biased to where the
 * chart's rules stand for a validator's ({@link AgreementScenarios}: Ray ports, DRA selectors and attributes, topology
 * keys, Kueue queue names, LeaderWorkerSet subgroup and rollout policies, mounts, env references, commands, Ingress
 * paths, names), each judged by the chart and by the validators of the controller tier: the API server's strict
 * server-side dry run with the LeaderWorkerSet controller's webhooks registered and Kueue's (a real Kueue, started for
 * this class on the tier's own environment, its webhooks judging the namespace's workloads as a namespace it manages),
 * the pods of every LeaderWorkerSet and MPIJob template, and {@code ray start}'s own port check of the pinned Ray
 * ({@link AgreementRun}). No escape (the chart
 * renders, a validator refuses) and no false refusal (the chart refuses, every validator accepts the rendering without
 * its rules); each would be written, as the smallest document that shows it, under target/agreement/.
 *
 * <p>Seeded and bounded: {@code -Dnim.agreement.seed}, {@code -Dnim.agreement.count} (documents) and
 * {@code -Dnim.agreement.seconds} (the run stops at whichever comes first, but not before
 * {@code -Dnim.agreement.minRendered} documents, 20 by default, rendered and were judged: the endpoint picker's starts
 * take seconds each). The default budget (12 s of documents, at most 4 picker starts) keeps the class short in
 * {@code mvn verify}; a larger one finds more ({@code ci/benchmark.sh --agreement}: 150 s, 1000 documents, 40 picker
 * starts).
 */
@ExtendWith(ControllerTier.class)
@ResourceLock(Kueue.ONE_AT_A_TIME)
class ChartValidatorAgreementIT {

    static final long SEED = Long.getLong("nim.agreement.seed", 20261127L);
    static final int COUNT = Integer.getInteger("nim.agreement.count", 1000);
    static final int SECONDS = Integer.getInteger("nim.agreement.seconds", 12);
    /** Seconds a started endpoint picker gets to answer SERVING to its probes. */
    static final int PICKER_WAIT = Integer.getInteger("nim.agreement.pickerWait", 30);
    /** Endpoint pickers a run starts at most (each a few seconds; renderings set up like an earlier one need none). */
    static final int PICKER_STARTS = Integer.getInteger("nim.agreement.pickerStarts", 4);
    /** Documents that must render and be judged, however long the validators take (the assertions below need them). */
    static final int MIN_RENDERED = Integer.getInteger("nim.agreement.minRendered", 20);

    private static RayPortCheck ray() {
        RayPortCheck ray = RayPortCheck.in(SettingsFromProperties.shared().rayDir(), Path.of("target", "agreement-ray"));
        if (ray == null && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("CI=true and no Ray in " + SettingsFromProperties.shared().rayDir() + " (ci/install-ray.sh installs it): "
                    + "Ray's own port check is part of this test");
        }
        return ray;
    }

    /**
     * Kueue's webhooks for the class, on the tier's own environment (started once, stopped after the class), judging
     * the workloads of each test's namespace as Kueue manages it; on a cluster the harness did not start, none is
     * started (whatever Kueue the cluster has judges).
     */
    private static Kueue kueue;

    /** KEDA's admission webhook for the class, on the tier's own environment (ci/build-keda-webhooks.sh builds it). */
    private static KedaWebhooks keda;

    @BeforeAll
    static void startKueue(ControllerSession session) {
        if (session.environment().startedByHarness()) {
            kueue = Kueue.start(session.environment());
            keda = KedaWebhooks.start(session.environment(), kedaBinary());
        }
    }

    /** KEDA's webhook program, built on first use (with CI=true a failed build fails the class, as elsewhere). */
    private static Path kedaBinary() {
        String out = CiScript.run("build-keda-webhooks.sh", List.of("--print-path"), line -> System.out.println("[build-keda-webhooks] " + line));
        return Path.of(out.lines().reduce((x, y) -> y).orElse("").strip());
    }

    /** The endpoint picker's start check in the namespace, or null where this host cannot run the picker (not with CI=true). */
    private static PickerStartCheck picker(ControllerSession session, String namespace) {
        Path epp = PickerStartCheck.binaryOrNull();
        return epp == null ? null : new PickerStartCheck(session.environment().api(), session.environment().kubeConfigYaml(), namespace, epp,
                Path.of("target", "agreement-picker"), Duration.ofSeconds(PICKER_WAIT), PICKER_STARTS);
    }

    /** The validators' names with the renderings each judged, and those that did not run here. */
    private static String judgedBy(Validators validators, RayPortCheck ray) {
        Map<String, Integer> judged = new java.util.TreeMap<>(validators.judgedBy());
        List<String> out = new ArrayList<>();
        judged.forEach((name, n) -> out.add(name + ": " + n));
        if (keda == null) {
            out.add(Validators.KEDA + ": not run (a cluster the harness did not start)");
        }
        if (!validators.judgesPicker()) {
            out.add(Validators.PICKER + ": not run (this host cannot run it)");
        } else {
            out.add(Validators.PICKER + " starts: " + validators.picker().starts() + " (the other renderings it judged had the setup of an"
                    + " earlier one), renderings of a new setup not judged once " + PICKER_STARTS + " starts were spent: "
                    + validators.picker().unjudged());
        }
        if (ray == null) {
            out.add(Validators.RAY + ": not run (no Ray installed)");
        }
        return String.join("; ", out);
    }

    /** The namespaces this class made, deleted after it (a cluster the harness did not start keeps them otherwise). */
    private static final java.util.Map<String, KubeApi> MADE = new java.util.concurrent.ConcurrentHashMap<>();

    @AfterAll
    static void stopKueue() {
        MADE.forEach((namespace, api) -> TierNamespaces.delete(api, namespace, () -> { }));
        MADE.clear();
        if (keda != null) {
            keda.close();
            keda = null;
        }
        if (kueue != null) {
            kueue.close();
            kueue = null;
        }
    }

    /** The namespace, managed by Kueue where this class started one. */
    private static String namespace(KubeApi api, String name) {
        String namespace = TierNamespaces.create(api, name, "privileged");
        MADE.put(namespace, api);
        if (kueue != null) {
            Kueue.manage(api, namespace);
        }
        return namespace;
    }

    private static String kueueSaid(Kueue kueue) {
        return kueue == null ? "; Kueue's webhooks: the cluster's own, if any" : "; Kueue's webhooks registered";
    }

    @Test
    void theChartRefusesWhatTheValidatorsRefuseAndNothingElse(ControllerSession session) {
        KubeApi api = session.environment().api();
        String namespace = namespace(api, "agreement");
        Path work = Path.of("target");
        RayPortCheck ray = ray();
        Validators validators = new Validators(api, namespace, ray, kueue != null, keda != null, picker(session, namespace));
        AgreementRun.Result r = new AgreementRun(validators, AgreementRun.withoutRules(), namespace, work)
                .run(SEED, COUNT, Duration.ofSeconds(SECONDS), MIN_RENDERED);
        if (kueue != null) {
            kueue.requireRunning();
        }
        if (keda != null) {
            keda.requireRunning();
        }
        System.out.println("chart/validator agreement, validators and the renderings each judged: " + judgedBy(validators, ray));
        System.out.println("chart/validator agreement, coverage: " + r.coverage().summary() + "; not reached: " + r.coverage().notReached());
        System.out.println("chart/validator agreement: " + r.summary() + kueueSaid(kueue)
                + (ray == null ? "; Ray's port check not run (no Ray in " + SettingsFromProperties.shared().rayDir() + ")" : "; Ray's verdicts by port " + ray.verdicts())
                + (validators.unjudgedKinds().isEmpty() ? "" : "; kinds the cluster does not serve, not judged: " + validators.unjudgedKinds())
                + "; re-run with -Dnim.agreement.seed=" + SEED);
        r.explained().forEach(f -> System.out.println("  " + f));

        assertThat(r.escapes()).as("escapes: the chart rendered what a validator refuses (seed %d; each under target/agreement/escapes)", SEED)
                .isEmpty();
        assertThat(r.falseRefusals()).as("false refusals: the chart refused what every validator accepts (seed %d; each under"
                + " target/agreement/false-refusals)", SEED).isEmpty();
        assertThat(r.count("rendered")).as("documents that rendered and were judged").isGreaterThanOrEqualTo(5);
        assertThat(r.count("refused, and a validator refuses it too")).as("refusals the validators confirmed").isPositive();
        List<String> rendered = AgreementScenarios.surfaces().stream().filter(s -> r.count("rendered: surface " + s) > 0).toList();
        assertThat(rendered).as("surfaces that rendered at least once").hasSizeGreaterThanOrEqualTo(3);
        if (keda != null) {
            assertThat(validators.judgedBy()).as("renderings KEDA's webhook judged").containsKey(Validators.KEDA);
        }
        if (validators.judgesPicker()) {
            assertThat(validators.picker().starts()).as("endpoint pickers started").isPositive();
        }
        if (r.tried() >= 1000) {
            assertThat(r.coverage().ratio()).as("share of the values schema's keys set at least once in %d documents; not reached: %s",
                    r.tried(), r.coverage().notReached()).isGreaterThanOrEqualTo(0.95);
        }
    }

    /**
     * The refusal corpus, the other way round: every file of values-examples/invalid/ whose refusal says a validator
     * would refuse (the API server, Kubernetes, a webhook, CEL, {@code ray start}) is refused by that validator when
     * the chart's rules are taken away (the same values through a copy of the chart without values.schema.json and its
     * preflight template). A rule whose claim no validator bears out would be a false refusal.
     */
    @Test
    void everyRefusalThatSpeaksForAValidatorIsBorneOutByIt(ControllerSession session) throws IOException {
        KubeApi api = session.environment().api();
        String namespace = namespace(api, "agreement-corpus");
        RayPortCheck ray = ray();
        Validators validators = new Validators(api, namespace, ray, kueue != null, keda != null, picker(session, namespace));
        ChartRenderer unchecked = AgreementRun.withoutRules();
        List<String> confirmed = new ArrayList<>();
        List<String> unconfirmed = new ArrayList<>();
        List<String> notJudged = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> s = Files.list(ChartUnderTest.chartDir().resolve("../../values-examples/invalid").normalize())) {
            files = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        for (Path file : files) {
            if (Files.readString(file).startsWith("# expect-error: at '")) {
                continue; // values.schema.json's refusal: its message says no validator's
            }
            String message;
            try {
                ChartUnderTest.renderIn(namespace, file);
                continue;
            } catch (ChartRefusedException e) {
                message = ValuesJudge.helmMessage(e.getMessage());
            }
            if (message.contains("at '/") || !AgreementRun.claimsAValidator(message)) {
                continue;
            }
            String name = file.getFileName().toString();
            if (ray == null && message.contains("ray start")) {
                notJudged.add(name + " (no Ray installed)");
                continue;
            }
            if (!validators.judgesPicker() && message.contains("endpoint picker")) {
                notJudged.add(name + " (the endpoint picker cannot run here)");
                continue;
            }
            if (keda == null && message.contains("KEDA's admission webhook")) {
                notJudged.add(name + " (KEDA's webhook not started: a cluster the harness did not start)");
                continue;
            }
            RenderedManifest without;
            try {
                without = unchecked.render(ChartRenderer.releaseName(file), namespace, List.of(file), Map.of());
            } catch (ChartRefusedException e) {
                notJudged.add(name + " (the chart without its rules renders nothing either: " + ValuesJudge.helmMessage(e.getMessage()) + ")");
                continue;
            }
            List<Validators.Rejection> rejections = validators.judge(without);
            (rejections.isEmpty() ? unconfirmed : confirmed).add(name + (rejections.isEmpty() ? ": " + message : ": " + rejections.get(0)));
        }
        if (kueue != null) {
            kueue.requireRunning();
        }
        System.out.println("refusal corpus against the validators: " + confirmed.size() + " refusals borne out, " + unconfirmed.size()
                + " not, " + notJudged.size() + " not judged " + notJudged + kueueSaid(kueue));
        confirmed.forEach(c -> System.out.println("  borne out: " + c));
        assertThat(unconfirmed).as("refusal files whose rule says a validator refuses, where every validator accepts the"
                + " rendering without the chart's rules").isEmpty();
        assertThat(confirmed).as("refusals borne out by a validator").hasSizeGreaterThanOrEqualTo(10);
    }
}
