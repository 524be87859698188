package dev.nimchart.chart.repository;

import dev.nimchart.render.ChartUnderTest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.Yaml;

/**
 * The pod template changes an upgrade from the previous release may make, each tied to this version's CHANGELOG.md
 * entry that names it (data: dev/nimchart/chart/template-change-reasons.yaml). Records which entries explained a
 * change, so that an entry explaining nothing is found.
 */
public final class TemplateChangeReasons {

    /** One entry: the CHANGELOG text, the examples and workloads ("Kind/name template-path") it applies to, the path prefixes it explains. */
    public record Reason(String changelog, Pattern examples, Pattern workloads, List<String> paths) {
        public boolean explains(String example, String workload, String path) {
            return examples.matcher(example).matches() && workloads.matcher(workload).matches() && paths.stream().anyMatch(p -> path.equals(p) || path.startsWith(p + ".")
                    || path.startsWith(p + "[") || path.startsWith(p + " "));
        }
    }

    private final List<Reason> reasons;
    private final Set<Reason> used = ConcurrentHashMap.newKeySet();

    private TemplateChangeReasons(List<Reason> reasons) {
        this.reasons = reasons;
    }

    @SuppressWarnings("unchecked")
    public static TemplateChangeReasons load() {
        try (InputStream in = TemplateChangeReasons.class.getResourceAsStream("/dev/nimchart/chart/template-change-reasons.yaml")) {
            Map<String, Object> data = new Yaml().load(in);
            List<Reason> reasons = new ArrayList<>();
            for (Map<String, Object> r : (List<Map<String, Object>>) data.getOrDefault("changes", List.of())) {
                reasons.add(new Reason(String.valueOf(r.get("changelog")), Pattern.compile(String.valueOf(r.getOrDefault("examples", ".*"))),
                        Pattern.compile(String.valueOf(r.getOrDefault("workloads", ".*"))),
                        List.copyOf((List<String>) r.getOrDefault("paths", List.of()))));
            }
            return new TemplateChangeReasons(reasons);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The changed paths (workload: path) of an example that no entry explains; marks the entries that do as used. */
    public List<String> unexplained(String example, Map<String, List<String>> changes) {
        List<String> out = new ArrayList<>();
        changes.forEach((workload, paths) -> {
            for (String path : paths) {
                List<Reason> matching = reasons.stream().filter(r -> r.explains(example, workload, path)).toList();
                if (matching.isEmpty()) {
                    out.add(workload + ": " + path);
                }
                used.addAll(matching);
            }
        });
        return out;
    }

    /** Entries whose changelog text is not in this chart version's CHANGELOG.md section. */
    public List<String> notInTheChangelog() throws IOException {
        String section = changelogSection();
        return reasons.stream().filter(r -> !section.contains(r.changelog().replaceAll("\\s+", " "))).map(Reason::changelog).toList();
    }

    /** This chart version's CHANGELOG.md section, its white space runs made single spaces. */
    public static String changelogSection() throws IOException {
        String version = ChartUnderTest.chart().version();
        String changelog = Files.readString(ChartUnderTest.chartDir().resolve("CHANGELOG.md"));
        int start = changelog.indexOf("## [" + version + "]");
        int end = start < 0 ? -1 : changelog.indexOf("\n## [", start + 1);
        return start < 0 ? "" : changelog.substring(start, end < 0 ? changelog.length() : end).replaceAll("\\s+", " ");
    }

    /**
     * An example the previous release did not have is new in this version, so this version's CHANGELOG section names its
     * file (users learn of it there): the check in place of an upgrade from a release that had no such file.
     */
    public static void assertNewExampleAnnounced(String fileName, PreviousRelease previous) throws IOException {
        org.assertj.core.api.Assertions.assertThat(changelogSection())
                .as("%s is not an example of chart %s (%s), so this version's CHANGELOG section names it as new", fileName,
                        previous.version(), previous.commit().substring(0, 12))
                .contains("`" + fileName + "`");
    }

    /** Entries that explained no change (call after every example ran). */
    public List<String> unused() {
        return reasons.stream().filter(r -> !used.contains(r)).map(Reason::changelog).toList();
    }

    public int size() {
        return reasons.size();
    }
}
