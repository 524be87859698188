package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.Examples;
import dev.nimchart.objects.PodTemplate;
import dev.nimchart.render.ChartUnderTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** image.tag and image.digest make the reference Kubernetes takes: a tag, a digest, or both (the digest decides). */
class ImageReferenceTest {

    private static final Path MINIMAL = Examples.named("single-node-minimal.yaml");
    private static final String DIGEST = "sha256:0d2d0a9a7b9e7f1c3b5e8f2a4c6d8e0f1a3b5c7d9e1f3a5b7c9d1e3f5a7b9c1d";

    @ParameterizedTest(name = "tag \"{0}\", digest \"{1}\"")
    @CsvSource(value = {
        "1.8.4|''|nvcr.io/nim/meta/llama-3.1-8b-instruct:1.8.4",
        "1.8.4|" + DIGEST + "|nvcr.io/nim/meta/llama-3.1-8b-instruct:1.8.4@" + DIGEST,
        "''|" + DIGEST + "|nvcr.io/nim/meta/llama-3.1-8b-instruct@" + DIGEST,
    }, delimiter = '|')
    void theReferenceCarriesTheTagTheDigestOrBoth(String tag, String digest, String expected) {
        PodTemplate t = PodTemplate.of(ChartUnderTest.render(MINIMAL, Map.of("image.repository",
                "nvcr.io/nim/meta/llama-3.1-8b-instruct", "image.tag", tag, "image.digest", digest))).get(0);
        assertThat(t.nim().at("image")).isEqualTo(expected);
    }

    @ParameterizedTest(name = "no tag, no digest")
    @CsvSource(value = {"''|''"}, delimiter = '|')
    void withoutTagOrDigestTheAppVersionIsTheTag(String tag, String digest) throws IOException {
        String appVersion = Files.readAllLines(ChartUnderTest.chartDir().resolve("Chart.yaml")).stream()
                .filter(l -> l.startsWith("appVersion:")).map(l -> l.substring("appVersion:".length()).trim().replace("\"", ""))
                .findFirst().orElseThrow();
        PodTemplate t = PodTemplate.of(ChartUnderTest.render(MINIMAL, Map.of("image.tag", tag, "image.digest", digest))).get(0);
        assertThat(t.nim().at("image")).isEqualTo("nvcr.io/nim/meta/llama-3.1-8b-instruct:" + appVersion);
    }
}
