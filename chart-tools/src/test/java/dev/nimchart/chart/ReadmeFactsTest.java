package dev.nimchart.chart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.bench.Figures;
import dev.nimchart.bench.ReadmeFigures;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README cannot go stale: its measured table is what the last benchmark run recorded (benchmarks/figures.tsv),
 * no time or size in its prose stands without a link to a recorded figure, and every count of files it states is
 * the repository's. Markers, invisible on GitHub, tie a number to its source: {@code <!--fig:SECTION/MEASURE-->} after
 * a recorded figure, {@code <!--count:KEY-->} after a count, {@code <!--not-a-measurement-->} after a setting or a
 * target (a timeout, a limit) that nothing measures.
 */
class ReadmeFactsTest {

    private static final Path REPO = ChartUnderTest.chartDir().resolve("../..").normalize();
    private static final Path README = REPO.resolve("README.md");
    private static final Path RECORD = REPO.resolve("benchmarks").resolve("figures.tsv");

    /** A number with a unit of time or size, not inside a word (k8s, k3s) or a version. */
    private static final Pattern MEASURE = Pattern.compile(
            "(?<![\\w.\\-/])(\\d[\\d,]*(?:\\.\\d+)?)(?:\\s?-\\s?\\d[\\d,]*(?:\\.\\d+)?)?\\s?(ms|s|min|h|GB|GiB|kB|MB)\\b(?!/)");
    private static final Pattern MARKER = Pattern.compile("^\\**\\)?\\s?<!--(fig:[^>]+|not-a-measurement)-->");
    private static final Pattern COUNT = Pattern.compile("(\\d[\\d,]*)\\**\\s?<!--count:([a-z-]+)-->");

    @Test
    void theMeasuredTableIsWhatTheLastBenchmarkRecorded() throws IOException {
        String readme = Files.readString(README);
        assertThat(ReadmeFigures.updatedReadme(readme, Figures.read(RECORD)))
                .as("README.md's measured table is not what benchmarks/figures.tsv says: run ci/benchmark.sh (it"
                        + " regenerates both), and never edit either by hand")
                .isEqualTo(readme);
    }

    @Test
    void everyRecordedSectionHasItsRowInTheTable() throws IOException {
        List<String> shown = ReadmeFigures.sections();
        for (Figures.Figure f : Figures.read(RECORD).rows()) {
            assertThat(shown).as("benchmarks/figures.tsv records section %s that README.md's table never shows:"
                    + " add a row to ReadmeFigures", f.section()).contains(f.section());
        }
    }

    @Test
    void noTimeOrSizeInTheProseStandsWithoutItsSource() throws IOException {
        List<String> loose = new ArrayList<>();
        List<String> lines = proseLines();
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = MEASURE.matcher(lines.get(i));
            while (m.find()) {
                if (!MARKER.matcher(lines.get(i).substring(m.end())).find()) {
                    loose.add("README.md line " + (i + 1) + ": " + m.group());
                }
            }
        }
        assertThat(loose).as("a time or size in README.md's prose must be in the generated table, or carry"
                + " <!--fig:SECTION/MEASURE--> (checked against benchmarks/figures.tsv) or <!--not-a-measurement-->")
                .isEmpty();
    }

    @Test
    void everyLinkedFigureAgreesWithTheRecord() throws IOException {
        Figures record = Figures.read(RECORD);
        Pattern linked = Pattern.compile("(\\d[\\d,]*(?:\\.\\d+)?)\\s?(ms|s|min|h|GB|GiB|kB|MB)?\\**\\)?\\s?<!--fig:([^/>]+)/([^>]+)-->");
        Matcher m = linked.matcher(Files.readString(README));
        while (m.find()) {
            List<Figures.Figure> found = record.select(m.group(3), m.group(4));
            assertThat(found).as("README.md links %s to %s/%s, which benchmarks/figures.tsv does not record", m.group(),
                    m.group(3), m.group(4)).hasSize(1);
            String shown = m.group(1);
            int decimals = shown.contains(".") ? shown.length() - shown.indexOf('.') - 1 : 0;
            String unit = m.group(2) == null ? "" : m.group(2);
            assertThat(shown).as("README.md says %s; the record says %s", m.group(), found.get(0))
                    .isEqualTo(ReadmeFigures.shown(found.get(0), unit, decimals));
        }
    }

    @Test
    void everyCountOfFilesIsTheRepositorys() throws IOException {
        Map<String, Integer> actual = Map.of(
                "examples", files(REPO.resolve("values-examples"), n -> n.endsWith(".yaml")),
                "invalid-values", files(REPO.resolve("values-examples/invalid"), n -> n.endsWith(".yaml")),
                "upstream-refusals", files(REPO.resolve("values-examples/invalid"), n -> n.startsWith("upstream-") && n.endsWith(".yaml")),
                "fake-nodes", fakeNodes(),
                "fuzz-documents", fuzzDocumentsByDefault());
        Matcher m = COUNT.matcher(Files.readString(README));
        List<String> seen = new ArrayList<>();
        while (m.find()) {
            String key = m.group(2);
            assertThat(actual).as("README.md counts %s, which this test does not know", key).containsKey(key);
            assertThat(Integer.parseInt(m.group(1).replace(",", ""))).as("README.md: %s", m.group())
                    .isEqualTo(actual.get(key));
            seen.add(key);
        }
        assertThat(seen).as("the README states the corpus counts").contains("upstream-refusals", "fake-nodes");
    }

    /** README.md without its generated blocks (their own tests check them). */
    private static List<String> proseLines() throws IOException {
        List<String> out = new ArrayList<>();
        boolean generated = false;
        boolean parameters = false; // readme-generator-for-helm writes the whole "## Parameters" section
        for (String line : Files.readAllLines(README)) {
            if (line.startsWith("<!-- figures:begin")) {
                generated = true;
            } else if (line.startsWith("<!-- figures:end")) {
                generated = false;
            }
            if (line.startsWith("## ")) {
                parameters = line.equals("## Parameters");
            }
            out.add(generated || parameters ? "" : line);
        }
        return out;
    }

    private static int files(Path dir, Predicate<String> name) throws IOException {
        try (Stream<Path> list = Files.list(dir)) {
            return (int) list.filter(Files::isRegularFile).map(p -> p.getFileName().toString()).filter(name).count();
        }
    }

    private static int fakeNodes() throws IOException {
        try (InputStream in = ReadmeFactsTest.class.getResourceAsStream("/dev/nimchart/controllers/fake-gpu-nodes.yaml")) {
            assertThat(in).as("the built-in fake nodes").isNotNull();
            Matcher m = Pattern.compile("(?m)^\\s+count:\\s*(\\d+)\\s*$").matcher(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            int total = 0;
            while (m.find()) {
                total += Integer.parseInt(m.group(1));
            }
            return total;
        }
    }

    /** The pom's default, not this run's -Dnim.fuzz.count. */
    private static int fuzzDocumentsByDefault() throws IOException {
        Matcher m = Pattern.compile("<nim\\.fuzz\\.count>(\\d+)</nim\\.fuzz\\.count>")
                .matcher(Files.readString(REPO.resolve("chart-tests/pom.xml")));
        assertThat(m.find()).as("chart-tests/pom.xml sets nim.fuzz.count").isTrue();
        return Integer.parseInt(m.group(1));
    }
}
