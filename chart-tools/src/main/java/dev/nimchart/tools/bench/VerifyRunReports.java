package dev.nimchart.tools.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What the warm {@code mvn -B verify} of ci/benchmark.sh --verify ran, from the JUnit XML reports it left: the number
 * of tests of the offline tier (Surefire) and of the cluster tiers (Failsafe), each cluster test class's time, and the
 * size of the suite they came from ({@link SuiteSize}). Every figure of the run goes into the sections verify-tests and
 * verify-class, which a later run replaces whole: a class deleted since goes with its row.
 */
final class VerifyRunReports {

    private static final Pattern SUITE = Pattern.compile("<testsuite\\b[^>]*>");
    private static final Pattern TESTCASE = Pattern.compile("<testcase\\b");

    private final Report report;

    VerifyRunReports(Report report) {
        this.report = report;
    }

    void record(Path target) throws IOException {
        report.line("");
        int offline = count(target.resolve("surefire-reports"), false);
        int cluster = count(target.resolve("failsafe-reports"), true);
        // this repository's commands' cluster classes (ShowExampleCommandIT), in chart-tools' own Failsafe run
        Path toolsReports = target.resolve("../../chart-tools/target/failsafe-reports").normalize();
        cluster += Files.isDirectory(toolsReports) ? count(toolsReports, true) : 0;
        // Failsafe's oldest-kubernetes execution: its classes again, on the oldest Kubernetes Chart.yaml claims
        Path oldestReports = target.resolve("failsafe-reports-oldest");
        int oldest = Files.isDirectory(oldestReports) ? count(oldestReports, false) : 0;
        report.line(String.format("Tests in that run: %,d offline, %,d on a cluster (%,d of them again on the oldest Kubernetes).",
                offline, cluster + oldest, oldest));
        report.figure("verify-tests", "offline", offline, "count");
        report.figure("verify-tests", "cluster", cluster, "count");
        report.figure("verify-tests", "cluster-oldest-kubernetes", oldest, "count");
        // the suite those tests came from, counted from the files, so a later run can tell when it has moved
        SuiteSize suite = SuiteSize.of(target.resolve("../..").normalize());
        report.line(String.format("The suite: %d test methods, %d values files.", suite.testMethods(), suite.valuesFiles()));
        report.figure("verify-tests", "test-methods", suite.testMethods(), "count");
        report.figure("verify-tests", "values-files", suite.valuesFiles(), "count");
    }

    /** Tests of every suite report in a directory; with perClass, each suite's time becomes a figure. */
    private int count(Path dir, boolean perClass) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IOException("no " + dir + ": the warm verify run left no test reports");
        }
        int tests = 0;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path xml : files.filter(f -> f.getFileName().toString().matches("TEST-.*\\.xml")).sorted().toList()) {
                String text = Files.readString(xml);
                Matcher m = SUITE.matcher(text);
                if (!m.find()) {
                    throw new IOException(xml + " has no <testsuite> element");
                }
                String suite = m.group();
                String name = attribute(xml, suite, "name");
                double seconds = Double.parseDouble(attribute(xml, suite, "time").replace(",", ""));
                // Its <testcase> elements, not the suite's tests attribute: Surefire writes a @Nested class's cases
                // into its outer class's report with tests="0" (CrdSchemaValidatorTest's 31; Maven's total counts them).
                tests += (int) TESTCASE.matcher(text).results().count();
                // the cluster classes (*IT); not Failsafe's tier-sharing check, which runs after them
                if (perClass && name.endsWith("IT")) {
                    report.figure("verify-class", name.substring(name.lastIndexOf('.') + 1), seconds, "s");
                }
            }
        }
        return tests;
    }

    private static String attribute(Path xml, String element, String name) throws IOException {
        Matcher m = Pattern.compile("\\s" + name + "=\"([^\"]*)\"").matcher(element);
        if (!m.find()) {
            throw new IOException(xml + ": <testsuite> has no " + name + " attribute");
        }
        return m.group(1);
    }
}
