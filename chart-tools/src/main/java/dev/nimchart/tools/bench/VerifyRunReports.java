package dev.nimchart.tools.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What the warm {@code mvn -B verify} of ci/benchmark.sh --verify ran, from the JUnit XML reports it left: the number
 * of tests of the offline tier (Surefire) and of the cluster tiers (Failsafe), each cluster test class's time, and the
 * size of the suite they came from ({@link SuiteSize}), and the CPU time the test JVMs and what they started used, in all
 * and per cluster class. Every figure of the run goes into the sections verify-tests, verify-class, verify-cpu and
 * verify-class-cpu, which a later run replaces whole: a class deleted since goes with its row.
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
        cpu(target.resolve("cpu"));
    }

    /**
     * The CPU records the run's test JVMs wrote (chart-tests' ClassCpuRecord, one file per JVM: {@code offline-PID.tsv},
     * {@code cluster-PID.tsv}, {@code oldest-PID.tsv}): each kind's JVMs together (their {@code (jvm)} lines), and each
     * cluster class's own (Failsafe's forks run one class at a time; a tier's start counts in the class that started it).
     */
    private void cpu(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IOException("no " + dir + ": the warm verify run's test JVMs left no CPU record (ClassCpuRecord)");
        }
        Map<String, Double> kinds = new TreeMap<>();
        Map<String, Double> classes = new TreeMap<>();
        Set<String> sources = new TreeSet<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path tsv : files.filter(f -> f.getFileName().toString().matches("[a-z]+-\\d+\\.tsv")).sorted().toList()) {
                String kind = tsv.getFileName().toString().replaceFirst("-.*", "");
                for (String line : Files.readAllLines(tsv)) {
                    String[] f = line.split("\t");
                    double cpu = Double.parseDouble(f[2]);
                    sources.add(f[3]);
                    if (f[0].equals("(jvm)")) {
                        kinds.merge(kind, cpu, Double::sum);
                    } else if (kind.equals("cluster") && f[0].endsWith("IT") && !f[0].contains("$")) {
                        classes.merge(f[0].substring(f[0].lastIndexOf('.') + 1), cpu, Double::sum);
                    }
                }
            }
        }
        report.line(String.format("CPU time of the test JVMs and every process each started (%s): %s.", String.join(", ", sources),
                kinds.entrySet().stream().map(e -> String.format("%s %.0f s", e.getKey(), e.getValue())).reduce((a, b) -> a + ", " + b).orElse("none")));
        kinds.forEach((kind, cpu) -> report.figure("verify-cpu", kind, cpu, "s"));
        classes.forEach((name, cpu) -> report.figure("verify-class-cpu", name, cpu, "s"));
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
