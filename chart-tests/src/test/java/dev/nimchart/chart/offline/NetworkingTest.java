package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.Example;
import dev.nimchart.chart.repository.Examples;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.PodTemplate;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.values.ExampleValuesFiles;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Per-cloud networking injected into every GPU pod of a multi-node deployment: device counts, capabilities,
 * annotations, sidecar, mounts and variables; nothing for the MPI launcher, other containers, or single-node pods.
 */
class NetworkingTest {

    private static final Map<String, Integer> EFA_PER_INSTANCE = Map.of("p4d.24xlarge", 4, "p4de.24xlarge", 4,
            "p5.48xlarge", 32, "p5e.48xlarge", 32, "p5en.48xlarge", 16, "p6-b200.48xlarge", 8);
    private static final List<String> DEVICE_RESOURCES = List.of("vpc.amazonaws.com/efa", "nvidia.com/mlnxnics");

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.WITH_NETWORKING)
    void everyGpuContainerRequestsDevicesPerGpuTimesItsGpus(Path file) {
        Example e = Example.of(file);
        String resource = deviceResource(e);
        int expected = expectedDevices(e);
        for (PodTemplate t : e.templates) {
            KubeObject nim = t.nim();
            if (!t.gpuPod()) {
                assertNoNetworking(e, t);
                continue;
            }
            if (resource == null) {
                assertThat(deviceLimits(nim)).as("%s: %s (gcp uses NICs, not device requests)", e.name(), t).isEmpty();
                continue;
            }
            assertThat(PodTemplate.limit(nim, resource)).as("%s: %s requests %s", e.name(), t, resource).isEqualTo(expected);
            if (nim.at("resources.requests") != null) {
                assertThat(nim.at("resources.requests[" + resource + "]")).as("%s: requests equal limits", e.name())
                        .isEqualTo(expected);
            }
            for (KubeObject other : t.initContainers()) {
                assertThat(deviceLimits(other)).as("%s: init container %s", e.name(), other.at("name")).isEmpty();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource(Examples.WITH_NETWORKING)
    void theProviderInjectsWhatItsNetworkNeeds(Path file) {
        Example e = Example.of(file);
        for (PodTemplate t : e.gpuTemplates()) {
            KubeObject nim = t.nim();
            Map<String, KubeObject> env = PodTemplate.env(nim);
            String where = e.name() + ": " + t;
            switch (e.networkingProvider()) {
                case "aws" -> {
                    // NVIDIA's EFA fabric profile: the host's /opt/amazon, NCCL finding the aws-ofi-nccl plugin first.
                    String hostPath = e.text("multinodeNetworking.aws.hostPath");
                    assertMount(t, hostPath, "hostPath.path", hostPath, where);
                    assertPrependsLibraryPath(e, t, e.text("multinodeNetworking.aws.ldLibraryPath"), where);
                    assertThat(env.get("FI_PROVIDER").at("value")).as(where).isEqualTo(userOr(e, "FI_PROVIDER", "efa"));
                    assertThat(env).as(where).containsKeys("FI_EFA_USE_DEVICE_RDMA", "FI_EFA_USE_HUGE_PAGE");
                    if ("0".equals(env.get("FI_EFA_USE_HUGE_PAGE").at("value"))) {
                        assertThat(hugepages(nim)).as("%s: FI_EFA_USE_HUGE_PAGE=0 allocates no hugepages, so none are requested",
                                where).isEmpty();
                    }
                    assertThat(capabilities(nim)).as(where).containsExactly("IPC_LOCK");
                }
                case "azure" -> {
                    assertThat(env.get("NCCL_TOPO_FILE").at("value")).as(where).isEqualTo("/etc/nccl/topology.xml");
                    assertMount(t, "/etc/nccl", "configMap.name", topologyConfigMap(e).name(), where);
                    assertThat(topologyConfigMap(e).at("data[topology.xml]")).asString().contains("<system version=\"1\">")
                            .contains("class=\"0x020700\"");
                    assertThat(env).as(where).containsKeys("UCX_TLS", "UCX_IB_PCI_RELAXED_ORDERING",
                            "NCCL_IB_PCI_RELAXED_ORDERING", "CUDA_DEVICE_ORDER");
                    assertThat(capabilities(nim)).as(where).containsExactly("IPC_LOCK");
                }
                case "gcp" -> {
                    KubeObject sidecar = t.initContainers().stream().filter(c -> "tcpxo-daemon".equals(c.at("name")))
                            .findFirst().orElseThrow(() -> new AssertionError(where + " has no tcpxo-daemon"));
                    assertThat(sidecar.at("restartPolicy")).as(where).isEqualTo("Always");
                    assertThat(sidecar.at("image")).isEqualTo(e.text("multinodeNetworking.gcp.tcpxoDaemonImage"));
                    assertThat(strings(sidecar.at("securityContext.capabilities.add"))).contains("NET_ADMIN");
                    assertThat(capabilities(nim)).as("%s: the NIM container needs no capability", where).isEmpty();
                    assertMount(t, "/dev/aperture_devices", "hostPath.path", "/dev/aperture_devices", where);
                    assertThat(env.get("NCCL_FASTRAK_IFNAME").at("value")).isEqualTo("eth1,eth2,eth3,eth4,eth5,eth6,eth7,eth8");
                    assertThat(env).containsKeys("NCCL_FASTRAK_LLCM_DEVICE_DIRECTORY", "NCCL_FASTRAK_CTRL_DEV", "NCCL_SOCKET_IFNAME");
                    assertPrependsLibraryPath(e, t, "/usr/local/nvidia/lib64", where);
                    // Google's current reference runs the daemon with --num_hops=2 alone (--num_nics retired Nov 2025;
                    // --uid and --alsologtostderr obsolete since Aug 2025), and its Jan 9, 2026 NCCL configuration.
                    assertThat(String.valueOf(sidecar.at("args"))).as(where).contains("--num_hops=2")
                            .doesNotContain("--num_nics").doesNotContain("--uid").doesNotContain("--alsologtostderr");
                    Map.of("NCCL_MIN_NCHANNELS", "4", "NCCL_NVLSTREE_MAX_CHUNKSIZE", "131072", "NCCL_NVLS_ENABLE", "1")
                            .forEach((name, value) -> assertThat(env.get(name)).as("%s: %s", where, name).isNotNull()
                                    .extracting(v -> v.at("value")).isEqualTo(userOr(e, name, value)));
                    assertThat(env).as("%s: removed from Google's configuration since Nov 2025", where)
                            .doesNotContainKey("NCCL_DYNAMIC_CHUNK_SIZE");
                    // Google's gpudirect-tcpxo release notes: the tuner plugin and its configs, installed with NCCL in
                    // the host's lib64 the chart mounts at /usr/local/nvidia/lib64; the default config expects LL128.
                    assertMount(t, "/usr/local/nvidia/lib64", "hostPath.path", "/home/kubernetes/bin/nvidia/lib64", where);
                    Map<String, String> tuner = Map.of("NCCL_TUNER_PLUGIN", "libnccl-tuner.so",
                            "NCCL_TUNER_CONFIG_PATH", "/usr/local/nvidia/lib64/a3plus_tuner_config.textproto",
                            "NCCL_SHIMNET_GUEST_CONFIG_CHECKER_CONFIG_FILE",
                            "/usr/local/nvidia/lib64/a3plus_guest_config.textproto",
                            "NCCL_PROTO", "Simple,LL128");
                    tuner.forEach((name, value) -> assertThat(env.get(name)).as("%s: %s", where, name).isNotNull()
                            .extracting(v -> v.at("value")).isEqualTo(userOr(e, name, value)));
                    String interfaces = (String) t.pod().annotations().get("networking.gke.io/interfaces");
                    for (Object network : (List<?>) e.values.at("multinodeNetworking.gcp.networks")) {
                        assertThat(interfaces).as(where).contains("\"network\":\"" + network + "\"");
                    }
                    assertThat(t.pod().annotations()).containsKey("devices.gke.io/container.tcpxo-daemon")
                            .containsEntry("networking.gke.io/default-interface", "eth0");
                }
                case "oci" -> {
                    String networks = (String) t.pod().annotations().get("k8s.v1.cni.cncf.io/networks");
                    assertThat(networks.split(",")).as("%s: one Multus network per VF", where).hasSize(expectedDevices(e))
                            .containsOnly(e.text("multinodeNetworking.oci.networkName"));
                    assertMount(t, "/dev/infiniband", "hostPath.path", "/dev/infiniband", where);
                    assertThat(env).as(where).containsKeys("NCCL_IB_GID_INDEX", "NCCL_IB_TC", "NCCL_IB_SL", "NCCL_IB_TIMEOUT");
                    assertThat(env.get("NCCL_IB_HCA").at("value")).as(where).isEqualTo(userOr(e, "NCCL_IB_HCA", "mlx5"));
                    assertThat(capabilities(nim)).as(where).containsExactly("IPC_LOCK");
                }
                default -> throw new AssertionError(where);
            }
        }
    }

    /**
     * The image's LD_LIBRARY_PATH stays (the pod spec does not set it, unless the user's env does) and the container's
     * command runs through library-path.sh with the plugin directories, which prepends them at process start.
     */
    private static void assertPrependsLibraryPath(Example e, PodTemplate t, String dirs, String where) {
        Map<String, KubeObject> env = PodTemplate.env(t.nim());
        if (e.userEnv().containsKey("LD_LIBRARY_PATH")) {
            assertThat(env.get("LD_LIBRARY_PATH").raw()).as(where).isEqualTo(e.userEnv().get("LD_LIBRARY_PATH").raw());
        } else {
            assertThat(env).as("%s: the image's LD_LIBRARY_PATH is not replaced", where).doesNotContainKey("LD_LIBRARY_PATH");
        }
        if (dirs.isEmpty()) {
            assertThat(String.valueOf(t.nim().at("command"))).as(where).doesNotContain("library-path.sh");
            return;
        }
        Object command = t.nim().at("command");
        assertThat(command).as("%s: a command running library-path.sh", where).isInstanceOf(List.class);
        List<?> list = (List<?>) command;
        assertThat(list.subList(0, Math.min(4, list.size()))).as(where)
                .isEqualTo(List.of("/bin/bash", "/opt/nim-llm/mpi/library-path.sh", dirs, "--"));
    }

    /** Azure/azhpc-images topology/ndv4-topo.xml and ndv5-topo.xml (commit 4a4565a), byte for byte. */
    private static final Map<String, String> AZURE_TOPOLOGY_SHA256 = Map.of(
            "ndv4", "c3583efb0b6e53f52410e32643b46bb6af99f5f34dcebc1868c47c233f84d2cf",
            "ndv5", "c26ff47f1decf03d44ee6e90c4a8afd3bddeec334c5545008f33af2a297e2834");

    @Test
    void theAzureTopologyIsAzuresPublishedFileForEachVmGeneration() throws Exception {
        Path azure = Examples.named("multi-node-azure-infiniband-ndv5.yaml");
        for (var generation : AZURE_TOPOLOGY_SHA256.entrySet()) {
            Path file = ChartUnderTest.chartDir().resolve("files/azure/" + generation.getKey() + "-topology.xml");
            byte[] bytes = java.nio.file.Files.readAllBytes(file);
            String sha = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
            assertThat(sha).as("%s differs from Azure/azhpc-images topology/%s-topo.xml", file, generation.getKey())
                    .isEqualTo(generation.getValue());
            RenderedManifest m = ChartUnderTest.render(azure, Map.of("multinodeNetworking.azure.vmGeneration", generation.getKey()));
            KubeObject configMap = m.ofKind("ConfigMap").stream().filter(c -> c.name().endsWith("-nccl-topology"))
                    .findFirst().orElseThrow();
            assertThat(((String) configMap.at("data[topology.xml]")).strip()).as(generation.getKey())
                    .isEqualTo(new String(bytes, java.nio.charset.StandardCharsets.UTF_8).strip());
        }
    }

    @Test
    void theEfaHostPathAndLibraryPathAreValues() {
        Path p5 = Examples.named("multi-node-aws-efa-p5.yaml");
        RenderedManifest m = ChartUnderTest.render(p5, Map.of("multinodeNetworking.aws.hostPath", "/opt/amazon-efa-ofi",
                "multinodeNetworking.aws.ldLibraryPath", ""));
        for (PodTemplate t : PodTemplate.of(m)) {
            if (!t.gpuPod()) {
                continue;
            }
            assertMount(t, "/opt/amazon-efa-ofi", "hostPath.path", "/opt/amazon-efa-ofi", t.toString());
            assertThat(PodTemplate.env(t.nim())).as("%s: empty ldLibraryPath keeps the image's value", t)
                    .doesNotContainKey("LD_LIBRARY_PATH");
            assertThat(String.valueOf(t.nim().at("command"))).as("%s: nothing to prepend", t).doesNotContain("library-path.sh");
        }
    }

    @Test
    void aProviderOnASingleNodeDeploymentInjectsNothing() {
        Path minimal = Examples.named("single-node-minimal.yaml");
        for (String provider : List.of("aws", "azure", "gcp", "oci")) {
            RenderedManifest m = ChartUnderTest.render(minimal, Map.of("multinodeNetworking." + provider + ".enabled", "true"));
            for (PodTemplate t : PodTemplate.of(m)) {
                assertNoNetworking(null, t);
            }
            assertThat(m.ofKind("ConfigMap")).as(provider).isEmpty();
        }
    }

    @Test
    void withoutAProviderNoCapabilityIsAddedAndAllAreDropped() {
        for (Path file : dev.nimchart.chart.repository.Examples.all().toList()) {
            Example e = Example.of(file);
            if (e.networkingProvider() != null) {
                continue;
            }
            for (PodTemplate t : e.templates) {
                assertThat(capabilities(t.nim())).as("%s: %s", e.name(), t).isEmpty();
                assertThat(strings(t.nim().at("securityContext.capabilities.drop"))).as("%s: %s", e.name(), t)
                        .containsExactly("ALL");
            }
        }
    }

    private static void assertNoNetworking(Example e, PodTemplate t) {
        String where = (e == null ? "" : e.name() + ": ") + t;
        for (KubeObject c : t.containers()) {
            assertThat(deviceLimits(c)).as(where).isEmpty();
            assertThat(capabilities(c)).as(where).isEmpty();
            assertThat(PodTemplate.env(c).keySet()).as(where)
                    .filteredOn(n -> n.startsWith("FI_") || n.startsWith("NCCL_FASTRAK") || n.equals("NCCL_TOPO_FILE")
                            || n.equals("NCCL_IB_GID_INDEX"))
                    .allMatch(n -> e != null && e.userEnv().containsKey(n));
        }
        assertThat(t.initContainers()).as(where).noneMatch(c -> "tcpxo-daemon".equals(c.at("name")));
        assertThat(t.pod().annotations().keySet()).as(where)
                .noneMatch(k -> k.startsWith("networking.gke.io") || k.startsWith("k8s.v1.cni.cncf.io"));
    }

    private static void assertMount(PodTemplate t, String mountPath, String sourceField, String sourceValue, String where) {
        KubeObject mount = t.nim().list("volumeMounts").stream()
                .filter(m -> mountPath.equals(m.at("mountPath"))).findFirst()
                .orElseThrow(() -> new AssertionError(where + " does not mount " + mountPath));
        KubeObject volume = t.volumes().stream().filter(v -> v.at("name").equals(mount.at("name"))).findFirst().orElseThrow();
        assertThat(volume.at(sourceField)).as("%s: %s comes from %s", where, mountPath, sourceValue).isEqualTo(sourceValue);
    }

    private static List<String> deviceLimits(KubeObject container) {
        Object limits = container.at("resources.limits");
        if (!(limits instanceof Map<?, ?> map)) {
            return List.of();
        }
        return map.keySet().stream().map(Object::toString)
                .filter(k -> DEVICE_RESOURCES.contains(k) || k.startsWith("rdma/")).toList();
    }

    private static List<String> hugepages(KubeObject container) {
        List<String> out = new java.util.ArrayList<>();
        for (String section : List.of("resources.limits", "resources.requests")) {
            if (container.at(section) instanceof Map<?, ?> map) {
                map.keySet().stream().map(Object::toString).filter(k -> k.startsWith("hugepages-")).forEach(out::add);
            }
        }
        return out;
    }

    private static List<String> capabilities(KubeObject container) {
        return strings(container.at("securityContext.capabilities.add"));
    }

    private static List<String> strings(Object list) {
        return list == null ? List.of() : ((List<?>) list).stream().map(Object::toString).toList();
    }

    private static String deviceResource(Example e) {
        return switch (e.networkingProvider()) {
            case "aws" -> "vpc.amazonaws.com/efa";
            case "azure" -> "rdma/" + e.text("multinodeNetworking.azure.rdmaDeviceName");
            case "oci" -> "nvidia.com/mlnxnics";
            default -> null;
        };
    }

    private static int expectedDevices(Example e) {
        int gpus = e.gpuLimit();
        return switch (e.networkingProvider()) {
            case "aws" -> e.text("multinodeNetworking.aws.instanceType").isEmpty()
                    ? e.integer("multinodeNetworking.aws.efaDevicesPerGPU") * gpus
                    : Math.max(1, (EFA_PER_INSTANCE.get(e.text("multinodeNetworking.aws.instanceType")) * gpus + 7) / 8);
            case "azure" -> e.integer("multinodeNetworking.azure.rdmaDevicesPerGPU") * gpus;
            case "oci" -> e.integer("multinodeNetworking.oci.rdmaDevicesPerGPU") * gpus;
            default -> 0;
        };
    }

    private static String userOr(Example e, String name, String fallback) {
        KubeObject user = e.userEnv().get(name);
        return user == null ? fallback : (String) user.at("value");
    }

    private static KubeObject topologyConfigMap(Example e) {
        return e.manifest.ofKind("ConfigMap").stream().filter(c -> c.name().endsWith("-nccl-topology")).findFirst()
                .orElseThrow(() -> new AssertionError(e.name() + " has no NCCL topology ConfigMap"));
    }
}
