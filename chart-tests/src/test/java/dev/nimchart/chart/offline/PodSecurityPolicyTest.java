package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.ChartNotes;
import dev.nimchart.chart.repository.Example;
import dev.nimchart.chart.repository.Examples;
import dev.nimchart.chart.repository.SecurityExceptions;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.PodTemplate;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartRenderer;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.render.TestHookRenderer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The security policy of every pod the chart makes, looked for inside every pod template of every example: the
 * LeaderWorkerSet leader and worker, the MPIJob launcher and worker, the single-node pod, the pre-fill Job's pod, the
 * {@code helm test} pod (rendered from a copy of the chart whose hook annotation is removed) and the endpoint picker.
 * Policy engines such as kube-score and checkov do not look inside LeaderWorkerSets or MPIJobs; this does.
 * <ul>
 * <li>NetworkPolicy: every pod is selected by an ingress policy; a port beyond the pod's serving ports (the API and
 * health ports of a serving pod, the picker's ext-proc and metrics ports) is reachable only from pods of its own
 * group; the picker's health port, the pre-fill Job's and the test pod's ports from no one; in air-gap mode every model
 * pod's egress is limited to DNS, its own group and {@code networkPolicy.egressTo}.</li>
 * <li>Secrets: no container expands a variable it takes from a Secret into its command or arguments; the MPI launcher
 * carries no NGC key.</li>
 * <li>Host paths: none on the node's system directories but those {@link SecurityExceptions#WRITABLE_HOST_MOUNTS}
 * documents, every other host mount read-only.</li>
 * <li>Images: every container the chart makes names its pull policy; every image the chart chooses itself is pinned by digest but
 * those {@link SecurityExceptions#TAG_ONLY_IMAGES} documents.</li>
 * <li>RBAC: the picker's Lease rules name its own Lease (create apart), and its only ClusterRole creates TokenReviews
 * and SubjectAccessReviews.</li>
 * </ul>
 */
class PodSecurityPolicyTest {

    private static ChartRenderer withTestPods;

    /** A pod of a rendered example: its role, its template and the labels its controller adds for group 0. */
    record Pod(String role, KubeObject owner, KubeObject template, Map<String, String> groupLabels) {

        Map<String, Object> labels() {
            Map<String, Object> labels = new HashMap<>(template.labels());
            labels.putAll(groupLabels);
            if (role.equals("mpi-worker")) {
                labels.put("training.kubeflow.org/replica-index", "0"); // worker 0 serves the API
            }
            return labels;
        }

        List<KubeObject> containers() {
            List<KubeObject> all = new ArrayList<>(template.list("spec.initContainers"));
            all.addAll(template.list("spec.containers"));
            return all;
        }

        /** The named ports anyone outside the pod's group may reach. */
        Set<String> servingPorts() {
            return switch (role) {
                case "server", "leader", "mpi-worker" -> Set.of("http-openai", "http-health");
                case PodTemplate.ENDPOINT_PICKER -> Set.of("grpc-ext-proc", "http-metrics");
                default -> Set.of();
            };
        }

        boolean modelPod() {
            return List.of("server", "leader", "worker", "launcher", "mpi-worker").contains(role);
        }

        @Override
        public String toString() {
            return owner.kind() + "/" + owner.name() + " " + role;
        }
    }

    static synchronized RenderedManifest render(Path file) {
        if (withTestPods == null) {
            withTestPods = TestHookRenderer.of(ChartUnderTest.chartDir(), dev.nimchart.junit.RunSettings.get());
        }
        return withTestPods.render(ChartUnderTest.releaseName(file), ChartUnderTest.NAMESPACE, List.of(file), Map.of());
    }

    /** Every pod of the manifest, the test pod and the pre-fill Job's included. */
    static List<Pod> pods(RenderedManifest m) {
        List<Pod> pods = new ArrayList<>();
        for (PodTemplate t : PodTemplate.of(m)) {
            Map<String, String> group = switch (t.owner().kind()) {
                case "LeaderWorkerSet" -> Map.of("leaderworkerset.sigs.k8s.io/name", t.owner().name(), "leaderworkerset.sigs.k8s.io/group-index", "0");
                case "MPIJob" -> Map.of("training.kubeflow.org/job-name", t.owner().name());
                default -> Map.of();
            };
            pods.add(new Pod(t.role(), t.owner(), t.pod(), group));
        }
        for (KubeObject job : m.ofKind("Job")) {
            pods.add(new Pod("job", job, new KubeObject(map(job.at("spec.template"))), Map.of()));
        }
        for (KubeObject pod : m.ofKind("Pod")) {
            pods.add(new Pod("test", pod, pod, Map.of()));
        }
        return pods;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.ALL)
    void everyPodIsReachableOnItsServingPortsOnlyAndOnEveryOtherPortFromItsOwnGroupOnly(Path file) {
        Example e = Example.of(file);
        RenderedManifest m = render(file);
        assertThat(e.flag("networkPolicy.enabled")).as("%s: policies are on by default", e.name()).isTrue();
        List<Pod> pods = pods(m);
        assertThat(pods.stream().map(Pod::role)).as(e.name()).contains("test");
        for (Pod pod : pods) {
            List<KubeObject> policies = selecting(m, pod, "Ingress");
            assertThat(policies).as("%s: %s is selected by an ingress NetworkPolicy", e.name(), pod).isNotEmpty();
            for (KubeObject policy : policies) {
                for (KubeObject rule : policy.list("spec.ingress")) {
                    List<KubeObject> ports = rule.list("ports");
                    if (ports.isEmpty()) {
                        assertThat(pod.groupLabels()).as("%s: %s opens every port of %s, which has no group", e.name(), policy, pod).isNotEmpty();
                        assertThat(rule.list("from")).as("%s: %s opens every port of %s to anyone", e.name(), policy, pod).isNotEmpty();
                        for (KubeObject peer : rule.list("from")) {
                            assertThat(peer.raw()).as("%s: %s: %s reaches every port of %s", e.name(), policy, peer.raw(), pod)
                                    .containsOnlyKeys("podSelector");
                            Map<?, ?> match = (Map<?, ?>) peer.at("podSelector.matchLabels");
                            assertThat(match).as("%s: %s: a peer of %s outside its group", e.name(), policy, pod).isNotNull();
                            assertThat(match.entrySet().containsAll(pod.groupLabels().entrySet()))
                                    .as("%s: %s: every port of %s from its own group only", e.name(), policy, pod).isTrue();
                        }
                    } else {
                        for (KubeObject port : ports) {
                            assertThat(pod.servingPorts()).as("%s: %s opens port %s of %s to others than its group", e.name(), policy,
                                    port.at("port"), pod).contains(String.valueOf(port.at("port")));
                        }
                    }
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.ALL)
    void inAirGapModeAModelPodReachesOnlyDnsItsGroupAndTheDeclaredPeers(Path file) {
        Example e = Example.of(file);
        RenderedManifest m = render(file);
        List<?> declared = e.values.at("networkPolicy.egressTo") instanceof List<?> l ? l : List.of();
        for (Pod pod : pods(m).stream().filter(Pod::modelPod).toList()) {
            List<KubeObject> policies = selecting(m, pod, "Egress");
            if (!e.flag("airGap.enabled")) {
                assertThat(policies).as("%s: %s downloads: its egress is not restricted", e.name(), pod).isEmpty();
                continue;
            }
            assertThat(policies).as("%s: %s in air-gap mode is selected by an egress policy", e.name(), pod).isNotEmpty();
            for (KubeObject policy : policies) {
                for (KubeObject rule : policy.list("spec.egress")) {
                    List<KubeObject> to = rule.list("to");
                    if (to.isEmpty()) {
                        assertThat(rule.list("ports")).as("%s: %s lets %s reach anything", e.name(), policy, pod).isNotEmpty()
                                .allMatch(p -> "53".equals(String.valueOf(p.at("port"))));
                        continue;
                    }
                    for (KubeObject peer : to) {
                        Map<?, ?> match = (Map<?, ?>) peer.at("podSelector.matchLabels");
                        boolean ownGroup = peer.raw().size() == 1 && match != null && !pod.groupLabels().isEmpty()
                                && match.entrySet().containsAll(pod.groupLabels().entrySet());
                        assertThat(ownGroup || declared.contains(peer.raw())).as("%s: %s lets %s reach %s", e.name(), policy, pod, peer.raw())
                                .isTrue();
                    }
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.MULTI_NODE)
    void turningThePoliciesOffIsSaidInTheNotes(Path file) {
        Example e = Example.of(file);
        assertThat(ChartUnderTest.render(file, Map.of("networkPolicy.enabled", "false")).ofKind("NetworkPolicy")).as(e.name()).isEmpty();
        String notes = ChartNotes.of(file, Map.of("networkPolicy.enabled", "false"));
        assertThat(notes).as(e.name()).contains("networkPolicy.enabled is false").contains("NCCL ports");
        if (e.launchMode().equals("ray")) {
            assertThat(notes).as(e.name()).contains("Ray GCS (port " + e.integer("multiNode.ray.port") + ", no authentication");
        }
        if (e.launchMode().equals("mpi")) {
            assertThat(notes).as(e.name()).contains("sshd (port " + e.integer("multiNode.sshPort") + ")");
        }
        assertThat(ChartNotes.of(file, Map.of())).as("%s: with the policies on", e.name()).doesNotContain("networkPolicy.enabled is false");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.ALL)
    void noContainerExpandsASecretIntoItsArgumentsAndTheLauncherHasNoNgcKey(Path file) {
        Example e = Example.of(file);
        Pattern reference = Pattern.compile("(\\$+)\\(([A-Za-z_][A-Za-z0-9_.-]*)\\)");
        for (Pod pod : pods(render(file))) {
            for (KubeObject c : pod.containers()) {
                Map<String, KubeObject> env = PodTemplate.env(c);
                for (Object part : concat(c.at("command"), c.at("args"))) {
                    Matcher r = reference.matcher(String.valueOf(part));
                    while (r.find()) {
                        KubeObject variable = env.get(r.group(2));
                        boolean secret = variable != null && variable.at("valueFrom.secretKeyRef") != null;
                        assertThat(secret && r.group(1).length() % 2 == 1).as("%s: %s container %s expands the secret %s into %s", e.name(),
                                pod, c.at("name"), r.group(2), part).isFalse();
                    }
                }
                if (pod.role().equals("launcher")) {
                    assertThat(env).as("%s: the MPI launcher downloads nothing", e.name()).doesNotContainKey("NGC_API_KEY");
                    assertThat(env.values()).as("%s: the MPI launcher reads no NGC Secret", e.name())
                            .noneMatch(v -> e.text("model.ngcAPISecret").equals(v.at("valueFrom.secretKeyRef.name")));
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.ALL)
    void hostPathsStayOffTheSystemAndAreReadOnlyButTheDocumentedOnes(Path file) {
        Example e = Example.of(file);
        List<String> system = List.of("/etc", "/proc", "/sys", "/run", "/var/run", "/root", "/boot", "/dev", "/var/lib/kubelet", "/var/log");
        for (Pod pod : pods(render(file))) {
            Map<String, String> hostPaths = new HashMap<>();
            for (KubeObject v : pod.template().list("spec.volumes")) {
                if (v.at("hostPath.path") != null) {
                    hostPaths.put(String.valueOf(v.at("name")), String.valueOf(v.at("hostPath.path")));
                }
            }
            for (KubeObject c : pod.containers()) {
                for (KubeObject mount : c.list("volumeMounts")) {
                    String path = hostPaths.get(String.valueOf(mount.at("name")));
                    if (path == null) {
                        continue;
                    }
                    boolean documented = SecurityExceptions.WRITABLE_HOST_MOUNTS.stream().anyMatch(x -> x.container().equals(c.at("name"))
                            && (x.path() == null ? "model-store".equals(mount.at("name")) : x.path().equals(path))
                            && (x.when().equals("hostPath.enabled") ? e.flag(x.when()) : x.when().equals("multinodeNetworking." + e.networkingProvider())));
                    boolean systemPath = path.equals("/") || system.stream().anyMatch(s -> path.equals(s) || path.startsWith(s + "/"));
                    assertThat(!systemPath || documented).as("%s: %s container %s mounts the node's %s", e.name(), pod, c.at("name"), path).isTrue();
                    assertThat(Boolean.TRUE.equals(mount.at("readOnly")) || documented)
                            .as("%s: %s container %s mounts the node's %s writable", e.name(), pod, c.at("name"), path).isTrue();
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.ALL)
    void everyContainerNamesItsPullPolicyAndTheChartsOwnImagesArePinnedByDigest(Path file) {
        Example e = Example.of(file);
        String nimRepository = e.text("image.repository");
        List<?> extraInit = e.values.at("initContainers.extraInit") instanceof List<?> l ? l : List.of();
        for (Pod pod : pods(render(file))) {
            for (KubeObject c : pod.containers()) {
                boolean yours = extraInit.stream().anyMatch(i -> i instanceof Map<?, ?> x && String.valueOf(x.get("name")).equals(c.at("name")));
                if (yours) {
                    continue; // initContainers.extraInit: the user's containers, as written
                }
                assertThat(c.at("imagePullPolicy")).as("%s: %s container %s", e.name(), pod, c.at("name")).isNotNull();
                String image = String.valueOf(c.at("image"));
                if (image.startsWith(nimRepository + ":") || image.startsWith(nimRepository + "@")) {
                    continue; // the NIM image: image.repository, image.tag, image.digest are the user's
                }
                String tagOnly = SecurityExceptions.TAG_ONLY_IMAGES.get(String.valueOf(c.at("name")));
                if (tagOnly == null) {
                    assertThat(image).as("%s: %s container %s: the chart's own image pinned by digest, tag kept", e.name(), pod, c.at("name"))
                            .matches("[^@]+:[^@/]+@sha256:[0-9a-f]{64}");
                }
            }
        }
    }

    /** The examples that can run GAIE v1.5.0's full picker: not Dynamo mode (refused with a picker), not another picker. */
    static java.util.stream.Stream<Path> fullPickerExamples() {
        return Examples.routable().filter(f -> {
            Object picker = ChartUnderTest.values(f).get("inferencePool") instanceof Map<?, ?> pool && pool.get("epp") instanceof Map<?, ?> epp
                    ? epp.get("picker") : null;
            return picker == null || "epp".equals(picker);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fullPickerExamples")
    void theEndpointPickersRbacNamesItsLeaseAndItsClusterRoleOnlyReviewsCallers(Path file) {
        Example e = Example.of(file);
        RenderedManifest m = ChartUnderTest.render(file, Map.of("inferencePool.enabled", "true", "inferencePool.epp.replicas", "2"));
        String lease = "epp-" + ChartUnderTest.NAMESPACE + "-" + m.ofKind("InferencePool").get(0).name() + ".gateway-api-inference-extension.sigs.k8s.io";
        List<KubeObject> leaseRules = m.ofKind("Role").stream().filter(Example::endpointPicker).flatMap(r -> r.list("rules").stream())
                .filter(r -> ((List<?>) r.at("resources")).contains("leases")).toList();
        assertThat(leaseRules).as(e.name()).isNotEmpty();
        for (KubeObject rule : leaseRules) {
            if (rule.at("resourceNames") == null) {
                assertThat(rule.at("verbs")).as("%s: only create may name no lease", e.name()).isEqualTo(List.of("create"));
            } else {
                assertThat(rule.at("resourceNames")).as("%s: the picker's own lease", e.name()).isEqualTo(List.of(lease));
            }
        }
        List<KubeObject> clusterRoles = m.ofKind("ClusterRole");
        assertThat(clusterRoles).as("%s: metrics authentication is on by default", e.name()).hasSize(1).allMatch(Example::endpointPicker);
        for (KubeObject rule : clusterRoles.get(0).list("rules")) {
            assertThat(rule.at("verbs")).as(e.name()).isEqualTo(List.of("create"));
            assertThat(List.<Object>of(List.of("tokenreviews"), List.of("subjectaccessreviews"))).as(e.name()).contains(rule.at("resources"));
        }
        assertThat(ChartUnderTest.render(file, Map.of("inferencePool.enabled", "true", "inferencePool.epp.metricsAuth", "false"))
                .ofKind("ClusterRole")).as("%s: no ClusterRole without metrics authentication", e.name()).isEmpty();
    }

    /** The NetworkPolicies of the manifest that select the pod and have this policy type. */
    static List<KubeObject> selecting(RenderedManifest m, Pod pod, String type) {
        return m.ofKind("NetworkPolicy").stream().filter(p -> ((List<?>) p.at("spec.policyTypes")).contains(type))
                .filter(p -> selects(new KubeObject(map(p.at("spec.podSelector"))), pod.labels())).toList();
    }

    /** Whether a LabelSelector selects these labels (matchLabels and matchExpressions). */
    static boolean selects(KubeObject selector, Map<String, Object> labels) {
        Object match = selector.at("matchLabels");
        if (match instanceof Map<?, ?> ml && !labels.entrySet().containsAll(ml.entrySet())) {
            return false;
        }
        for (KubeObject x : selector.list("matchExpressions")) {
            Object value = labels.get(String.valueOf(x.at("key")));
            List<?> values = x.at("values") instanceof List<?> v ? v : List.of();
            boolean ok = switch (String.valueOf(x.at("operator"))) {
                case "In" -> value != null && values.contains(value);
                case "NotIn" -> value == null || !values.contains(value);
                case "Exists" -> value != null;
                case "DoesNotExist" -> value == null;
                default -> throw new AssertionError("operator " + x.at("operator"));
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static List<Object> concat(Object a, Object b) {
        List<Object> all = new ArrayList<>();
        for (Object list : List.of(a == null ? List.of() : a, b == null ? List.of() : b)) {
            all.addAll((List<?>) list);
        }
        return all;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        return o == null ? Map.of() : (Map<String, Object>) o;
    }
}
