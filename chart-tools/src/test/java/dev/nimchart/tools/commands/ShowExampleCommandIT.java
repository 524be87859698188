package dev.nimchart.tools.commands;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ci/show-example.sh as a user sees it: its first line at once, every progress line of the command when the command
 * prints it (not when a pipe's buffer fills), the picture whole and after the progress, no escape codes; through a
 * pipe (with mawk as the awk on the PATH, the Debian and Ubuntu default, whose block-buffered reading held every line
 * of the script's own awk filter back for minutes; the script runs no filter now) and through a pseudo-terminal
 * ({@code script}). The first run of a fresh launcher builds the command with
 * Maven (the --offline picture, cheap); the two runs on the controller tier after it go through the cached launcher,
 * without Maven. A launcher directory of this test's own ({@code NIM_COMMANDS_LAUNCHER}). The command is chart-tools'
 * ({@link ReconciledExample}, {@link ChartSummary}), so its test is too.
 */
class ShowExampleCommandIT {

    private static final String BUILDING = "show-example: building the command with Maven";
    /** The repository: chart-tools' parent (Failsafe runs in the module's directory). */
    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern PROGRESS = Pattern.compile("^\\[ *(\\d+\\.\\d)s\\] ");
    private static final Pattern STAMP_ANYWHERE = Pattern.compile("\\[ *\\d+\\.\\ds\\]");
    private static final double FIRST_LINE_WITHIN = 2.0;
    /** How much later than its neighbours a progress line may reach the reader (a loaded machine's scheduling). */
    private static final double LAG_SPREAD = 2.5;

    /** A line and when it reached the reader, in seconds after the command started. */
    private record Line(double at, String text) {
    }

    private record Run(int exit, List<Line> lines) {

        String text() {
            StringBuilder out = new StringBuilder();
            lines.forEach(l -> out.append(String.format("%6.1f %s%n", l.at(), l.text())));
            return out.toString();
        }
    }

    private static Run run(Map<String, String> env, Path launcher, String... command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("NIM_COMMANDS_LAUNCHER", launcher.toString());
        builder.environment().put("NIM_MAVEN_OFFLINE", "1");
        builder.environment().putAll(env);
        long start = System.nanoTime();
        Process process = builder.start();
        process.getOutputStream().close();
        List<Line> lines = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String l = reader.readLine(); l != null; l = reader.readLine()) {
                lines.add(new Line((System.nanoTime() - start) / 1e9, l.replace("\r", "")));
            }
        }
        assertThat(process.waitFor(600, TimeUnit.SECONDS)).as("the command ended").isTrue();
        return new Run(process.exitValue(), lines);
    }

    private static String script() {
        return REPO.resolve("ci/show-example.sh").toString();
    }

    /** A PATH whose awk is mawk where the machine has it: what the script met on Debian and Ubuntu. */
    private static String pathWithMawk(Path bin) throws IOException {
        for (String dir : System.getenv("PATH").split(":")) {
            Path mawk = Path.of(dir, "mawk");
            if (Files.isExecutable(mawk)) {
                Files.createSymbolicLink(bin.resolve("awk"), mawk);
                break;
            }
        }
        return bin + ":" + System.getenv("PATH");
    }

    /** What every run shows: its first line at once, no escape code, progress lines as they happen, the picture whole. */
    private static void seenAsItHappens(Run run, String how) {
        assertThat(run.exit()).as("%s: exit%n%s", how, run.text()).isZero();
        assertThat(run.lines()).as("%s: output", how).isNotEmpty();
        assertThat(run.lines().get(0).at()).as("%s: the first line arrived after (s)%n%s", how, run.text()).isLessThan(FIRST_LINE_WITHIN);
        assertThat(run.lines()).as("%s: no escape code%n%s", how, run.text()).noneMatch(l -> l.text().indexOf('\u001b') >= 0);

        // each progress line reached the reader about when the command stamped it: the lag hardly varies
        double minLag = Double.MAX_VALUE;
        double maxLag = -Double.MAX_VALUE;
        int progress = 0;
        for (Line l : run.lines()) {
            Matcher m = PROGRESS.matcher(l.text());
            if (m.find()) {
                double lag = l.at() - Double.parseDouble(m.group(1));
                minLag = Math.min(minLag, lag);
                maxLag = Math.max(maxLag, lag);
                progress++;
            }
        }
        assertThat(progress).as("%s: progress lines%n%s", how, run.text()).isGreaterThan(3);
        assertThat(maxLag - minLag).as("%s: spread of the progress lines' delays (s), each line stamped by the command against"
                + " when it arrived%n%s", how, run.text()).isLessThan(LAG_SPREAD);

        // the picture: whole, after the progress, no progress line inside it and no stamp cut into a line
        int first = indexOf(run, "nim-llm release ");
        int controllers = indexOf(run, "What the controllers made of it");
        assertThat(first).as("%s: the picture%n%s", how, run.text()).isNotNegative();
        assertThat(controllers).as("%s: its second half", how).isGreaterThan(first);
        int after = first;
        while (after < run.lines().size() && !PROGRESS.matcher(run.lines().get(after).text()).find()) {
            after++;
        }
        assertThat(after).as("%s: the picture runs past its second half before the next progress line", how).isGreaterThan(controllers + 1);
        for (int i = 0; i < run.lines().size(); i++) {
            String text = run.lines().get(i).text();
            Matcher stamp = STAMP_ANYWHERE.matcher(text);
            if (stamp.find()) {
                assertThat(stamp.start()).as("%s: a progress stamp inside a line: %s", how, text).isZero();
            }
            if (i >= after) {
                assertThat(text).as("%s: after the picture only progress", how).matches(PROGRESS.pattern() + ".*");
            }
        }
    }

    private static int indexOf(Run run, String start) {
        for (int i = 0; i < run.lines().size(); i++) {
            if (run.lines().get(i).text().startsWith(start)) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void throughAPipeAndAPseudoTerminalEveryLineAsItHappensAndTheLaterRunsWithoutMaven(@TempDir Path launcher, @TempDir Path bin)
            throws Exception {
        String path = pathWithMawk(bin);

        Run built = run(Map.of("PATH", path), launcher, "bash", script(), "--offline");
        assertThat(built.exit()).as(built.text()).isZero();
        assertThat(built.lines().get(0).at()).as("the first line of the building run (s)%n%s", built.text()).isLessThan(FIRST_LINE_WITHIN);
        assertThat(built.text()).as("the first run of a fresh launcher").contains(BUILDING).contains("nim-llm release ")
                .doesNotContain("\u001b");

        // a pipe (cat passes on each line as it reads it; mawk, as a reader, would itself hold lines back in blocks)
        Run piped = run(Map.of("PATH", path), launcher, "bash", "-c", "bash \"$0\" 2>&1 | cat", script());
        assertThat(piped.text()).as("through a pipe: no Maven").doesNotContain(BUILDING);
        seenAsItHappens(piped, "through a pipe to " + (Files.exists(bin.resolve("awk")) ? "mawk" : "the machine's awk"));

        Run terminal = run(Map.of("PATH", path), launcher, "script", "-qec", "bash " + script(), "/dev/null");
        assertThat(terminal.text()).as("through a pseudo-terminal: no Maven").doesNotContain(BUILDING);
        seenAsItHappens(terminal, "through a pseudo-terminal");
    }
}
