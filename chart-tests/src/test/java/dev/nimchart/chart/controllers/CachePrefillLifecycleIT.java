package dev.nimchart.chart.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.Example;
import dev.nimchart.chart.repository.ChartReleases;
import dev.nimchart.chart.repository.Examples;
import dev.nimchart.chart.repository.PodSecurityExceptions;
import dev.nimchart.chart.repository.Reconciled;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.controllers.ControllerEnvironment;
import dev.nimchart.controllers.InstalledRelease;
import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.junit.ControllerTier;
import dev.nimchart.sessions.ControllerSession;
import dev.nimchart.sessions.TierNamespaces;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.PodTemplate;
import dev.nimchart.render.ChartUnderTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The model cache pre-fill Job (docs/model-sources.md) through a release's life, with the real Job, LeaderWorkerSet and
 * StatefulSet controllers on kwok: the install runs the Job to Complete; an upgrade that does not change the model
 * (one more group) leaves the finished Job alone (same UID, not run again) and the running group's pods too; an upgrade
 * of the Job alone (its resources) makes a new Job of the same fill and restarts no NIM pod; an upgrade that changes the
 * model (another profile) makes a new Job of a new fill, and every NIM pod is replaced by one that waits for the new
 * fill's marker; uninstalling leaves no Job.
 */
@ExtendWith(ControllerTier.class)
class CachePrefillLifecycleIT {

    private static final Path FILE = Examples.named("multi-node-air-gapped-405b-prefilled-cache.yaml");

    @Test
    void onlyAModelChangeFillsTheCacheAgain(ControllerSession session, @TempDir Path tmp) throws IOException {
        Example e = Example.of(FILE);
        ControllerEnvironment env = session.environment();
        KubeApi api = env.api();
        String release = ChartUnderTest.releaseName(FILE);
        String namespace = TierNamespaces.create(api, "fill-" + release, PodSecurityExceptions.level(e));
        int workers = e.integer("multiNode.workers");
        try {
            InstalledRelease installed = session.install(ChartReleases.of(namespace, FILE));
            NamespaceState first = await(env, installed, workers);
            KubeObject job = onlyJob(first);
            assertThat(job.at("status.succeeded")).as("the Job controller ran the fill").isEqualTo(1);
            assertWaitFor(first, release, job);

            NamespaceState scaled = upgrade(env, installed, namespace, tmp.resolve("scale.yaml"), "replicaCount: 2\n", 2 * workers);
            KubeObject same = onlyJob(scaled);
            assertThat(same.name()).as("one more group is no new model").isEqualTo(job.name());
            assertThat(same.at("metadata.uid")).as("the finished Job is left alone, not run again").isEqualTo(job.at("metadata.uid"));
            assertThat(same.at("status.succeeded")).isEqualTo(1);
            assertThat(scaled.livePodUids()).as("the running group keeps its pods").containsAll(podUids(first, release, e));
            assertWaitFor(scaled, release, same);

            // A change to the Job alone (its resources) is a new Job of the same fill: it runs, and no NIM pod restarts.
            NamespaceState rerun = upgrade(env, installed, namespace, tmp.resolve("resources.yaml"),
                    "replicaCount: 2\ncachePrefill:\n  resources:\n    requests:\n      cpu: \"4\"\n", 2 * workers);
            KubeObject sameFill = onlyJob(rerun);
            assertThat(sameFill.name()).as("a Job's pod template cannot change: a new Job").isNotEqualTo(job.name());
            assertThat(sameFill.at("status.succeeded")).isEqualTo(1);
            assertThat(rerun.livePodUids()).as("the same fill restarts no NIM pod").containsAll(podUids(scaled, release, e));
            assertWaitFor(rerun, release, sameFill);
            assertThat(marker(sameFill)).isEqualTo(marker(job));

            NamespaceState refilled = upgrade(env, installed, namespace, tmp.resolve("profile.yaml"),
                    "replicaCount: 2\nmodelSource:\n  profile: vllm-bf16-tp8-pp2\n", 2 * workers);
            KubeObject next = onlyJob(refilled);
            assertThat(marker(next)).as("another profile is another fill").isNotEqualTo(marker(job));
            assertThat(next.at("status.succeeded")).as("the new fill ran").isEqualTo(1);
            assertThat(PodTemplate.env(next.list("spec.template.spec.containers").get(0)).get("NIM_MODEL_PROFILE")).isNull();
            assertThat(next.at("spec.template.spec.containers[0].args")).isEqualTo(List.of("download-to-cache", "--profile", "vllm-bf16-tp8-pp2"));
            assertThat(refilled.livePodUids()).as("every NIM pod is replaced for the new model").doesNotContainAnyElementsOf(podUids(rerun, release, e));
            assertWaitFor(refilled, release, next);
            assertThat(refilled.warnings()).as("Warning events through the fills").filteredOn(w -> !ExplainedWarnings.explains(w)).isEmpty();

            installed.uninstall();
            NamespaceState after = installed.awaitNoPods(Duration.ofSeconds(60));
            assertThat(after.all("Job").stream().filter(j -> j.at("metadata.deletionTimestamp") == null)).as("Jobs after uninstall").isEmpty();
        } finally {
            TierNamespaces.delete(api, namespace, env::requireAllRunning);
        }
    }

    private static NamespaceState await(ControllerEnvironment env, InstalledRelease installed, int pods) {
        return installed.awaitReady(pods, ReconciledExampleIT.RECONCILE_TIMEOUT, env::requireAllRunning);
    }

    /** Upgrades the release with the values {@code values} (written to {@code file}) and waits for its {@code pods} Ready. */
    private static NamespaceState upgrade(ControllerEnvironment env, InstalledRelease installed, String namespace, Path file, String values,
            int pods) throws IOException {
        Files.writeString(file, values);
        installed.upgrade(ChartReleases.of(namespace, FILE, file));
        return await(env, installed, pods);
    }

    private static KubeObject onlyJob(NamespaceState state) {
        List<KubeObject> jobs = state.all("Job").stream().filter(j -> j.at("metadata.deletionTimestamp") == null).toList();
        assertThat(jobs).as("the release's Jobs").hasSize(1);
        return jobs.get(0);
    }

    private static List<String> podUids(NamespaceState state, String release, Example e) {
        return new Reconciled(e, release, state).gpuPods().stream().map(p -> String.valueOf(p.at("metadata.uid"))).toList();
    }

    private static String marker(KubeObject job) {
        return (String) PodTemplate.env(job.list("spec.template.spec.containers").get(0)).get("NIM_LLM_PREFILL_MARKER").at("value");
    }

    /** Every NIM pod waits for the marker this Job writes. */
    private static void assertWaitFor(NamespaceState state, String release, KubeObject job) {
        String marker = marker(job);
        List<KubeObject> pods = new Reconciled(Example.of(FILE), release, state).gpuPods();
        assertThat(pods).isNotEmpty();
        for (KubeObject pod : pods) {
            KubeObject wait = pod.list("spec.initContainers").stream().filter(c -> "wait-for-model-cache".equals(c.at("name"))).findFirst().orElseThrow();
            assertThat(PodTemplate.env(wait).get("NIM_LLM_PREFILL_MARKER").at("value")).as("%s waits for %s", pod.name(), job.name()).isEqualTo(marker);
        }
    }
}
