package dev.nimchart.tools.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.tools.bench.Figures;
import dev.nimchart.tools.bench.ReadmeFigures;
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
 * The README and the documents under docs/ cannot go stale: the measured table (docs/benchmarks.md) is what the last
 * benchmark run recorded (benchmarks/figures.tsv), no time or size in their prose stands without a link to a recorded
 * figure, every count of files they state is the repository's, every relative link and anchor leads somewhere, every
 * document is one click from a README that stays short. Markers, invisible on GitHub, tie a number to its source: {@code <!--fig:SECTION/MEASURE-->} after
 * a recorded figure, {@code <!--count:KEY-->} after a count, {@code <!--not-a-measurement-->} after a setting or a
 * target (a timeout, a limit) that nothing measures.
 */
class ReadmeFactsTest {

    private static final Path REPO = ChartUnderTest.chartDir().resolve("../..").normalize();
    private static final Path README = REPO.resolve("README.md");
    private static final Path BENCHMARKS = REPO.resolve("docs").resolve("benchmarks.md");
    /** The README's length a newcomer reads before "Read on". */
    private static final int README_MAX_LINES = 150;
    private static final Path RECORD = REPO.resolve("benchmarks").resolve("figures.tsv");

    /** A number with a unit of time or size, not inside a word (k8s, k3s) or a version. */
    private static final Pattern MEASURE = Pattern.compile(
            "(?<![\\w.\\-/])(\\d[\\d,]*(?:\\.\\d+)?)(?:\\s?-\\s?\\d[\\d,]*(?:\\.\\d+)?)?\\s?(ms|s|min|h|GB|GiB|kB|MB)\\b(?!/)");
    private static final Pattern MARKER = Pattern.compile("^\\**\\)?\\s?<!--(fig:[^>]+|not-a-measurement)-->");
    private static final Pattern COUNT = Pattern.compile("(\\d[\\d,]*)\\**\\s?<!--count:([a-z-]+)-->");

    @Test
    void theMeasuredTableIsWhatTheLastBenchmarkRecorded() throws IOException {
        String readme = Files.readString(BENCHMARKS);
        assertThat(ReadmeFigures.updatedReadme(readme, Figures.read(RECORD)))
                .as("docs/benchmarks.md's measured table is not what benchmarks/figures.tsv says: run ci/benchmark.sh (it"
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
        for (Path doc : documents()) {
            List<String> lines = proseLines(doc);
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = MEASURE.matcher(lines.get(i));
                while (m.find()) {
                    if (!MARKER.matcher(lines.get(i).substring(m.end())).find()) {
                        loose.add(REPO.relativize(doc) + " line " + (i + 1) + ": " + m.group());
                    }
                }
            }
        }
        assertThat(loose).as("a time or size in the documents' prose must be in the generated table, or carry"
                + " <!--fig:SECTION/MEASURE--> (checked against benchmarks/figures.tsv) or <!--not-a-measurement-->")
                .isEmpty();
    }

    @Test
    void everyLinkedFigureAgreesWithTheRecord() throws IOException {
        Figures record = Figures.read(RECORD);
        Pattern linked = Pattern.compile("(\\d[\\d,]*(?:\\.\\d+)?)\\s?(ms|s|min|h|GB|GiB|kB|MB)?\\**\\)?\\s?<!--fig:([^/>]+)/([^>]+)-->");
        Matcher m = linked.matcher(allDocuments());
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
        Matcher m = COUNT.matcher(allDocuments());
        List<String> seen = new ArrayList<>();
        while (m.find()) {
            String key = m.group(2);
            assertThat(actual).as("the documents count %s, which this test does not know", key).containsKey(key);
            assertThat(Integer.parseInt(m.group(1).replace(",", ""))).as("the documents: %s", m.group())
                    .isEqualTo(actual.get(key));
            seen.add(key);
        }
        assertThat(seen).as("the documents state the corpus counts").contains("upstream-refusals", "fake-nodes");
    }

    @Test
    void theReadmeIsShortAndLinksEveryDocument() throws IOException {
        List<String> readme = Files.readAllLines(README);
        assertThat(readme.size()).as("README.md lines (the reference belongs under docs/)").isLessThanOrEqualTo(README_MAX_LINES);
        String text = String.join("\n", readme);
        for (Path doc : documents()) {
            if (!doc.equals(README)) {
                assertThat(text).as("README.md links %s", REPO.relativize(doc)).contains("](" + REPO.relativize(doc) + ")");
            }
        }
    }

    @Test
    void everyRelativeLinkAndAnchorLeadsSomewhere() throws IOException {
        List<Path> docs = new ArrayList<>(documents());
        docs.add(REPO.resolve("charts/nim-llm/README.md"));
        Pattern link = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
        List<String> broken = new ArrayList<>();
        for (Path doc : docs) {
            Matcher m = link.matcher(withoutCode(Files.readString(doc)));
            while (m.find()) {
                String target = m.group(1);
                if (target.matches("^[a-z]+:.*")) {
                    continue; // https:, mailto:
                }
                String path = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
                String anchor = target.contains("#") ? target.substring(target.indexOf('#') + 1) : null;
                Path file = path.isEmpty() ? doc : doc.getParent().resolve(path).normalize();
                if (!Files.exists(file)) {
                    broken.add(REPO.relativize(doc) + ": " + target + " (no such file)");
                } else if (anchor != null && file.toString().endsWith(".md") && !anchors(file).contains(anchor)) {
                    broken.add(REPO.relativize(doc) + ": " + target + " (no such heading)");
                }
            }
        }
        assertThat(broken).as("links in README.md, docs/ and the chart README").isEmpty();
    }

    /** README.md and every document under docs/. */
    private static List<Path> documents() throws IOException {
        List<Path> docs = new ArrayList<>(List.of(README));
        try (Stream<Path> list = Files.list(REPO.resolve("docs"))) {
            list.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        return docs;
    }

    private static String allDocuments() throws IOException {
        StringBuilder all = new StringBuilder();
        for (Path doc : documents()) {
            all.append(Files.readString(doc)).append('\n');
        }
        return all.toString();
    }

    /** GitHub's anchors of a markdown file's headings. */
    private static java.util.Set<String> anchors(Path file) throws IOException {
        java.util.Set<String> anchors = new java.util.HashSet<>();
        for (String line : withoutCode(Files.readString(file)).split("\n")) {
            if (line.startsWith("#")) {
                anchors.add(line.replaceFirst("^#+\\s*", "").strip().toLowerCase(java.util.Locale.ROOT)
                        .replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-'));
            }
        }
        return anchors;
    }

    /** The text without fenced code blocks (a shell comment there is not a heading, a bracket not a link). */
    private static String withoutCode(String text) {
        return text.replaceAll("(?s)```.*?```", "");
    }

    /** A document without its generated blocks (their own tests check them). */
    private static List<String> proseLines(Path doc) throws IOException {
        List<String> out = new ArrayList<>();
        boolean generated = false;
        boolean parameters = false; // readme-generator-for-helm writes the whole "## Parameters" section
        for (String line : Files.readAllLines(doc)) {
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
