package dev.nimchart.checks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartRenderer;
import dev.nimchart.render.FixtureChart;
import io.kubernetes.client.openapi.models.V1Deployment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StrictModelCheckTest {

    private final StrictModelCheck check = new StrictModelCheck();

    private static KubeObject object(String yaml) {
        return RenderedManifest.parse(yaml).objects().get(0);
    }

    private static String deployment(String specExtra, String containerExtra) {
        return """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: nim
                  labels: {app: nim}
                spec:
                  selector: {matchLabels: {app: nim}}
                %s
                  template:
                    metadata: {labels: {app: nim}}
                    spec:
                      containers:
                        - name: nim
                          image: nim:1
                %s
                """.formatted(specExtra.indent(2).stripTrailing(), containerExtra.indent(10).stripTrailing());
    }

    private static String podTemplate(String containerExtra) {
        return """
                spec:
                  containers:
                    - name: nim
                      image: nim:1
                %s
                """.formatted(containerExtra.indent(6).stripTrailing());
    }

    @Test
    void everyObjectOfTheFixtureChartPasses() {
        RenderedManifest manifest = new ChartRenderer(FixtureChart.dir(), dev.nimchart.junit.RunSettings.get()).render("demo", "default", List.of(), Map.of());

        assertThat(manifest.objects()).isNotEmpty().allSatisfy(o -> assertThatCode(() -> check.check(o)).doesNotThrowAnyException());
    }

    @Test
    void misspeltFieldIsRejected() {
        assertThatThrownBy(() -> check.check(object(deployment("replica: 2", ""))))
                .isInstanceOf(ModelViolation.class)
                .hasMessage("Deployment/nim: The field `replica` in the JSON string is not defined in the `V1DeploymentSpec` properties");
    }

    @Test
    void unknownContainerFieldIsRejected() {
        assertThatThrownBy(() -> check.check(object(deployment("", "gpus: 8"))))
                .isInstanceOf(ModelViolation.class)
                .hasMessageContaining("`gpus`").hasMessageContaining("`V1Container`");
    }

    @Test
    void missingRequiredFieldIsRejected() {
        String withoutSelector = deployment("", "").replace("  selector: {matchLabels: {app: nim}}\n", "");

        assertThatThrownBy(() -> check.check(object(withoutSelector)))
                .hasMessage("Deployment/nim: The required field `selector` is not found in the JSON string");
    }

    @Test
    void clientJavaAloneCoercesAQuotedInteger() throws Exception {
        V1Deployment parsed = V1Deployment.fromJson(object(deployment("replicas: \"3\"", "")).toJson());

        assertThat(parsed.getSpec().getReplicas()).as("why ScalarTypeCheck exists").isEqualTo(3);
    }

    @Test
    void quotedIntegerIsRejected() {
        assertThatThrownBy(() -> check.check(object(deployment("replicas: \"3\"", ""))))
                .hasMessage("Deployment/nim: spec.replicas: want integer, got string \"3\"");
    }

    @Test
    void mistypedScalarsAreReportedWithTheirPaths() {
        String yaml = deployment("", "ports: [{containerPort: 8000, name: http}]\nstdin: \"true\"")
                .replace("labels: {app: nim}\nspec:", "labels: {app: nim, version: 1.5}\nspec:");

        assertThatThrownBy(() -> check.check(object(yaml)))
                .hasMessage("Deployment/nim: metadata.labels.version: want string, got double 1.5; "
                        + "spec.template.spec.containers[0].stdin: want boolean, got string \"true\"");
    }

    @Test
    void intOrStringAndQuantityAcceptBothForms() {
        String service = """
                apiVersion: v1
                kind: Service
                metadata: {name: svc}
                spec:
                  ports:
                    - {port: 80, targetPort: http}
                    - {port: 81, targetPort: 8081}
                """;

        assertThatCode(() -> check.check(object(service))).doesNotThrowAnyException();
        assertThatCode(() -> check.check(object(deployment("", "resources: {limits: {nvidia.com/gpu: 8, memory: 1Gi}}"))))
                .doesNotThrowAnyException();
    }

    @Test
    void unknownKindHasNoModel() {
        assertThatThrownBy(() -> check.check(object("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}")))
                .hasMessageStartingWith("Widget/w: no model for example.com/v1/Widget: neither a kind the Kubernetes API serves");
    }

    @Test
    void aBuiltInKindOutsideTheFixedListIsCheckedByItsModel() {
        check.check(object("apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: r}\nrules: []"));
        assertThatThrownBy(() -> check.check(object(
                "apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata: {name: i}\nspec: {controler: x}")))
                .hasMessageContaining("IngressClass/i").hasMessageContaining("controler");
    }

    @Test
    void aKindUnderAGroupThatDoesNotServeItHasNoModel() {
        assertThatThrownBy(() -> check.check(object("apiVersion: apps/v1\nkind: ClusterRole\nmetadata: {name: r}\nrules: []")))
                .hasMessageContaining("no model for apps/v1/ClusterRole");
        assertThatThrownBy(() -> check.check(object(
                "apiVersion: v1\nkind: Deployment\nmetadata: {name: d}\nspec: {selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}}}}")))
                .hasMessageContaining("no model for v1/Deployment");
    }

    @Test
    void leaderWorkerSetPodTemplatesAreCheckedStrictly() {
        String lws = """
                apiVersion: leaderworkerset.x-k8s.io/v1
                kind: LeaderWorkerSet
                metadata: {name: nim}
                spec:
                  leaderWorkerTemplate:
                    size: 2
                    leaderTemplate:
                %s
                    workerTemplate:
                %s
                """.formatted(podTemplate("").indent(6).stripTrailing(), podTemplate("workingdir: /x").indent(6).stripTrailing());

        assertThatThrownBy(() -> check.check(object(lws)))
                .hasMessageStartingWith("LeaderWorkerSet/nim: spec.leaderWorkerTemplate.workerTemplate: The field `workingdir`");
    }

    @Test
    void mpiJobPodTemplatesAreCheckedStrictly() {
        String mpiJob = """
                apiVersion: kubeflow.org/v2beta1
                kind: MPIJob
                metadata: {name: nim}
                spec:
                  mpiReplicaSpecs:
                    Launcher:
                      replicas: 1
                      template:
                %s
                    Worker:
                      replicas: 2
                      template:
                %s
                """.formatted(podTemplate("").indent(8).stripTrailing(), podTemplate("tty: \"yes\"").indent(8).stripTrailing());

        assertThatThrownBy(() -> check.check(object(mpiJob)))
                .hasMessage("MPIJob/nim: spec.mpiReplicaSpecs.Worker.template.spec.containers[0].tty: want boolean, got string \"yes\"");
    }

    @Test
    void customResourceValidatorSeesCustomKindsOnly() {
        List<String> seen = new ArrayList<>();
        StrictModelCheck withValidator = check.withCustomResourceValidator(o -> {
            seen.add(o.toString());
            return o.at("spec.endpoints") == null ? List.of("spec.endpoints: required") : List.of();
        });

        assertThatThrownBy(() -> withValidator.check(object("apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata: {name: sm}")))
                .hasMessage("ServiceMonitor/sm: spec.endpoints: required");
        withValidator.check(object(deployment("", "")));
        assertThat(seen).containsExactly("ServiceMonitor/sm");
    }

    @Test
    void namesLabelsAndAnnotationKeysFollowTheApiServersSyntax() {
        String service = """
                apiVersion: v1
                kind: Service
                metadata:
                  name: 1-nim
                  labels: {app: "has space"}
                  annotations: {"bad key!": x}
                spec:
                  ports: [{port: 80}]
                """;

        assertThatThrownBy(() -> check.check(object(service)))
                .hasMessageContaining("metadata.name: Invalid value \"1-nim\": must be a DNS-1035 label")
                .hasMessageContaining("metadata.labels.app: Invalid value \"has space\"")
                .hasMessageContaining("metadata.annotations.bad key!: Invalid value");
        assertThatThrownBy(() -> check.check(object(deployment("", "").replace("name: nim\n  labels", "name: Nim_1\n  labels"))))
                .hasMessageContaining("metadata.name: Invalid value \"Nim_1\": must be a DNS-1123 subdomain");
        assertThatThrownBy(() -> check.check(object(deployment("", "").replace("metadata: {labels: {app: nim}}",
                "metadata: {labels: {app: nim, tier: \"%s\"}}".formatted("x".repeat(64))))))
                .hasMessageContaining("spec.template.metadata.labels.tier: Invalid value");
    }

    @Test
    void everyMountNamesAVolumeOfThePodAndNamesAreUnique() {
        String mounts = "volumeMounts: [{name: cache, mountPath: /cache}]";

        assertThatThrownBy(() -> check.check(object(deployment("", mounts))))
                .hasMessageContaining("server pod: container nim mounts cache, which is not a volume of the pod");
        String withVolume = deployment("", mounts).replace("      containers:", "      volumes: [{name: cache, emptyDir: {}}]\n      containers:");
        assertThatCode(() -> check.check(object(withVolume))).doesNotThrowAnyException();
        String twice = withVolume.replace("volumes: [{name: cache, emptyDir: {}}]",
                "volumes: [{name: cache, emptyDir: {}}, {name: cache, emptyDir: {}}]");
        assertThatThrownBy(() -> check.check(object(twice))).hasMessageContaining("volume cache is defined twice");
    }
}
