package dev.nimchart.tools.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The size of the suite a whole-build figure was measured on, counted from the repository's files so that a test can
 * compare it with the record before any test runs: the test methods of every test source tree ({@code @Test},
 * {@code @ParameterizedTest}, {@code @TestFactory}, {@code @RepeatedTest}) and the values files most of them run on
 * (values-examples/ and its invalid/). The tests a run executes are about the methods times the files they take, so
 * either moving by more than {@link #TOLERANCE} moves the run's count and time; ci/benchmark.sh --verify records both
 * beside the tests the run executed ({@link VerifyRunReports}).
 */
public record SuiteSize(int testMethods, int valuesFiles) {

    /** How far the suite may move from the recorded run's before the record counts as stale: 10%. */
    public static final double TOLERANCE = 0.10;

    static final List<String> TEST_TREES = List.of("chart-tests/src/test/java", "chart-tools/src/test/java", "examples/downstream/src/test/java");

    private static final Pattern TEST_ANNOTATION = Pattern.compile("^\\s*@(Test|ParameterizedTest|TestFactory|RepeatedTest)\\b");

    /** The suite of the repository at {@code repo}. */
    public static SuiteSize of(Path repo) {
        int methods = 0;
        for (String tree : TEST_TREES) {
            for (Path file : files(repo.resolve(tree), ".java", true)) {
                try {
                    methods += (int) Files.readAllLines(file).stream().filter(l -> TEST_ANNOTATION.matcher(l).find()).count();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        Path examples = repo.resolve("values-examples");
        int values = files(examples, ".yaml", false).size() + files(examples.resolve("invalid"), ".yaml", false).size();
        return new SuiteSize(methods, values);
    }

    /** The cluster test classes of chart-tests and chart-tools (their *IT.java sources), by simple name. */
    public static TreeSet<String> clusterClasses(Path repo) {
        TreeSet<String> names = new TreeSet<>();
        for (String tree : List.of("chart-tests/src/test/java", "chart-tools/src/test/java")) {
            files(repo.resolve(tree), "IT.java", true).forEach(f -> names.add(f.getFileName().toString().replaceFirst("\\.java$", "")));
        }
        return names;
    }

    /** Whether {@code now} is more than {@link #TOLERANCE} away from {@code recorded} (relative to the recorded). */
    public static boolean moved(double recorded, double now) {
        return recorded <= 0 || Math.abs(now - recorded) / recorded > TOLERANCE;
    }

    private static List<Path> files(Path dir, String suffix, boolean recursive) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> walk = recursive ? Files.walk(dir) : Files.list(dir)) {
            return walk.filter(Files::isRegularFile).filter(f -> f.getFileName().toString().endsWith(suffix)).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
