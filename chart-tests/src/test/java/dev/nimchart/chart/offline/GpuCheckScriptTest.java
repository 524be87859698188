package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.CiScript;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * {@code ci/gpu-check.sh} never pretends: on a machine without an NVIDIA GPU (every CI machine of this project) it says
 * so and exits 3 before it looks for PyTorch or starts anything.
 */
class GpuCheckScriptTest {

    @Test
    void withoutAGpuTheCheckSaysSoAndExitsThree() throws Exception {
        Path script = CiScript.ciDir().resolve("gpu-check.sh");
        Process smi;
        try {
            smi = new ProcessBuilder("nvidia-smi", "-L").redirectErrorStream(true).start();
            String gpus = new String(smi.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            smi.waitFor(30, TimeUnit.SECONDS);
            Assumptions.assumeFalse(smi.exitValue() == 0 && gpus.contains("GPU "),
                    "this machine has an NVIDIA GPU: run ci/gpu-check.sh itself (" + gpus.strip() + ")");
        } catch (java.io.IOException noNvidiaSmi) {
            // no nvidia-smi: no GPU, the case under test
        }
        Process p = new ProcessBuilder("bash", script.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the script ended").isTrue();
        assertThat(p.exitValue()).as("exit code; output:%n%s", out).isEqualTo(3);
        assertThat(out).contains("gpu-check: no NVIDIA GPU on this machine").contains("does not run without it");
    }
}
