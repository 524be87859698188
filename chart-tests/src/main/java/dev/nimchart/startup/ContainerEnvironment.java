package dev.nimchart.startup;

import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.objects.KubeObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A container's environment as its process starts with it: what the runtime adds (PATH, HOSTNAME, HOME and
 * LD_LIBRARY_PATH from the image, the GPU device plugin's NVIDIA_VISIBLE_DEVICES), then exactly what the kubelet gives
 * it ({@link KubeletEnv}), which replaces any of those it names.
 */
public final class ContainerEnvironment {

    /**
     * The image's PATH: a CUDA/NIM image is Debian-based and its PATH includes these; the stand-in image adds /opt/nim/bin,
     * where it keeps the programs a NIM 2.x/3.x image has on its PATH ({@code nim-serve-ray}, {@code ray}).
     */
    static final String IMAGE_PATH = "/opt/nim/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
    /**
     * The image's LD_LIBRARY_PATH: NIM images build on NVIDIA's CUDA images, whose Dockerfiles set
     * {@code /usr/local/nvidia/lib:/usr/local/nvidia/lib64}. A pod spec that sets LD_LIBRARY_PATH replaces it.
     */
    public static final String IMAGE_LD_LIBRARY_PATH = "/usr/local/nvidia/lib:/usr/local/nvidia/lib64";
    /** The DRA driver whose devices a runtime exposes as the device plugin exposes nvidia.com/gpu. */
    private static final String DRA_GPU_DRIVER = "gpu.nvidia.com";

    private ContainerEnvironment() {
    }

    /**
     * The container's environment on host {@code host} as {@code uid}, with {@code overrides} replacing entries after the
     * kubelet's expansion (empty for a faithful run).
     */
    static Map<String, String> of(NamespaceState state, KubeObject pod, KubeObject container, String host, long uid,
            Map<String, String> overrides) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", IMAGE_PATH);
        env.put("HOSTNAME", host);
        env.put("HOME", PodImage.IMAGE.runtimeHome(uid));
        env.put("LD_LIBRARY_PATH", IMAGE_LD_LIBRARY_PATH);
        Object gpus = container.at("resources.limits[nvidia.com/gpu]");
        boolean initContainer = pod.list("spec.initContainers").stream().anyMatch(c -> c.at("name").equals(container.at("name")));
        int gpuCount = gpus != null ? Integer.parseInt(gpus.toString()) : initContainer ? 0 : draGpus(state, pod);
        if (gpuCount > 0) {
            List<String> devices = new ArrayList<>();
            for (int g = 0; g < gpuCount; g++) {
                devices.add("GPU-" + pod.name() + "-" + g);
            }
            env.put("NVIDIA_VISIBLE_DEVICES", String.join(",", devices));
        }
        env.putAll(KubeletEnv.of(pod, container, state));
        env.putAll(overrides);
        return env;
    }

    /** GPUs a DRA driver allocated to the pod's claims (devices of driver {@value #DRA_GPU_DRIVER}). */
    private static int draGpus(NamespaceState state, KubeObject pod) {
        Set<Object> claims = new HashSet<>();
        pod.list("status.resourceClaimStatuses").forEach(c -> claims.add(c.at("resourceClaimName")));
        int count = 0;
        for (KubeObject claim : state.all("ResourceClaim")) {
            if (claims.contains(claim.name())) {
                count += (int) claim.list("status.allocation.devices.results").stream().filter(r -> DRA_GPU_DRIVER.equals(r.at("driver"))).count();
            }
        }
        return count;
    }
}
