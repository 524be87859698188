package dev.nimchart.chart.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.ChartReleases;
import dev.nimchart.chart.repository.Example;
import dev.nimchart.chart.repository.Examples;
import dev.nimchart.chart.repository.PodSecurityExceptions;
import dev.nimchart.cluster.HelmReleases;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.controllers.ClusterPreconditions;
import dev.nimchart.controllers.ControllerEnvironment;
import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.sessions.ControllerSession;
import dev.nimchart.junit.ControllerTier;
import dev.nimchart.sessions.TierNamespaces;
import dev.nimchart.objects.PodTemplate;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.render.Release;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Where a user sees that an example needs more than the restricted Pod Security level (the README's Pod Security
 * section), installed with the Helm CLI into a namespace that enforces and warns at restricted: for a Deployment or
 * StatefulSet the API server checks the pod template, so `helm install` prints the warning; for a LeaderWorkerSet or
 * MPIJob it checks nothing at install (custom resources carry no pod the admission knows), and the refusal shows only
 * when the controllers create the pods: no pod runs, and a Warning event names the checks.
 */
@ExtendWith(ControllerTier.class)
class PodSecurityWhereSeenIT {

    private static final Set<String> CHECKED_AT_INSTALL = Set.of("Deployment", "StatefulSet");

    static Stream<Path> examplesNeedingMoreThanRestricted() {
        return Examples.all().filter(f -> !PodSecurityExceptions.expectedChecks(Example.of(f)).isEmpty());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examplesNeedingMoreThanRestricted")
    void theRefusalShowsWhereTheReadmeSays(Path file, ControllerSession session) {
        Example e = Example.of(file);
        ControllerEnvironment env = session.environment();
        KubeApi api = env.api();
        String namespace = TierNamespaces.create(api, "restricted-" + ChartUnderTest.releaseName(file), "restricted");
        Release release = ChartReleases.of(namespace, file);
        RenderedManifest rendered = ChartUnderTest.renderIn(namespace, file);
        ClusterPreconditions.prepare(api, namespace, rendered.objects());
        try {
            String output = session.releases().installWithCli(release, HelmReleases.CliInstall.AS_HELM_DEFAULTS);
            boolean builtIn = rendered.objects().stream().anyMatch(o -> CHECKED_AT_INSTALL.contains(o.kind()));
            if (builtIn) {
                assertThat(output).as("%s: helm install warns about the pod template", e.name())
                        .contains("would violate PodSecurity", "restricted:latest")
                        .contains(PodSecurityExceptions.expectedChecks(e));
            } else {
                assertThat(output).as("%s: helm install of a custom resource shows no Pod Security warning", e.name())
                        .doesNotContain("PodSecurity");
            }
            String refusal = awaitPodSecurityEvent(api, namespace, env);
            for (String check : PodSecurityExceptions.expectedChecks(e)) {
                assertThat(refusal).as("%s: the event names the check", e.name()).contains(check);
            }
            assertThat(NamespaceState.read(api, namespace).pods()).as("%s: no GPU pod is admitted", e.name())
                    .noneMatch(p -> p.list("spec.containers").stream().anyMatch(c -> PodTemplate.limit(c, "nvidia.com/gpu") > 0));
        } finally {
            try {
                session.releases().uninstall(release);
            } finally {
                TierNamespaces.delete(api, namespace, env::requireAllRunning);
            }
        }
    }

    private static String awaitPodSecurityEvent(KubeApi api, String namespace, ControllerEnvironment env) {
        return dev.nimchart.cluster.Poll.upTo(Duration.ofSeconds(60)).checking(env::requireAllRunning)
                .until(() -> NamespaceState.read(api, namespace), state -> state.podSecurityRefusal().isPresent())
                .orElseThrow(state -> new AssertionError("no Warning event says a pod violates PodSecurity within 60 s; events: "
                        + state.warnings()))
                .podSecurityRefusal().orElseThrow();
    }
}
