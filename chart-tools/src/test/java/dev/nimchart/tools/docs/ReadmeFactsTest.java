package dev.nimchart.tools.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.tools.bench.Figures;
import dev.nimchart.tools.bench.ReadmeFigures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README and the documents under docs/ cannot go stale: the measured table (docs/benchmarks.md) is what the last
 * benchmark run recorded (benchmarks/figures.tsv), no time or size in their prose stands without a link to a recorded
 * figure, every relative link and anchor leads somewhere, every document is one click from a README that stays short.
 * Markers, invisible on GitHub, tie a number to its source: {@code <!--fig:SECTION/MEASURE-->} after a recorded figure,
 * {@code <!--not-a-measurement-->} after a setting or a target (a timeout, a limit) that nothing measures. The names,
 * paths and counts the documents state are {@code DocsFactsTest}'s.
 */
class ReadmeFactsTest {

    private static final Path REPO = Documents.REPO;
    private static final Path README = Documents.README;
    private static final Path BENCHMARKS = REPO.resolve("docs").resolve("benchmarks.md");
    /** The README's length a newcomer reads before "Read on". */
    private static final int README_MAX_LINES = 150;
    private static final Path RECORD = REPO.resolve("benchmarks").resolve("figures.tsv");

    /** A number with a unit of time or size, not inside a word (k8s, k3s) or a version. */
    private static final Pattern MEASURE = Pattern.compile(
            "(?<![\\w.\\-/])(\\d[\\d,]*(?:\\.\\d+)?)(?:\\s?-\\s?\\d[\\d,]*(?:\\.\\d+)?)?\\s?(ms|s|min|h|GB|GiB|kB|MB)\\b(?!/)");
    private static final Pattern MARKER = Pattern.compile("^\\**\\)?\\s?<!--(fig:[^>]+|not-a-measurement)-->");

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
        List<String> loose = Documents.unmarked(Documents::proseLines, MEASURE, (m, rest) -> !MARKER.matcher(rest).find());
        assertThat(loose).as("a time or size in the documents' prose must be in the generated table, or carry"
                + " <!--fig:SECTION/MEASURE--> (checked against benchmarks/figures.tsv) or <!--not-a-measurement-->")
                .isEmpty();
    }

    @Test
    void everyLinkedFigureAgreesWithTheRecord() throws IOException {
        Figures record = Figures.read(RECORD);
        Pattern linked = Pattern.compile("(\\d[\\d,]*(?:\\.\\d+)?)\\s?(ms|s|min|h|GB|GiB|kB|MB)?\\**\\)?\\s?<!--fig:([^/>]+)/([^>]+)-->");
        Matcher m = linked.matcher(Documents.allText());
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
    void theReadmeIsShortAndLinksEveryDocument() throws IOException {
        List<String> readme = Files.readAllLines(README);
        assertThat(readme.size()).as("README.md lines (the reference belongs under docs/)").isLessThanOrEqualTo(README_MAX_LINES);
        String text = String.join("\n", readme);
        for (Path doc : Documents.all()) {
            if (!doc.equals(README)) {
                assertThat(text).as("README.md links %s", REPO.relativize(doc)).contains("](" + REPO.relativize(doc) + ")");
            }
        }
    }

    @Test
    void everyRelativeLinkAndAnchorLeadsSomewhere() throws IOException {
        List<Path> docs = new ArrayList<>(Documents.all());
        docs.add(REPO.resolve("charts/nim-llm/README.md"));
        Pattern link = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
        List<String> broken = new ArrayList<>();
        for (Path doc : docs) {
            Matcher m = link.matcher(Documents.withoutCode(Files.readString(doc)));
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

    /** GitHub's anchors of a markdown file's headings. */
    private static Set<String> anchors(Path file) throws IOException {
        Set<String> anchors = new HashSet<>();
        for (String line : Documents.withoutCode(Files.readString(file)).split("\n")) {
            if (line.startsWith("#")) {
                anchors.add(line.replaceFirst("^#+\\s*", "").strip().toLowerCase(Locale.ROOT)
                        .replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-'));
            }
        }
        return anchors;
    }
}
