package dev.nimchart.values;

import dev.nimchart.settings.Settings;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The values files the chart is tested with: valid ones directly in each values directory, invalid ones in its
 * {@code invalid/} subdirectory, each of those starting with a line {@code # expect-error: <text>}.
 */
public final class ExampleValuesFiles {

    private static final Pattern EXPECT_ERROR = Pattern.compile("^#\\s*expect-error:\\s*(\\S.*?)\\s*$");
    private static final Comparator<Path> BY_FILE_NAME =
            Comparator.comparing((Path file) -> file.getFileName().toString()).thenComparing(Comparator.naturalOrder());

    private final List<Path> dirs;

    /** The values files in these directories (each must exist). */
    public ExampleValuesFiles(List<Path> dirs) {
        this.dirs = List.copyOf(dirs);
    }

    /** The examples directory and the extra values directories of the settings. */
    public static ExampleValuesFiles of(Settings settings) {
        List<Path> dirs = new ArrayList<>();
        dirs.add(settings.examplesDir());
        dirs.addAll(settings.valuesDirs());
        return new ExampleValuesFiles(dirs);
    }

    public List<Path> valid() {
        return dirs.stream().flatMap(dir -> yamlFiles(requireDirectory(dir))).sorted(BY_FILE_NAME).toList();
    }

    public List<Path> invalid() {
        return dirs.stream()
                .map(dir -> requireDirectory(dir).resolve("invalid"))
                .filter(Files::isDirectory)
                .flatMap(ExampleValuesFiles::yamlFiles)
                .sorted(BY_FILE_NAME)
                .toList();
    }

    /** The text after {@code # expect-error:} on the file's first line. */
    public static String expectedError(Path file) {
        try (BufferedReader reader = Files.newBufferedReader(file)) {
            String firstLine = reader.readLine();
            Matcher matcher = EXPECT_ERROR.matcher(firstLine == null ? "" : firstLine);
            if (!matcher.matches()) {
                throw new IllegalStateException(file + ": the first line must be '# expect-error: <text of the expected error>'");
            }
            return matcher.group(1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path requireDirectory(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalStateException("values directory does not exist: " + dir);
        }
        return dir;
    }

    private static Stream<Path> yamlFiles(Path dir) {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries
                    .filter(Files::isRegularFile)
                    .filter(file -> file.getFileName().toString().matches(".*\\.ya?ml"))
                    .toList()
                    .stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
