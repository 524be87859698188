package dev.nimchart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.chart.repository.CiScript;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The library's texts name no file of this repository: no string in the library's sources (chart-tests/src/main, its
 * comments left out) names a {@code ci/} path or script, the values examples, {@code charts/nim-llm}, a path inside
 * one of its Maven modules, one of those directories by itself (as {@code Path.of("charts", "nim-llm")} or
 * {@code resolve("ci")} would) or calls a release a "nim-llm release". A library user's chart and machine are not this
 * repository: an error says what is missing and how to get it in general terms, an output names the chart it checked,
 * and the repository's commands (chart-tools' {@code dev.nimchart.tools.commands}) and build files add their own hints
 * and paths. The script names come from the {@code ci/} directory itself, so a new script is covered without a change
 * here. There is no exception: the settings' builder takes the chart, the examples and the directory of build scripts
 * from properties only, and the build scripts' names from that directory's manifest (docs/harness.md, "Settings").
 */
class LibraryTextsNameNoRepositoryFileTest {

    private static final Path REPO = CiScript.ciDir().getParent();
    private static final Path LIBRARY = REPO.resolve("chart-tests/src/main/java");

    @Test
    void noLibraryStringNamesARepositoryFileOrScript() throws IOException {
        Pattern named = repositoryNames();
        List<String> found = new ArrayList<>();
        for (StringLiteral literal : literals(LIBRARY)) {
            if (named.matcher(literal.text()).find()) {
                found.add(literal.where() + "   <- \"" + literal.text() + "\"");
            }
        }
        assertThat(found).as("library strings that name this repository's files (say what is missing in general terms; a"
                + " repository command may add its own hint)").isEmpty();
    }

    /** The scan finds what it is for: a planted string of each kind, and not a comment or a container's own path. */
    @Test
    void theScanFindsEachKindAndSkipsComments() throws IOException {
        Pattern named = repositoryNames();
        String source = """
                class Planted {
                    // run ci/binaries.sh: a comment is not an output
                    /* values-examples/ in a comment */
                    String a = "run ci/binaries.sh DIR";
                    String b = "see values-examples/invalid";
                    String c = "nim-llm release \\"x\\"";
                    String d = "run show-example.sh";
                    String e = \"""
                        the charts/nim-llm chart
                        \""";
                    String f = "/opt/nim/start_server.sh";
                    char g = '"';
                    String h = "helm.sh/chart";
                    Path i = Path.of("charts", "nim-llm");
                    Path j = dir.resolve("ci");
                    String k = "chart-tests/target/crds";
                    String l = "charts";
                    String m = "made-by: chart-tests";
                }
                """;
        List<String> found = literalsOf("Planted.java", source).stream().filter(l -> named.matcher(l.text()).find())
                .map(l -> l.where().substring(0, l.where().indexOf(':')) + ":" + l.text().strip()).toList();
        assertThat(found).containsExactly("Planted.java:run ci/binaries.sh DIR", "Planted.java:see values-examples/invalid",
                "Planted.java:nim-llm release \\\"x\\\"", "Planted.java:run show-example.sh", "Planted.java:the charts/nim-llm chart",
                "Planted.java:nim-llm", "Planted.java:ci", "Planted.java:chart-tests/target/crds");
    }

    /**
     * This repository's names: a ci/ path, its examples, its chart's path, a path in one of its Maven modules, a string
     * that is exactly one of those directories' names, "nim-llm release", and every ci/*.sh by file name.
     */
    private static Pattern repositoryNames() throws IOException {
        List<String> alternatives = new ArrayList<>(List.of("(^|[^A-Za-z0-9_.-])ci/", "values-examples", "charts/nim-llm", "nim-llm release",
                "nim-llm chart repository", "(^|[^A-Za-z0-9_.-])(chart-tests|chart-tools)/", "^(ci|nim-llm)$"));
        try (Stream<Path> scripts = Files.list(REPO.resolve("ci"))) {
            scripts.map(s -> s.getFileName().toString()).filter(n -> n.endsWith(".sh")).sorted()
                    .forEach(n -> alternatives.add("(^|[^A-Za-z0-9_-])" + Pattern.quote(n) + "\\b"));
        }
        assertThat(alternatives).as("ci/'s scripts").hasSizeGreaterThan(10);
        return Pattern.compile(String.join("|", alternatives));
    }

    /** A string literal of the sources: "file: the stripped line it starts on" and its text as written (escapes kept). */
    private record StringLiteral(String where, String text) {
    }

    private static List<StringLiteral> literals(Path tree) throws IOException {
        List<StringLiteral> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(tree)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                out.addAll(literalsOf(tree.resolve("dev/nimchart").relativize(file).toString(), Files.readString(file)));
            }
        }
        return out;
    }

    /** The string literals and text blocks of a Java source, comments and char literals skipped. */
    static List<StringLiteral> literalsOf(String name, String source) {
        List<StringLiteral> out = new ArrayList<>();
        String[] lines = source.split("\n", -1);
        int line = 0;
        int i = 0;
        int n = source.length();
        while (i < n) {
            char c = source.charAt(i);
            if (c == '\n') {
                line++;
                i++;
            } else if (source.startsWith("//", i)) {
                while (i < n && source.charAt(i) != '\n') {
                    i++;
                }
            } else if (source.startsWith("/*", i)) {
                int end = source.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
                line += (int) source.substring(i, end).chars().filter(ch -> ch == '\n').count();
                i = end;
            } else if (c == '\'') {
                i++;
                while (i < n && source.charAt(i) != '\'') {
                    i += source.charAt(i) == '\\' ? 2 : 1;
                }
                i++;
            } else if (source.startsWith("\"\"\"", i)) {
                int start = line;
                int end = i + 3;
                while (end < n && !source.startsWith("\"\"\"", end)) {
                    end += source.charAt(end) == '\\' ? 2 : 1;
                }
                String text = source.substring(i + 3, Math.min(end, n));
                out.add(new StringLiteral(name + ": " + lines[start].strip(), text));
                line += (int) text.chars().filter(ch -> ch == '\n').count();
                i = end + 3;
            } else if (c == '"') {
                int end = i + 1;
                while (end < n && source.charAt(end) != '"' && source.charAt(end) != '\n') {
                    end += source.charAt(end) == '\\' ? 2 : 1;
                }
                out.add(new StringLiteral(name + ": " + lines[line].strip(), source.substring(i + 1, Math.min(end, n))));
                i = end + 1;
            } else {
                i++;
            }
        }
        return out;
    }
}
