package dev.nimchart.chart.repository;

import dev.nimchart.render.ChartUnderTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The chart version users run today: the version and commit recorded in previous-release.properties (the commit the
 * last version landed as; checked against this clone's history and the CHANGELOG), its
 * chart and values-examples/ extracted with {@code git archive} under target/. The examples are the values files as
 * that release documented them, the files its users install.
 *
 * @param version the previous version (Chart.yaml's {@code version} there)
 * @param commit  the commit it was taken from
 * @param chartDir    its chart, extracted
 * @param examplesDir its values-examples/, extracted
 */
public record PreviousRelease(String version, String commit, Path chartDir, Path examplesDir) {

    private static final Pattern VERSION = Pattern.compile("(?m)^version:\\s*\"?([^\"\\s]+)\"?\\s*$");
    private static final String CHART_YAML = "charts/nim-llm/Chart.yaml";
    /** The landed release, recorded: version and commit (see the file). */
    static final String RECORD = "/dev/nimchart/chart/previous-release.properties";
    private static volatile PreviousRelease found;

    /** The previous release (found and extracted once per JVM); fails naming why when the history cannot tell. */
    public static synchronized PreviousRelease get() {
        if (found == null) {
            found = find(ChartUnderTest.chartDir().resolve("../..").normalize());
        }
        return found;
    }

    /**
     * {@link #get()} for a test: without the history (a tarball, a shallow clone) the test is skipped with the reason,
     * and fails with CI=true, as a tier that cannot start.
     */
    public static PreviousRelease required() {
        try {
            return get();
        } catch (RuntimeException noHistory) {
            if (dev.nimchart.settings.SettingsFromProperties.shared().ci()) {
                throw new AssertionError("the previous release cannot be found (CI=true): " + noHistory.getMessage(), noHistory);
            }
            org.junit.jupiter.api.Assumptions.abort("the previous release cannot be found: " + noHistory.getMessage());
            throw noHistory;
        }
    }

    /** The previous release's copy of an example of this version, when that version had the file. */
    public Optional<Path> example(String fileName) {
        Path file = examplesDir.resolve(fileName);
        return Files.isRegularFile(file) ? Optional.of(file) : Optional.empty();
    }

    static PreviousRelease find(Path repo) {
        String current = version(read(repo.resolve(CHART_YAML)), "the working tree's " + CHART_YAML);
        if (!"true".equals(git(repo, "rev-parse", "--is-inside-work-tree").strip())) {
            throw new IllegalStateException(repo + " is not a git checkout: the previous release comes from its history");
        }
        // The landed release is recorded (a branch merged in may have changed the version on its own, and its commits
        // before that hold half of the new version's work under the old number: no search of the history can tell).
        java.util.Properties recorded = new java.util.Properties();
        try (java.io.InputStream in = PreviousRelease.class.getResourceAsStream(RECORD)) {
            if (in == null) {
                throw new IllegalStateException("no " + RECORD + " on the test class path");
            }
            recorded.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String previousVersion = recorded.getProperty("version", "");
        String previousCommit = recorded.getProperty("commit", "");
        String expected = previousChangelogVersion(read(repo.resolve("charts/nim-llm/CHANGELOG.md")), current);
        if (!previousVersion.equals(expected)) {
            throw new IllegalStateException(RECORD + " names version " + previousVersion + ", but the CHANGELOG entry below " + current
                    + " is " + expected + ": set version=" + expected + " and commit= the commit " + expected + " landed as");
        }
        String there;
        try {
            there = version(git(repo, "show", previousCommit + ":" + CHART_YAML), CHART_YAML + " at " + previousCommit);
        } catch (IllegalStateException missing) {
            boolean shallow = "true".equals(git(repo, "rev-parse", "--is-shallow-repository").strip());
            throw new IllegalStateException("the commit " + previousCommit + " of " + RECORD + " is not in " + repo
                    + (shallow ? " (a shallow clone: fetch the history, git fetch --unshallow)" : ""), missing);
        }
        if (!there.equals(previousVersion)) {
            throw new IllegalStateException(RECORD + ": " + CHART_YAML + " at " + previousCommit + " is version " + there + ", not "
                    + previousVersion);
        }
        Path dir = repo.resolve("chart-tests/target/previous-release-" + previousVersion + "-" + previousCommit.substring(0, 12));
        Path chart = dir.resolve("charts/nim-llm");
        if (!Files.isRegularFile(chart.resolve("Chart.yaml"))) {
            extract(repo, previousCommit, dir);
        }
        return new PreviousRelease(previousVersion, previousCommit, chart, dir.resolve("values-examples"));
    }

    /** The version of the CHANGELOG entry right below the one of {@code current}, or "" when there is none. */
    static String previousChangelogVersion(String changelog, String current) {
        Matcher m = Pattern.compile("(?m)^## \\[([^\\]]+)\\]").matcher(changelog);
        boolean seen = false;
        while (m.find()) {
            if (seen) {
                return m.group(1);
            }
            seen = m.group(1).equals(current);
        }
        return "";
    }

    /** Extracts charts/nim-llm and values-examples of the commit into dir (through a temporary directory beside it). */
    private static void extract(Path repo, String commit, Path dir) {
        try {
            Files.createDirectories(dir.getParent());
            Path tmp = Files.createTempDirectory(dir.getParent(), dir.getFileName() + ".partial");
            Path tar = tmp.resolve("release.tar");
            git(repo, "archive", "--format=tar", "-o", tar.toString(), commit, "charts/nim-llm", "values-examples");
            run(List.of("tar", "-xf", tar.toString(), "-C", tmp.toString()), repo);
            Files.delete(tar);
            try {
                Files.move(tmp, dir);
            } catch (IOException raced) {
                if (!Files.isRegularFile(dir.resolve("charts/nim-llm/Chart.yaml"))) {
                    throw raced;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot extract the chart of " + commit + " into " + dir, e);
        }
    }

    private static String version(String chartYaml, String what) {
        Matcher m = VERSION.matcher(chartYaml);
        if (!m.find()) {
            throw new IllegalStateException(what + " has no version line");
        }
        return m.group(1);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String git(Path repo, String... args) {
        List<String> command = new ArrayList<>(List.of("git", "-C", repo.toString()));
        command.addAll(List.of(args));
        return run(command, repo);
    }

    private static String run(List<String> command, Path dir) {
        try {
            Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + out.strip());
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: " + command, e);
        }
    }
}
