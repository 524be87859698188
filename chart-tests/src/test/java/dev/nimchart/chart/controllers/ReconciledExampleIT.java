package dev.nimchart.chart.controllers;

import dev.nimchart.tiers.Tier;
import dev.nimchart.junit.DynamicChecks;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.ChartCheck;
import dev.nimchart.tiers.ChartRules;
import dev.nimchart.chart.repository.ChartScripts;
import dev.nimchart.chart.repository.Example;
import dev.nimchart.chart.repository.Reconciled;
import dev.nimchart.chart.repository.RepositoryChart;
import dev.nimchart.cluster.KubeApi;
import dev.nimchart.startup.KubeletEnv;
import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.startup.ObjectDns;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.PodTemplate;
import dev.nimchart.objects.ServingContainer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.DynamicNode;
import dev.nimchart.junit.ChartTiers;
import dev.nimchart.sessions.TierSessions;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every example installed with Helm onto real controllers and fake GPU nodes, and held to what the cluster makes of
 * it: the workloads reach their desired state with no Warning event, pods land where their GPUs are, every name the
 * pods dial resolves (on objects) to the right pod, the environment the kubelet would start them with is complete,
 * the Services, ServiceMonitor, PodDisruptionBudget, NetworkPolicies and autoscaler select the pods they mean to,
 * claims bind, and uninstalling leaves only the kept claims.
 */
@ExtendWith(ChartTiers.class)
public class ReconciledExampleIT {

    /** How long the controllers get to reconcile one example (-Dnim.reconcile.timeout seconds, default 90). */
    public static final Duration RECONCILE_TIMEOUT = dev.nimchart.settings.SettingsFromProperties.shared().reconcileTimeout();

    @TestFactory
    Stream<DynamicNode> everyExampleReconcilesToItsDesiredState(TierSessions tiers) {
        return DynamicChecks.of(RepositoryChart.check().withSessions(tiers).tierTests(Tier.CONTROLLERS));
    }

    /** nim-llm's rules on a reconciled example (the library checked the desired state and checks the uninstall). */
    public static void assertReconciled(ChartRules.Reconciled release) {
        Reconciled r = new Reconciled(Example.of(release.valuesFile()), release.release(), release.state());
        SoftAssertions soft = new SoftAssertions();
        noWarningEvents(soft, r);
        podsLandWhereTheirGpusAre(soft, r, release.api());
        everyPodSubdomainIsAHeadlessServiceWithItsHostname(soft, r);
        addressesThePodsDialResolveToTheirGroup(soft, r);
        envIsCompleteAsTheKubeletExpandsIt(soft, r);
        inferenceServiceEndpointsAreTheServingPods(soft, r);
        selectorsSelectThePodsTheyMean(soft, r);
        RoutingChecks.check(soft, r, release.api());
        claimsAreBoundOnePerStatefulSetPod(soft, r);
        thePrefillJobRanWithoutAGpuOnTheSharedCache(soft, r, release.api());
        soft.assertAll();
    }

    /**
     * The model cache pre-fill Job (docs/model-sources.md), where the example has one: the Job controller ran it to
     * Complete (the desired state waits for that), its pod landed on a node without GPUs and asked for none, mounted the
     * claim every NIM pod mounts, and every NIM pod waits for the marker the Job writes. kwok runs no container, so the
     * order (the NIM pods' init containers wait until the Job's pod has written the marker) is shown by
     * CachePrefillScriptsTest, not here.
     */
    @SuppressWarnings("unchecked")
    private static void thePrefillJobRanWithoutAGpuOnTheSharedCache(SoftAssertions soft, Reconciled r, KubeApi api) {
        String name = r.example().name();
        List<KubeObject> jobs = r.state().all("Job").stream().filter(j -> "cache-prefill".equals(j.labels().get("app.kubernetes.io/component"))).toList();
        if (!r.example().flag("cachePrefill.enabled")) {
            soft.assertThat(jobs).as("%s: no pre-fill Job", name).isEmpty();
            return;
        }
        soft.assertThat(jobs).as("%s: one pre-fill Job", name).hasSize(1);
        soft.assertThat(jobs).as("%s: the pre-fill Job completed", name)
                .allMatch(j -> j.list("status.conditions").stream().anyMatch(c -> "Complete".equals(c.at("type")) && "True".equals(c.at("status"))));
        List<KubeObject> jobPods = r.jobPods();
        soft.assertThat(jobPods).as("%s: the pre-fill Job's pod", name).isNotEmpty();
        for (KubeObject pod : jobPods) {
            soft.assertThat(pod.at("status.phase")).as("%s: phase of %s", name, pod.name()).isEqualTo("Succeeded");
            soft.assertThat(pod.list("spec.containers").stream().mapToInt(c -> PodTemplate.limit(c, "nvidia.com/gpu")).sum())
                    .as("%s: GPUs of %s", name, pod.name()).isZero();
            KubeObject node = new KubeObject(KubeApi.require(api.get("/api/v1/nodes/" + pod.at("spec.nodeName")), "get node"));
            soft.assertThat(node.at("status.capacity[nvidia.com/gpu]")).as("%s: %s ran on %s, a node without GPUs", name, pod.name(), node.name())
                    .isNull();
            Set<Object> claims = new HashSet<>();
            pod.list("spec.volumes").forEach(v -> claims.add(v.at("persistentVolumeClaim.claimName")));
            for (KubeObject nimPod : r.gpuPods()) {
                soft.assertThat(claims).as("%s: %s fills the claim %s mounts", name, pod.name(), nimPod.name())
                        .containsAll(nimPod.list("spec.volumes").stream().filter(v -> "model-store".equals(v.at("name")))
                                .map(v -> v.at("persistentVolumeClaim.claimName")).toList());
                soft.assertThat(nimPod.list("spec.initContainers")).as("%s: %s waits for the cache", name, nimPod.name())
                        .anyMatch(c -> "wait-for-model-cache".equals(c.at("name")));
            }
        }
    }

    /** No controller, the scheduler or admission complained about anything of the release. */
    private static void noWarningEvents(SoftAssertions soft, Reconciled r) {
        soft.assertThat(r.state().warnings()).as("%s: Warning events", r.example().name())
                .filteredOn(w -> !ExplainedWarnings.explains(w)).isEmpty();
    }

    /** GPUs allocated to a pod's DRA claims (devices of NVIDIA's GPU driver). */
    private static int draGpus(Reconciled r, KubeObject pod) {
        java.util.Set<Object> names = new java.util.HashSet<>();
        pod.list("status.resourceClaimStatuses").forEach(c -> names.add(c.at("resourceClaimName")));
        return (int) r.state().all("ResourceClaim").stream().filter(c -> names.contains(c.name()))
                .flatMap(c -> c.list("status.allocation.devices.results").stream())
                .filter(d -> PodTemplate.DRA_GPU_CLASS.equals(d.at("driver"))).count();
    }

    /** GPU devices the node publishes by DRA (its ResourceSlices of NVIDIA's GPU driver). */
    @SuppressWarnings("unchecked")
    private static int draGpuDevices(KubeApi api, String node) {
        int n = 0;
        for (Object o : (List<Object>) KubeApi.require(api.get("/apis/resource.k8s.io/v1/resourceslices?fieldSelector=spec.nodeName%3D" + node), "list slices").getOrDefault("items", List.of())) {
            KubeObject slice = new KubeObject((Map<String, Object>) o);
            if (PodTemplate.DRA_GPU_CLASS.equals(slice.at("spec.driver"))) {
                n += slice.list("spec.devices").size();
            }
        }
        return n;
    }

    /** Every pod is scheduled; a pod asking for a whole node's GPUs has that node to itself; the launcher asks for none. */
    private static void podsLandWhereTheirGpusAre(SoftAssertions soft, Reconciled r, KubeApi api) {
        Map<String, Integer> gpusOnNode = new LinkedHashMap<>();
        for (KubeObject pod : r.pods()) {
            String node = (String) pod.at("spec.nodeName");
            soft.assertThat(node).as("%s: node of %s", r.example().name(), pod.name()).isNotNull();
            int gpus = pod.list("spec.containers").stream().mapToInt(c -> PodTemplate.limit(c, "nvidia.com/gpu")).sum() + draGpus(r, pod);
            gpusOnNode.merge(node, gpus, Integer::sum);
        }
        for (KubeObject pod : r.gpuPods()) {
            KubeObject node = new KubeObject(KubeApi.require(api.get("/api/v1/nodes/" + pod.at("spec.nodeName")), "read the node"));
            Object allocatable = node.at("status.allocatable[nvidia.com/gpu]");
            int capacity = (allocatable == null ? 0 : Integer.parseInt(allocatable.toString())) + draGpuDevices(api, node.name());
            soft.assertThat(gpusOnNode.get(node.name())).as("%s: GPUs asked on %s (of %d)", r.example().name(), node.name(), capacity)
                    .isLessThanOrEqualTo(capacity);
            int own = pod.list("spec.containers").stream().mapToInt(c -> PodTemplate.limit(c, "nvidia.com/gpu")).sum() + draGpus(r, pod);
            soft.assertThat(own).as("%s: GPUs of %s", r.example().name(), pod.name()).isEqualTo(r.example().gpuLimit());
            if (own == capacity) {
                soft.assertThat(r.gpuPods().stream().filter(p -> node.name().equals(p.at("spec.nodeName"))).map(KubeObject::name))
                        .as("%s: %s asks for all %d GPUs of its node, so no other GPU pod shares it", r.example().name(), pod.name(), capacity)
                        .containsExactly(pod.name());
            }
        }
        for (KubeObject launcher : r.launchers()) {
            soft.assertThat(launcher.list("spec.containers").stream().mapToInt(c -> PodTemplate.limit(c, "nvidia.com/gpu")).sum())
                    .as("%s: GPUs of the launcher %s", r.example().name(), launcher.name()).isZero();
        }
    }

    /** Each pod's subdomain is a headless Service that publishes it (ready or not) under its hostname. */
    private static void everyPodSubdomainIsAHeadlessServiceWithItsHostname(SoftAssertions soft, Reconciled r) {
        ObjectDns dns = new ObjectDns(r.state());
        for (KubeObject pod : r.pods()) {
            Object subdomain = pod.at("spec.subdomain");
            if (subdomain == null) {
                continue;
            }
            Optional<KubeObject> svc = r.state().named("Service", subdomain.toString());
            soft.assertThat(svc).as("%s: a Service named after the subdomain of %s", r.example().name(), pod.name()).isPresent();
            svc.ifPresent(s -> {
                soft.assertThat(s.at("spec.clusterIP")).as("%s: %s is headless", r.example().name(), s).isEqualTo("None");
                if (r.example().mode().equals("mpijob")) {
                    // mpi-operator publishes only Ready workers, and worker 0 is Ready only once its server answers: the
                    // launcher starts with the workers (its script waits for their sshd), and dials worker 0 by the
                    // chart's headless Service named like its host, which publishes it before it is Ready.
                    soft.assertThat(r.state().named("MPIJob", subdomain.toString()).map(j -> j.at("spec.launcherCreationPolicy")))
                            .as("%s: the launcher of %s starts with its workers", r.example().name(), subdomain).contains("AtStartup");
                    if ("0".equals(pod.label(Reconciled.MPI_INDEX)) && "worker".equals(pod.label(Reconciled.MPI_ROLE))) {
                        Optional<KubeObject> rank0 = r.state().named("Service", pod.at("spec.hostname") + "");
                        soft.assertThat(rank0.map(x -> x.at("spec.publishNotReadyAddresses"))).as("%s: a Service %s publishing %s before it is Ready",
                                r.example().name(), pod.at("spec.hostname"), pod.name()).contains(true);
                    }
                } else {
                    soft.assertThat(s.at("spec.publishNotReadyAddresses")).as("%s: %s publishes pods that are not ready yet",
                            r.example().name(), s).isEqualTo(true);
                }
            });
            String host = pod.at("spec.hostname") == null ? pod.name() : pod.at("spec.hostname").toString();
            soft.assertThat(dns.resolve(host + "." + subdomain + "." + r.state().namespace()))
                    .as("%s: %s.%s resolves to its pod", r.example().name(), host, subdomain).contains("Pod/" + pod.name());
        }
    }

    /**
     * Every address the start-up dials resolves to the right pod of the same group: the LWS leader address (and the
     * chart's variables built from it) to the group's leader, the worker names the chart's own common.sh derives to
     * the group's workers, and the MPI operator's hostfile entries to the job's workers.
     */
    private static void addressesThePodsDialResolveToTheirGroup(SoftAssertions soft, Reconciled r) {
        ObjectDns dns = new ObjectDns(r.state());
        String name = r.example().name();
        for (Map.Entry<String, List<KubeObject>> group : r.groups().entrySet()) {
            List<KubeObject> members = group.getValue();
            if (r.example().mode().equals("leaderworkerset")) {
                KubeObject leader = members.stream().filter(p -> "0".equals(p.label(Reconciled.LWS_WORKER_INDEX))).findFirst().orElseThrow();
                for (KubeObject pod : members) {
                    Map<String, String> podEnv = KubeletEnv.of(pod, nimContainer(pod), r.state());
                    for (String var : List.of("LWS_LEADER_ADDRESS", "NIM_LEADER_ADDRESS", "NIM_LEADER_IP_ADDRESS", "MASTER_ADDR")) {
                        if (podEnv.containsKey(var)) {
                            soft.assertThat(dns.resolve(podEnv.get(var))).as("%s: %s=%s in %s", name, var, podEnv.get(var), pod.name())
                                    .contains("Pod/" + leader.name());
                        }
                    }
                }
                Map<String, String> leaderEnv = KubeletEnv.of(leader, nimContainer(leader), r.state());
                if (ChartScripts.usesMpi(leader)) {
                    List<String> dialed = ChartScripts.workerHosts(r.state(), leaderEnv);
                    Set<String> resolved = new TreeSet<>();
                    for (String host : dialed) {
                        Optional<String> target = dns.resolve(host);
                        soft.assertThat(target).as("%s: worker address %s that %s dials", name, host, leader.name()).isPresent();
                        target.ifPresent(resolved::add);
                    }
                    soft.assertThat(resolved).as("%s: the workers %s dials", name, leader.name())
                            .isEqualTo(new TreeSet<>(members.stream().filter(p -> p != leader).map(p -> "Pod/" + p.name()).toList()));
                }
            } else if (r.example().mode().equals("mpijob")) {
                String job = group.getKey();
                Optional<KubeObject> config = r.state().named("ConfigMap", job + "-config");
                soft.assertThat(config).as("%s: the MPI operator's hostfile ConfigMap of %s", name, job).isPresent();
                config.ifPresent(cm -> {
                    Set<String> resolved = new TreeSet<>();
                    boolean first = true;
                    for (String line : String.valueOf(cm.at("data.hostfile")).split("\n")) {
                        String host = line.strip().split("\\s+")[0];
                        if (host.isEmpty()) {
                            continue;
                        }
                        if (first) {
                            // launcher.sh dials worker 0 by the chart's name for it (common.sh serving_host).
                            host = ChartScripts.servingHost(r.state(), host);
                            first = false;
                        }
                        Optional<String> target = dns.resolve(host);
                        soft.assertThat(target).as("%s: hostfile entry %s of %s", name, host, job).isPresent();
                        target.ifPresent(resolved::add);
                    }
                    soft.assertThat(resolved).as("%s: the hosts of %s's hostfile", name, job).isEqualTo(new TreeSet<>(members.stream()
                            .filter(p -> "worker".equals(p.label(Reconciled.MPI_ROLE))).map(p -> "Pod/" + p.name()).toList()));
                });
                KubeObject worker0 = members.stream().filter(p -> "worker".equals(p.label(Reconciled.MPI_ROLE))
                        && "0".equals(p.label(Reconciled.MPI_INDEX))).findFirst().orElseThrow();
                for (KubeObject pod : members) {
                    Map<String, String> podEnv = KubeletEnv.of(pod, nimContainer(pod), r.state());
                    if (podEnv.containsKey("MASTER_ADDR")) {
                        soft.assertThat(dns.resolve(podEnv.get("MASTER_ADDR"))).as("%s: MASTER_ADDR=%s in %s", name, podEnv.get("MASTER_ADDR"),
                                pod.name()).contains("Pod/" + worker0.name());
                    }
                }
            }
        }
    }

    /**
     * As the kubelet will start them: every $(NAME) refers to a variable defined before it, every label a fieldRef
     * reads exists on the pod, the LWS webhook's variables are there, and NIM_NODE_RANK numbers each group 0..n-1 with
     * the leader 0.
     */
    private static void envIsCompleteAsTheKubeletExpandsIt(SoftAssertions soft, Reconciled r) {
        String name = r.example().name();
        for (KubeObject pod : r.pods()) {
            for (KubeObject container : pod.list("spec.containers")) {
                Set<String> defined = new HashSet<>();
                for (KubeObject entry : container.list("env")) {
                    Object value = entry.at("value");
                    if (value != null) {
                        for (String ref : KubeletEnv.references(value.toString())) {
                            soft.assertThat(defined).as("%s: %s/%s env %s refers to $(%s), defined before it", name, pod.name(),
                                    container.at("name"), entry.at("name"), ref).contains(ref);
                        }
                    }
                    Object fieldPath = entry.at("valueFrom.fieldRef.fieldPath");
                    if (fieldPath != null && fieldPath.toString().startsWith("metadata.labels[")) {
                        String label = fieldPath.toString().replaceAll("^metadata\\.labels\\['(.*)'\\]$", "$1");
                        soft.assertThat(pod.labels()).as("%s: %s has the label %s that env %s reads", name, pod.name(), label, entry.at("name"))
                                .containsKey(label);
                    }
                    defined.add(entry.at("name").toString());
                }
            }
        }
        if (r.example().mode().equals("leaderworkerset")) {
            for (KubeObject pod : r.pods()) {
                soft.assertThat(KubeletEnv.of(pod, nimContainer(pod), r.state()).keySet()).as("%s: LWS variables of %s", name, pod.name())
                        .contains("LWS_LEADER_ADDRESS", "LWS_GROUP_SIZE", "LWS_WORKER_INDEX");
            }
        }
        for (Map.Entry<String, List<KubeObject>> group : r.groups().entrySet()) {
            List<String> ranks = new ArrayList<>();
            for (KubeObject pod : group.getValue()) {
                Map<String, String> podEnv = KubeletEnv.of(pod, nimContainer(pod), r.state());
                if (podEnv.containsKey("NIM_NODE_RANK")) {
                    ranks.add(podEnv.get("NIM_NODE_RANK"));
                    if ("0".equals(pod.label(Reconciled.LWS_WORKER_INDEX))) {
                        soft.assertThat(podEnv.get("NIM_NODE_RANK")).as("%s: NIM_NODE_RANK of the leader %s", name, pod.name()).isEqualTo("0");
                    }
                }
            }
            if (!ranks.isEmpty()) {
                List<String> expected = new ArrayList<>();
                for (int i = 0; i < ranks.size(); i++) {
                    expected.add(Integer.toString(i));
                }
                soft.assertThat(ranks).as("%s: NIM_NODE_RANK values in group %s", name, group.getKey()).containsExactlyInAnyOrderElementsOf(expected);
            }
        }
    }

    /** The inference Service's EndpointSlices hold exactly the serving pods. */
    private static void inferenceServiceEndpointsAreTheServingPods(SoftAssertions soft, Reconciled r) {
        List<KubeObject> inference = r.state().all("Service").stream()
                .filter(s -> "inference".equals(Example.serviceRole(s))).toList();
        soft.assertThat(inference).as("%s: one inference Service", r.example().name()).hasSize(1);
        for (KubeObject svc : inference) {
            Set<String> endpoints = new TreeSet<>();
            for (KubeObject slice : r.state().endpointSlicesOf(svc.name())) {
                slice.list("endpoints").forEach(ep -> endpoints.add(String.valueOf(ep.at("targetRef.name"))));
            }
            soft.assertThat(endpoints).as("%s: endpoints of %s", r.example().name(), svc)
                    .isEqualTo(new TreeSet<>(Reconciled.names(r.servingPods())));
        }
    }

    /** ServiceMonitor, PodDisruptionBudget, NetworkPolicies and the autoscaler each select what they mean to. */
    private static void selectorsSelectThePodsTheyMean(SoftAssertions soft, Reconciled r) {
        String name = r.example().name();
        for (KubeObject monitor : r.state().all("ServiceMonitor")) {
            soft.assertThat(r.state().all("Service").stream().filter(s -> NamespaceState.selects(monitor.at("spec.selector"), s.labels()))
                    .map(Example::serviceRole).toList()).as("%s: Services %s selects", name, monitor).containsExactly("inference");
        }
        for (KubeObject pdb : r.state().all("PodDisruptionBudget")) {
            List<String> covered = r.pods().stream().filter(p -> NamespaceState.selects(pdb.at("spec.selector"), p.labels()))
                    .map(KubeObject::name).sorted().toList();
            soft.assertThat(covered).as("%s: pods %s covers", name, pdb).isEqualTo(Reconciled.names(r.example().multiNode() ? r.gpuPods() : r.pods()));
            soft.assertThat(String.valueOf(pdb.at("status.expectedPods"))).as("%s: %s status.expectedPods (disruption controller)", name, pdb)
                    .isEqualTo(Integer.toString(covered.size()));
        }
        Map<String, List<KubeObject>> groups = r.groups();
        Set<String> groupsWithPolicy = new TreeSet<>();
        for (KubeObject policy : r.state().all("NetworkPolicy")) {
            List<String> selected = r.state().livePods().stream().filter(p -> NamespaceState.selects(policy.at("spec.podSelector"), p.labels()))
                    .map(KubeObject::name).sorted().toList();
            String suffix = policy.name().substring(policy.name().lastIndexOf('-') + 1);
            List<String> meant = switch (suffix) {
                case "inference" -> Reconciled.names(r.servingPods());
                // Every model pod (launcher included), in air-gap mode.
                case "egress" -> Reconciled.names(r.pods());
                case "epp" -> Reconciled.names(r.endpointPickers());
                // The helm test pod exists only while `helm test` runs, which this tier does not: no live pod may match.
                case "test" -> List.of();
                // The pre-fill Job's pods, those still live (a finished pod may be gone).
                case "prefill" -> Reconciled.names(r.jobPods());
                default -> null;
            };
            if (meant != null) {
                soft.assertThat(selected).as("%s: pods %s selects", name, policy).isEqualTo(meant);
                continue;
            }
            if (selected.isEmpty() && suffix.matches("[0-9]+") && Integer.parseInt(suffix) >= groups.size()) {
                // A group slot the autoscaler or a rolling update's surge may fill (the chart renders policies for
                // autoscaling.maxReplicas groups and the surge groups, nim-llm.groups): no group runs there yet.
                continue;
            }
            Optional<Map.Entry<String, List<KubeObject>>> group = groups.entrySet().stream()
                    .filter(g -> Reconciled.names(g.getValue()).equals(selected)).findFirst();
            soft.assertThat(group).as("%s: %s selects exactly one group's pods (it selects %s)", name, policy, selected).isPresent();
            group.ifPresent(g -> groupsWithPolicy.add(g.getKey()));
        }
        if (r.example().flag("networkPolicy.enabled") && r.example().multiNode()) {
            soft.assertThat(groupsWithPolicy).as("%s: groups with their own NetworkPolicy", name).isEqualTo(groups.keySet());
        }
        for (KubeObject hpa : r.state().all("HorizontalPodAutoscaler")) {
            soft.assertThat(hpa.list("status.conditions")).as("%s: %s reads its target's scale", name, hpa)
                    .anyMatch(c -> "AbleToScale".equals(c.at("type")) && "True".equals(c.at("status")));
        }
    }

    /** Every claim is Bound; a StatefulSet's pods each mount a claim of their own. */
    private static void claimsAreBoundOnePerStatefulSetPod(SoftAssertions soft, Reconciled r) {
        for (KubeObject claim : r.state().all("PersistentVolumeClaim")) {
            soft.assertThat(claim.at("status.phase")).as("%s: %s", r.example().name(), claim).isEqualTo("Bound");
        }
        if (r.example().mode().equals("statefulset") && !r.state().all("StatefulSet").get(0).list("spec.volumeClaimTemplates").isEmpty()) {
            List<String> mounted = new ArrayList<>();
            for (KubeObject pod : r.pods()) {
                pod.list("spec.volumes").stream().map(v -> v.at("persistentVolumeClaim.claimName")).filter(java.util.Objects::nonNull)
                        .forEach(c -> mounted.add(c.toString()));
            }
            soft.assertThat(mounted).as("%s: claims the StatefulSet pods mount", r.example().name())
                    .hasSize(r.pods().size()).doesNotHaveDuplicates();
            soft.assertThat(r.state().all("PersistentVolumeClaim").stream().map(KubeObject::name).toList())
                    .as("%s: claims of the StatefulSet", r.example().name()).containsExactlyInAnyOrderElementsOf(mounted);
        }
    }

    public static KubeObject nimContainer(KubeObject pod) {
        return ServingContainer.of(pod);
    }

}
