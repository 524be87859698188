package dev.nimchart.chart.offline;

import dev.nimchart.chart.repository.Examples;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.ChartNotes;
import dev.nimchart.chart.repository.Example;
import dev.nimchart.chart.repository.SecurityExceptions;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.PodTemplate;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartUnderTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The chart's secure defaults hold for every container of every pod of every example, except where
 * {@link SecurityExceptions} documents why: not root, no privilege escalation, seccomp RuntimeDefault, all
 * capabilities dropped, no API token unless asked for, secrets only through secretKeyRef, and the NGC key never in a
 * ConfigMap, an annotation, a label or the NOTES.
 */
public class SecureDefaultsTest {

    private static final String FAKE_NGC_KEY = "nvapi-FAKE-secure-defaults-7f3c9e21d4b8a605";
    /** Variable names that carry secrets (the same rule as the chart's preflight). */
    private static final Pattern SECRET_VARIABLE =
            Pattern.compile("^(NGC_API_KEY|NGC_CLI_API_KEY|HF_TOKEN|HUGGING_FACE_HUB_TOKEN)$|_(API_KEY|TOKEN|PASSWORD|SECRET)$");

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.ALL)
    void everyContainerRunsAsNonRootWithoutPrivilegeEscalation(Path file) {
        Example e = Example.of(file);
        for (PodTemplate t : e.templates) {
            for (String hostNamespace : List.of("hostNetwork", "hostPID", "hostIPC")) {
                assertThat(t.pod().at("spec." + hostNamespace)).as("%s: %s %s", e.name(), t, hostNamespace).isNotEqualTo(true);
            }
        }
        for (Container c : Container.all(e)) {
            if (!SecurityExceptions.mayRunAsRoot(c.name(), e.networkingProvider())) {
                assertThat(c.effective("runAsNonRoot")).as("%s runAsNonRoot", c).isEqualTo(true);
                assertThat(c.effective("runAsUser")).as("%s runAsUser", c).isNotEqualTo(0);
            }
            assertThat(c.spec().at("securityContext.allowPrivilegeEscalation")).as("%s allowPrivilegeEscalation", c)
                    .isEqualTo(false);
            assertThat(c.spec().at("securityContext.privileged")).as("%s privileged", c).isNotEqualTo(true);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.ALL)
    void everyContainerUsesTheRuntimeDefaultSeccompProfile(Path file) {
        for (Container c : Container.all(Example.of(file))) {
            assertThat(c.effective("seccompProfile")).as("%s seccomp profile", c).isEqualTo(Map.of("type", "RuntimeDefault"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.ALL)
    void everyCapabilityIsDroppedButWhatAnEnabledFeatureNeeds(Path file) {
        Example e = Example.of(file);
        for (Container c : Container.all(e)) {
            assertThat(strings(c.spec().at("securityContext.capabilities.drop"))).as("%s drops", c).contains("ALL");
            assertThat(strings(c.spec().at("securityContext.capabilities.add"))).as("%s adds", c)
                    .isSubsetOf(SecurityExceptions.allowedCapabilities(c.name(), e.networkingProvider()));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.ALL)
    void everyContainerHasAReadOnlyRootFilesystemAndAWritableTmp(Path file) {
        Example e = Example.of(file);
        for (Container c : Container.all(e)) {
            if (SecurityExceptions.mayWriteItsRoot(c.name(), e.networkingProvider())) {
                continue;
            }
            assertThat(c.spec().at("securityContext.readOnlyRootFilesystem")).as("%s readOnlyRootFilesystem", c).isEqualTo(true);
            assertThat(c.spec().list("volumeMounts").stream().map(m -> String.valueOf(m.at("mountPath"))))
                    .as("%s mounts a writable /tmp", c).contains("/tmp");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.ALL)
    void noPodMountsAnApiTokenUnlessTheValuesAskForIt(Path file) {
        Example e = Example.of(file);
        boolean optIn = e.flag(SecurityExceptions.TOKEN_OPT_IN);
        for (PodTemplate t : e.templates) {
            assertThat(t.pod().at("spec.automountServiceAccountToken")).as("%s: %s", e.name(), t).isEqualTo(optIn);
        }
        for (KubeObject account : e.manifest.ofKind("ServiceAccount")) {
            if (!Example.endpointPicker(account)) {
                assertThat(account.at("automountServiceAccountToken")).as("%s: %s", e.name(), account).isEqualTo(optIn);
            }
        }
        // The endpoint picker (inferencePool.enabled) watches its pool and the pool's pods: its token may only read them.
        for (KubeObject role : e.manifest.ofKind("Role").stream().filter(Example::endpointPicker).toList()) {
            for (KubeObject rule : role.list("rules")) {
                boolean election = List.of("leases", "events").containsAll((List<?>) rule.at("resources"));
                List<String> verbs = ((List<?>) rule.at("verbs")).stream().map(String::valueOf).toList();
                assertThat(verbs).as("%s: %s may only read (but its leader election)", e.name(), role)
                        .isSubsetOf(election ? List.<String>of("get", "list", "watch", "create", "update", "patch", "delete") : List.<String>of("get", "watch", "list"));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.ALL)
    void secretsReachContainersOnlyThroughSecretKeyRef(Path file) {
        Example e = Example.of(file);
        for (Container c : Container.all(e)) {
            PodTemplate.env(c.spec()).forEach((name, variable) -> {
                if (SECRET_VARIABLE.matcher(name).find()) {
                    assertThat(variable.at("value")).as("%s: %s has no literal value", c, name).isNull();
                    assertThat(variable.at("valueFrom.secretKeyRef.name")).as("%s: %s", c, name).isNotNull();
                }
            });
        }
        for (PodTemplate t : e.templates) {
            if (t.role().equals("launcher")) {
                assertThat(PodTemplate.env(t.nim())).as("%s: %s runs mpirun and downloads nothing", e.name(), t).doesNotContainKey("NGC_API_KEY");
            } else if (e.flag("airGap.enabled")) {
                assertThat(PodTemplate.env(t.nim())).as("%s: %s in air-gap mode (docs/model-sources.md)", e.name(), t).doesNotContainKey("NGC_API_KEY");
            } else {
                assertThat(PodTemplate.env(t.nim())).as("%s: %s", e.name(), t).containsKey("NGC_API_KEY");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.ALL)
    void theNgcKeyIsNeverInAConfigMapAnAnnotationALabelOrTheNotes(Path file) {
        Map<String, String> withKey = Map.of("model.ngcAPIKey", FAKE_NGC_KEY);
        RenderedManifest manifest = ChartUnderTest.render(file, withKey);
        String name = file.getFileName().toString();
        List<String> forms = List.of(FAKE_NGC_KEY,
                Base64.getEncoder().encodeToString(FAKE_NGC_KEY.getBytes(StandardCharsets.UTF_8)));
        assertThat(manifest.text()).as("%s: the key appears in plain text only inside no object", name).doesNotContain(FAKE_NGC_KEY);
        for (KubeObject o : manifest.objects()) {
            for (String text : metadataTexts(o.raw())) {
                assertThat(forms).as("%s: %s labels and annotations", name, o).noneMatch(text::contains);
            }
            if (o.kind().equals("ConfigMap")) {
                String data = String.valueOf(o.at("data")) + o.at("binaryData");
                assertThat(forms).as("%s: %s data", name, o).noneMatch(data::contains);
            }
        }
        String notes = ChartNotes.of(file, withKey);
        assertThat(forms).as("%s: NOTES", name).noneMatch(notes::contains);
        assertThat(manifest.ofKind("Secret")).as("%s: the key reaches the cluster in Secrets", name)
                .anyMatch(s -> String.valueOf(s.at("data")).contains(forms.get(1)));
    }

    /** The picker's ports its policy leaves open to every pod (the peers not named) are named in the NOTES, and only they. */
    @Test
    void theNotesSayWhichOfThePickersPortsAreOpenToEveryPod() {
        Path file = dev.nimchart.chart.repository.Examples.named("single-node-inference-gateway.yaml");
        assertThat(ChartNotes.of(file, Map.of())).contains("its ext-proc port (9002").contains("extProcFrom is empty")
                .contains("its\nmetrics port (9090) open to every pod, as networkPolicy.endpointPicker.metricsFrom is empty");
        String gateway = ChartNotes.of(file, Map.of("networkPolicy.endpointPicker.extProcFrom[0].podSelector.matchLabels.app", "gateway"));
        assertThat(gateway).doesNotContain("extProcFrom is empty").contains("metricsFrom is empty");
        String both = ChartNotes.of(file, Map.of("networkPolicy.endpointPicker.extProcFrom[0].podSelector.matchLabels.app", "gateway",
                "networkPolicy.endpointPicker.metricsFrom[0].podSelector.matchLabels.app", "prometheus"));
        assertThat(both).doesNotContain("Security: the endpoint picker");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.WITH_NETWORKING)
    void theNotesNameTheSecurityExceptionOfTheProvider(Path file) {
        Example e = Example.of(file);
        String notes = ChartNotes.of(file, Map.of());
        assertThat(notes).as(e.name()).contains("Security exception:").contains("pod-security.kubernetes.io/enforce=privileged");
        SecurityExceptions.ALL.stream().filter(x -> x.provider().equals(e.networkingProvider())).forEach(x -> {
            assertThat(notes).as(e.name()).contains(x.container().equals("nim") ? "NIM container" : x.container());
            x.capabilities().forEach(capability -> assertThat(notes).as(e.name()).contains(capability));
        });
    }

    @Test
    void theReadmeListsEveryDocumentedException() throws IOException {
        String security = Files.readString(ChartUnderTest.chartDir().resolve("../../docs/security.md").normalize());
        for (SecurityExceptions.Exception x : SecurityExceptions.ALL) {
            assertThat(security).as("docs/security.md").contains("`" + x.container() + "`")
                    .contains("multinodeNetworking." + x.provider()).contains(x.reason());
            x.capabilities().forEach(capability -> assertThat(security).contains(capability));
        }
        assertThat(security).contains("`" + SecurityExceptions.TOKEN_OPT_IN + "`").contains("SecurityExceptions");
        for (SecurityExceptions.WritableHostMount m : SecurityExceptions.WRITABLE_HOST_MOUNTS) {
            assertThat(security).as("docs/security.md lists the writable host mount %s", m).contains(m.reason())
                    .contains("`" + (m.path() == null ? "hostPath.path" : m.path()) + "`");
        }
        SecurityExceptions.TAG_ONLY_IMAGES.forEach((container, reason) -> assertThat(security)
                .as("docs/security.md says why %s's image is tag-only", container).contains(reason));
    }

    /** One container (init containers included) of a pod template of an example. */
    private record Container(Example example, PodTemplate template, KubeObject spec) {

        static List<Container> all(Example e) {
            List<Container> all = new ArrayList<>();
            for (PodTemplate t : PodTemplate.of(e.manifest)) { // the endpoint picker's container too
                t.initContainers().forEach(c -> all.add(new Container(e, t, c)));
                t.containers().forEach(c -> all.add(new Container(e, t, c)));
            }
            return all;
        }

        String name() {
            return String.valueOf(spec.at("name"));
        }

        /** A securityContext field of the container, else the pod's. */
        Object effective(String field) {
            Object own = spec.at("securityContext." + field);
            return own != null ? own : template.pod().at("spec.securityContext." + field);
        }

        @Override
        public String toString() {
            return example.name() + ": " + template + ", container " + name();
        }
    }

    private static List<String> strings(Object list) {
        return list instanceof List<?> items ? items.stream().map(String::valueOf).toList() : List.of();
    }

    /** Every label and annotation key and value of every metadata in the object, as text. */
    private static List<String> metadataTexts(Object node) {
        List<String> texts = new ArrayList<>();
        if (node instanceof Map<?, ?> map) {
            map.forEach((k, v) -> {
                if ("metadata".equals(k) && v instanceof Map<?, ?> meta) {
                    texts.add(String.valueOf(meta.get("labels")));
                    texts.add(String.valueOf(meta.get("annotations")));
                }
                texts.addAll(metadataTexts(v));
            });
        } else if (node instanceof List<?> list) {
            list.forEach(item -> texts.addAll(metadataTexts(item)));
        }
        return texts;
    }
}
