package dev.nimchart.tools.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The repository's documents as the doc tests read them: README.md and every docs/*.md, their prose (fenced code and
 * generated blocks left out) line by line. One reading for {@code ReadmeFactsTest} and {@code DocsFactsTest}.
 */
final class Documents {

    /** The repository root: the tests run in chart-tools/. */
    static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    static final Path README = REPO.resolve("README.md");

    private Documents() {
    }

    /** README.md and every document under docs/. */
    static List<Path> all() {
        List<Path> docs = new ArrayList<>(List.of(README));
        try (Stream<Path> list = Files.list(REPO.resolve("docs"))) {
            list.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return docs;
    }

    /** Every document's text, one after the other. */
    static String allText() {
        StringBuilder all = new StringBuilder();
        for (Path doc : all()) {
            all.append(read(doc)).append('\n');
        }
        return all.toString();
    }

    static String read(Path doc) {
        try {
            return Files.readString(doc);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A document's path as a reader finds it: {@code docs/tiers.md}. */
    static String name(Path doc) {
        return REPO.relativize(doc).toString();
    }

    /** The text with each fenced code block blanked, line count kept (a shell comment there is not a heading). */
    static String withoutCode(String text) {
        StringBuilder out = new StringBuilder();
        boolean fenced = false;
        for (String line : text.split("\n", -1)) {
            if (line.strip().startsWith("```")) {
                fenced = !fenced;
                out.append('\n');
                continue;
            }
            out.append(fenced ? "" : line).append('\n');
        }
        return out.substring(0, out.length() - 1);
    }

    /**
     * A document's lines (index i is line i + 1) with its generated blocks blank: the figures table
     * ({@code <!-- figures:begin ... end -->}, checked against the record by its own test) and the "## Parameters"
     * section readme-generator-for-helm writes.
     */
    static List<String> proseLines(Path doc) {
        return withoutGenerated(read(doc));
    }

    /** As {@link #proseLines}, fenced code blank too: the lines where a name, a path or a count is the prose's. */
    static List<String> namingLines(Path doc) {
        return withoutGenerated(withoutCode(read(doc)));
    }

    /**
     * Every match of {@code pattern} in the documents' {@code lines} ({@link #proseLines} or {@link #namingLines}) that
     * {@code unmarked} holds for (given the match and the rest of its line), as "document line N: match".
     */
    static List<String> unmarked(Function<Path, List<String>> lines, Pattern pattern, BiPredicate<Matcher, String> unmarked) {
        List<String> loose = new ArrayList<>();
        for (Path doc : all()) {
            List<String> text = lines.apply(doc);
            for (int i = 0; i < text.size(); i++) {
                Matcher m = pattern.matcher(text.get(i));
                while (m.find()) {
                    if (unmarked.test(m, text.get(i).substring(m.end()))) {
                        loose.add(name(doc) + " line " + (i + 1) + ": " + m.group());
                    }
                }
            }
        }
        return loose;
    }

    private static List<String> withoutGenerated(String text) {
        List<String> out = new ArrayList<>();
        boolean generated = false;
        boolean parameters = false;
        for (String line : text.split("\n", -1)) {
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
}
