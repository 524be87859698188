package dev.nimchart.controllers;

import dev.nimchart.cluster.FreePort;
import dev.nimchart.cluster.HealthProbe;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.cluster.LocalProcess;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * KEDA's own admission webhooks (the {@code keda-admission-webhooks} program, {@code cmd/webhooks} of
 * github.com/kedacore/keda/v2 at the version ci/go.mod pins, built by ci/build-keda-webhooks.sh) added to a running
 * controller tier: the process, serving on a free port under the tier's webhook certificate, and its ScaledObject
 * webhook registered by URL as KEDA's kustomize manifest declares it (config/webhooks/validation_webhooks.yaml, copied
 * beside the binary), with {@code failurePolicy: Fail} instead of upstream's Ignore, so that a webhook that does not
 * answer fails the create instead of letting it pass unjudged. The webhooks of KEDA's other kinds
 * (ScaledJob, TriggerAuthentication, CloudEventSource) are not registered: the chart renders none of them.
 * <p>
 * What it judges on a dry run (KEDA v2.18.0, apis/keda/v1alpha1/scaledobject_webhook.go): the triggers (ValidateTriggers:
 * at least one, unique names, useCachedMetrics not on cpu, memory or cron), the fallback, the scaling modifiers' formula,
 * and against what the cluster holds, one autoscaler per workload (another HorizontalPodAutoscaler or ScaledObject on the
 * same target). What it skips on a dry run: the check that a cpu or memory trigger's containers request that resource
 * (it reads the target workload, which a dry run has not created); its replica bounds are logged, never refused.
 * {@link #close()} removes the registration, then stops the process.
 */
public final class KedaWebhooks implements AutoCloseable {

    private static final String SCALED_OBJECT_PATH = "/validate-keda-sh-v1alpha1-scaledobject";

    private final KubeApi api;
    private final LocalProcess process;
    private final List<String> registrations;

    private KedaWebhooks(KubeApi api, LocalProcess process, List<String> registrations) {
        this.api = api;
        this.process = process;
        this.registrations = registrations;
    }

    /** Starts KEDA's webhooks from {@code binary} on the tier's own environment; returns once they refuse a bad ScaledObject. */
    public static KedaWebhooks start(ControllerEnvironment env, Path binary) {
        env.requireStartedByHarness("starting KEDA's admission webhooks");
        Path runDir = env.runDir().orElseThrow();
        KubeApi api = env.api();
        int port = FreePort.take();
        int health = FreePort.take();
        Path certDir = runDir.resolve("keda-webhook-certs");
        String caBundle;
        try {
            Files.createDirectories(certDir);
            Files.copy(runDir.resolve("pki/webhook.crt"), certDir.resolve("tls.crt"), StandardCopyOption.REPLACE_EXISTING);
            Files.copy(runDir.resolve("pki/webhook.key"), certDir.resolve("tls.key"), StandardCopyOption.REPLACE_EXISTING);
            caBundle = Base64.getEncoder().encodeToString(Files.readAllBytes(runDir.resolve("pki/ca.crt")));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare KEDA's webhook certificates under " + runDir, e);
        }
        List<String> registrations = new ArrayList<>();
        LocalProcess process = null;
        try {
            process = LocalProcess.start("keda-webhooks", List.of(binary.toString(), "--port", Integer.toString(port),
                    "--cert-dir", certDir.toString(), "--metrics-bind-address", "0", "--health-probe-bind-address", "127.0.0.1:" + health,
                    "--zap-log-level", "info"), Map.of("KUBECONFIG", runDir.resolve("kubeconfig").toString()), runDir.resolve("logs"));
            process.awaitReady("/readyz answering and the webhook port listening",
                    () -> HealthProbe.http(health, "/readyz") && FreePort.listening(port), LocalProcess.START_TIMEOUT);
            registrations.add(register(api, binary.resolveSibling("validation_webhooks.yaml"), port, caBundle));
            awaitJudging(api, process);
            return new KedaWebhooks(api, process, registrations);
        } catch (RuntimeException e) {
            new KedaWebhooks(api, process, registrations).close();
            throw e;
        }
    }

    /** Fails with the webhooks' log tail when their process has ended. */
    public void requireRunning() {
        process.requireAlive();
    }

    public Path log() {
        return process.log();
    }

    /** The ScaledObject webhook of KEDA's manifest, by URL on the local port, failing closed. */
    @SuppressWarnings("unchecked")
    private static String register(KubeApi api, Path manifest, int port, String caBundle) {
        try {
            for (KubeObject config : RenderedManifest.parse(Files.readString(manifest)).objects()) {
                List<Map<String, Object>> webhooks = new ArrayList<>();
                for (KubeObject webhook : config.list("webhooks")) {
                    Object path = webhook.at("clientConfig.service.path");
                    if (SCALED_OBJECT_PATH.equals(path)) {
                        Map<String, Object> w = WebhooksByUrl.local(webhook.raw(), port, caBundle);
                        w.put("failurePolicy", "Fail");
                        webhooks.add(w);
                    }
                }
                if (!webhooks.isEmpty()) {
                    return WebhooksByUrl.register(api, config, webhooks, "nim-chart-tests-");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read KEDA's webhook manifest " + manifest, e);
        }
        throw new ControllerTierException("no ScaledObject webhook (" + SCALED_OBJECT_PATH + ") in " + manifest);
    }

    /** Until a dry-run ScaledObject with two triggers of one name is refused by KEDA's webhook (it is up and judging). */
    private static void awaitJudging(KubeApi api, LocalProcess process) {
        Map<String, Object> trigger = Map.of("type", "cron", "name", "twice", "metadata",
                Map.of("timezone", "UTC", "start", "0 8 * * *", "end", "0 9 * * *", "desiredReplicas", "1"));
        Map<String, Object> probe = Map.of("apiVersion", "keda.sh/v1alpha1", "kind", "ScaledObject",
                "metadata", Map.of("name", "nim-chart-tests-keda-probe"),
                "spec", Map.of("scaleTargetRef", Map.of("name", "none"), "triggers", List.of(trigger, trigger)));
        process.requireAlive();
        dev.nimchart.cluster.Poll.upTo(Duration.ofSeconds(60)).checking(process::requireAlive)
                .until(() -> api.post("/apis/keda.sh/v1alpha1/namespaces/default/scaledobjects?dryRun=All", probe),
                        r -> !r.ok() && r.message().contains("defined multiple times"))
                .orElseThrow(r -> new ControllerTierException("KEDA's webhook did not refuse a ScaledObject with two triggers of one name"
                        + " within 60 s: " + (r.ok() ? "accepted" : r.message())));
    }

    @Override
    public void close() {
        registrations.forEach(api::delete);
        if (process != null) {
            process.close();
        }
    }
}
