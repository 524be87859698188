package dev.nimchart.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The GPU check's figures from the result.json files DIR/run writes: a passed run of the GPU engine gives four figures
 * named by card and values file; a stand-in's run, a failed run and a file from an older DIR/run give none and say why.
 */
class GpuCheckFiguresTest {

    /** The shape DIR/run writes (pod-run.py's check), trimmed to what the figures read. */
    private static String result(String mode, boolean passed, String extra) {
        return """
                {"pod": "gpu-check-nim-llm-0", "values": "single-node-minimal.yaml", "home": "/opt/nim-llm/home", "passed": %s,
                 "mode": "%s", "gpu": "GPU 0: NVIDIA H200 (UUID: GPU-e7110998-7e79-3c8c-3743-2656b1ddc53d)", "driver": "580.159.04",
                 "versions": "torch 2.11.0+cu130, triton 3.6.0, transformers 5.17.0; NVIDIA H200", "timeToReadySeconds": 40.006,
                 "tokensPerSecond": 45.41, "failure": %s %s}
                """.formatted(passed, mode, passed ? "null" : "\"not Ready within 170 s\"", extra);
    }

    private static final String TIMINGS = ", \"runSeconds\": 47.3, \"engineTimings\": {\"import_s\": 5.07, \"ready_s\": 36.12}";

    @Test
    void aPassedEngineRunGivesItsFourFiguresNamedByCardAndValuesFile(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("minimal.json"), result("engine", true, TIMINGS));
        Report report = new Report();
        new GpuCheckFigures(report).run(dir);
        String measure = "NVIDIA H200, single-node-minimal.yaml";
        assertThat(report.figures().select("gpu-check-run", "*")).singleElement()
                .satisfies(f -> assertThat(f.measure()).isEqualTo(measure)).satisfies(f -> assertThat(f.value()).isEqualTo(47.3));
        assertThat(report.figures().select("gpu-check-ready", measure)).singleElement().satisfies(f -> assertThat(f.value()).isEqualTo(40.006));
        assertThat(report.figures().select("gpu-check-engine-ready", measure)).singleElement()
                .satisfies(f -> assertThat(f.value()).isEqualTo(36.12));
        assertThat(report.figures().select("gpu-check-tokens-per-second", measure)).singleElement()
                .satisfies(f -> assertThat(f.value()).isEqualTo(45.41));
    }

    @Test
    void theStandInAFailedRunAndAnOlderFileAreRefusedWithTheReason() {
        assertThatThrownBy(() -> GpuCheckFigures.parse(result("standin", true, TIMINGS))).hasMessageContaining("the standin, not the GPU engine");
        assertThatThrownBy(() -> GpuCheckFigures.parse(result("engine", false, TIMINGS))).hasMessageContaining("not Ready within 170 s");
        assertThatThrownBy(() -> GpuCheckFigures.parse(result("engine", true, ""))).hasMessageContaining("runSeconds")
                .hasMessageContaining("engineTimings.ready_s");
    }

    @Test
    void noResultFilesRecordNothing(@TempDir Path dir) {
        Report report = new Report();
        new GpuCheckFigures(report).run(dir.resolve("absent"));
        assertThat(report.figures().rows()).isEmpty();
    }

    @Test
    void theCardIsNamedWithoutItsIndexAndUuid() {
        assertThat(GpuCheckFigures.cardName("GPU 0: NVIDIA H200 (UUID: GPU-e7110998-7e79)")).isEqualTo("NVIDIA H200");
        assertThat(GpuCheckFigures.cardName("NVIDIA GPU (0000:01:00.0)")).isEqualTo("NVIDIA GPU (0000:01:00.0)");
    }
}
