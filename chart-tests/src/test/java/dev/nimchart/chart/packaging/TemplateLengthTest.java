package dev.nimchart.chart.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.render.ChartUnderTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chart's templates stay readable: no line of a file under templates/ (helpers, object templates, validate/,
 * tests/ and NOTES.txt) is longer than 200 characters, and no such file has more than 350 lines. A preflight message
 * is written as {@code $message := print "..." "..."}, one string per line, and then refused with
 * {@code include "nim-llm.fail" (printf $message ...)} (_preflight.tpl); a file that grows past 350 lines is split by
 * concern, and the new file listed in _preflight.tpl's index when it holds rules.
 */
class TemplateLengthTest {

    static final int LONGEST_LINE = 200;
    static final int MOST_LINES = 350;

    @TempDir
    Path work;

    @Test
    void noTemplateLineIsLongerThan200Characters() throws IOException {
        Path templates = ChartUnderTest.chartDir().resolve("templates");
        assertThat(files(templates)).as("files under %s", templates).hasSizeGreaterThan(50);
        assertThat(longLines(templates)).as("template lines over %d characters: wrap them (a message one string per"
                + " line, an action across lines)", LONGEST_LINE).isEmpty();
    }

    @Test
    void noTemplateFileIsLongerThan350Lines() throws IOException {
        Path templates = ChartUnderTest.chartDir().resolve("templates");
        assertThat(longFiles(templates)).as("template files over %d lines: split each by concern", MOST_LINES).isEmpty();
    }

    @Test
    void aLineOrAFileTooLongIsNamedWithItsPlace() throws IOException {
        Path templates = work.resolve("templates");
        Files.createDirectories(templates.resolve("validate"));
        Files.writeString(templates.resolve("_short.tpl"), "x".repeat(LONGEST_LINE) + "\n" + "a\n".repeat(MOST_LINES - 1));
        Files.writeString(templates.resolve("validate/_wide.tpl"), "a\n" + "é".repeat(LONGEST_LINE + 1) + "\n");
        Files.writeString(templates.resolve("long.yaml"), "a\n".repeat(MOST_LINES + 1));
        assertThat(longLines(templates)).containsExactly("templates/validate/_wide.tpl:2 has 201 characters");
        assertThat(longFiles(templates)).containsExactly("templates/long.yaml has 351 lines");
    }

    /** Every line over {@link #LONGEST_LINE} characters, as {@code templates/<file>:<line> has <n> characters}. */
    static List<String> longLines(Path templates) throws IOException {
        List<String> found = new ArrayList<>();
        for (Path file : files(templates)) {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                int length = lines.get(i).codePointCount(0, lines.get(i).length());
                if (length > LONGEST_LINE) {
                    found.add("%s:%d has %d characters".formatted(name(templates, file), i + 1, length));
                }
            }
        }
        return found;
    }

    /** Every file over {@link #MOST_LINES} lines, as {@code templates/<file> has <n> lines}. */
    static List<String> longFiles(Path templates) throws IOException {
        List<String> found = new ArrayList<>();
        for (Path file : files(templates)) {
            int lines = Files.readAllLines(file, StandardCharsets.UTF_8).size();
            if (lines > MOST_LINES) {
                found.add("%s has %d lines".formatted(name(templates, file), lines));
            }
        }
        return found;
    }

    private static List<Path> files(Path templates) throws IOException {
        try (Stream<Path> all = Files.walk(templates)) {
            return all.filter(Files::isRegularFile).sorted().toList();
        }
    }

    private static String name(Path templates, Path file) {
        return templates.getParent().relativize(file).toString().replace('\\', '/');
    }
}
