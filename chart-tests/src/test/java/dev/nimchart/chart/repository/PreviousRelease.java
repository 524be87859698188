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
 * The chart version users run today, from this repository's git history: the newest commit of the main line (first
 * parents) whose
 * charts/nim-llm/Chart.yaml has another version than the working tree's (the last state of the previous version), its
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
        // Commits of the main line (first parents only: a branch merged in may have changed the version on its own, its
        // commits before that holding half of the new version's work) that changed Chart.yaml, newest first; the version
        // holds from each until the next one.
        List<String> changes = git(repo, "log", "--first-parent", "--format=%H", "--", CHART_YAML).lines().filter(l -> !l.isBlank()).toList();
        String previousCommit = null;
        String previousVersion = null;
        String head = git(repo, "rev-parse", "HEAD").strip();
        String headVersion = version(git(repo, "show", head + ":" + CHART_YAML), CHART_YAML + " at HEAD");
        if (!headVersion.equals(current)) {
            previousCommit = head;
            previousVersion = headVersion;
        } else {
            for (String c : changes) {
                String parentVersion = parentVersion(repo, c);
                if (parentVersion != null && !parentVersion.equals(current)) {
                    previousCommit = git(repo, "rev-parse", c + "^").strip();
                    previousVersion = parentVersion;
                    break;
                }
            }
        }
        if (previousCommit == null) {
            boolean shallow = "true".equals(git(repo, "rev-parse", "--is-shallow-repository").strip());
            throw new IllegalStateException("no commit of " + repo + " has a " + CHART_YAML + " version other than " + current
                    + (shallow ? " (a shallow clone: fetch the history, git fetch --unshallow)" : ""));
        }
        Path dir = repo.resolve("chart-tests/target/previous-release-" + previousVersion + "-" + previousCommit.substring(0, 12));
        Path chart = dir.resolve("charts/nim-llm");
        if (!Files.isRegularFile(chart.resolve("Chart.yaml"))) {
            extract(repo, previousCommit, dir);
        }
        return new PreviousRelease(previousVersion, previousCommit, chart, dir.resolve("values-examples"));
    }

    private static String parentVersion(Path repo, String commit) {
        try {
            return version(git(repo, "show", commit + "^:" + CHART_YAML), CHART_YAML + " before " + commit);
        } catch (IllegalStateException noParentOrFile) {
            return null;
        }
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
