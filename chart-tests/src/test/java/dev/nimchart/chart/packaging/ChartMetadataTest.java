package dev.nimchart.chart.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.objects.KubeObject;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.values.ValuesMerger;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The chart as a package: Chart.yaml carries what Artifact Hub and {@code helm show chart} show (maintainers, sources,
 * icon, license, links, images, changes), each checked against the file it repeats: the images against values.yaml,
 * the changes against the CHANGELOG entry of the chart's version, the license against LICENSE.
 */
class ChartMetadataTest {

    private static final Path CHART_DIR = ChartUnderTest.chartDir();
    private static final Map<String, Object> CHART = ValuesMerger.loadYaml(CHART_DIR.resolve("Chart.yaml"));
    private static final Pattern ENTRY = Pattern.compile("(?m)^## \\[([^]]+)] - (\\d{4}-\\d{2}-\\d{2})$");

    @Test
    void chartYamlNamesItsMaintainersSourcesIconAndKeywords() {
        assertThat((List<?>) CHART.get("maintainers")).isNotEmpty()
                .allSatisfy(m -> assertThat(((Map<?, ?>) m).get("name")).asString().isNotBlank());
        assertThat((List<?>) CHART.get("sources")).isNotEmpty().allSatisfy(s -> assertThat(s).asString().startsWith("https://"));
        assertThat(CHART.get("icon")).asString().startsWith("https://");
        assertThat(CHART.get("home")).asString().startsWith("https://");
        assertThat(((List<?>) CHART.get("keywords")).stream().map(String::valueOf).toList()).contains("nvidia", "nim", "llm");
        assertThat(annotation("artifacthub.io/prerelease")).isIn("true", "false");
        assertThat(annotation("artifacthub.io/containsSecurityUpdates")).isIn("true", "false");
        assertThat(annotation("artifacthub.io/prerelease")).as("a version with a pre-release part is a prerelease")
                .isEqualTo(String.valueOf(version().contains("-")));
    }

    @Test
    void theLicenseIsApache2AtTheRootAndInTheChart() throws IOException {
        String chartLicense = Files.readString(CHART_DIR.resolve("LICENSE"));
        assertThat(chartLicense).contains("Apache License", "Version 2.0, January 2004", "END OF TERMS AND CONDITIONS");
        assertThat(Files.readString(CHART_DIR.resolve("../../LICENSE").normalize())).isEqualTo(chartLicense);
        assertThat(annotation("artifacthub.io/license")).isEqualTo("Apache-2.0");
    }

    @Test
    void artifactHubImagesAreTheImagesOfTheDefaults() {
        KubeObject values = new KubeObject(ValuesMerger.loadYaml(CHART_DIR.resolve("values.yaml")));
        List<String> images = yamlList(annotation("artifacthub.io/images")).stream().map(i -> (String) i.get("image")).toList();
        String tag = (String) values.at("image.tag");
        assertThat(images).containsExactlyInAnyOrder(
                values.at("image.repository") + ":" + (tag.isEmpty() ? CHART.get("appVersion") : tag),
                (String) values.at("testPod.image"),
                (String) values.at("multinodeNetworking.gcp.tcpxoDaemonImage"));
    }

    @Test
    void theChangelogHasAnEntryForTheChartVersionAtTheTop() throws IOException {
        String changelog = Files.readString(CHART_DIR.resolve("CHANGELOG.md"));
        Matcher entry = ENTRY.matcher(changelog);
        List<String> versions = new ArrayList<>();
        while (entry.find()) {
            versions.add(entry.group(1));
        }
        assertThat(versions).as("CHANGELOG.md entries ('## [x.y.z] - YYYY-MM-DD'), newest first").isNotEmpty()
                .doesNotHaveDuplicates();
        assertThat(versions.get(0)).as("the newest CHANGELOG.md entry is the Chart.yaml version").isEqualTo(version());
        for (int i = 1; i < versions.size(); i++) {
            assertThat(compare(versions.get(i - 1), versions.get(i))).as("%s above %s", versions.get(i - 1), versions.get(i))
                    .isPositive();
        }
    }

    @Test
    void artifactHubChangesRepeatTheChangelogEntryOfThisVersion() throws IOException {
        List<String> expected = changelogEntry(version());
        List<String> changes = yamlList(annotation("artifacthub.io/changes")).stream()
                .map(c -> c.get("kind") + ": " + c.get("description")).toList();
        assertThat(changes).as("artifacthub.io/changes against CHANGELOG.md [%s]", version()).isEqualTo(expected);
        assertThat(changes).allSatisfy(c -> assertThat(c).matches("(added|changed|deprecated|removed|fixed|security): .+"));
    }

    /** "kind: text" for each bullet of the version's section, the bullet's lines joined by single spaces. */
    private static List<String> changelogEntry(String version) throws IOException {
        String changelog = Files.readString(CHART_DIR.resolve("CHANGELOG.md"));
        int start = changelog.indexOf("## [" + version + "]");
        assertThat(start).as("CHANGELOG.md has an entry for %s", version).isNotNegative();
        int end = changelog.indexOf("\n## [", start + 1);
        String section = changelog.substring(start, end < 0 ? changelog.length() : end);
        List<String> out = new ArrayList<>();
        String kind = null;
        StringBuilder bullet = null;
        for (String line : section.split("\n")) {
            if (bullet != null && (line.isBlank() || line.startsWith("- ") || line.startsWith("#"))) {
                out.add(kind + ": " + bullet);
                bullet = null;
            }
            if (line.startsWith("### ")) {
                kind = line.substring(4).trim().toLowerCase();
            } else if (line.startsWith("- ")) {
                bullet = new StringBuilder(line.substring(2).trim());
            } else if (bullet != null) {
                bullet.append(' ').append(line.trim());
            }
        }
        if (bullet != null) {
            out.add(kind + ": " + bullet);
        }
        return out;
    }

    private static String version() {
        return String.valueOf(CHART.get("version"));
    }

    private static String annotation(String key) {
        return String.valueOf(((Map<?, ?>) CHART.get("annotations")).get(key));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> yamlList(String text) {
        return (List<Map<String, Object>>) new Yaml().load(text);
    }

    /** Semver order of major.minor.patch. */
    private static int compare(String a, String b) {
        String[] x = a.split("-")[0].split("\\.");
        String[] y = b.split("-")[0].split("\\.");
        for (int i = 0; i < 3; i++) {
            int c = Integer.compare(Integer.parseInt(x[i]), Integer.parseInt(y[i]));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }
}
