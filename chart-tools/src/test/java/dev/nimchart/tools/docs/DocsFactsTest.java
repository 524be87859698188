package dev.nimchart.tools.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What README.md and docs/*.md name is what the repository has: every Java class written in backticks ({@code
 * `ChartCheck`}, {@code `ChartCheck.tierTests(tier)`}) is declared in chart-tests, chart-tools or examples/ (and the
 * member named after it occurs in its source), every {@code dev.nimchart...} package is a source directory, every
 * repository path in backticks exists, every count is the repository's, and the versions the README asks for are the
 * pinned ones.
 *
 * <p>The rules, so a writer knows what is checked (inline code in the prose; fenced code and the generated figures and
 * parameters tables are not read):
 * <ul>
 *   <li>A <b>class name</b> is inline code that is an upper-camel-case identifier, optionally package-qualified and
 *       followed by {@code .member} or a call. It is checked unless it is a value of the chart's values schema
 *       ({@code enum}), a {@code kind:} the chart or the example charts render, or in {@link #UPSTREAM_NAMES} (each
 *       with its reason).</li>
 *   <li>A <b>path</b> is a word of inline code that starts with one of the repository's top-level directories
 *       ({@code ci/}, {@code docs/}, {@code charts/}, {@code values-examples/}, ...), or is a top-level file, or starts
 *       with {@code templates/} or is a {@code _name.tpl} (both the nim-llm chart's). Skipped: globs and placeholders
 *       ({@code * ? < > { } [ ] $ ...}, a {@code N} between dashes or slashes), anything under a {@code target/} (a
 *       build's output, not the repository's), inline code that is a link's text (the link itself is checked by
 *       {@code ReadmeFactsTest}), and inline code followed by {@value #ELSEWHERE} (a path in another repository).</li>
 *   <li>A <b>count</b> is a number followed by {@code <!--count:WHAT-->}: WHAT is a glob of repository files
 *       ({@code values-examples/invalid/upstream-*.yaml}, one directory, no wildcard in it) or a named count
 *       ({@code fake-nodes}, {@code fuzz-documents}). A number directly before a noun the repository counts
 *       (examples, refusal files, values files, fake nodes) must carry such a marker, or {@value #PAST_COUNT} when it
 *       counts another day's repository or run (the prose then says which).</li>
 * </ul>
 */
class DocsFactsTest {

    private static final Path REPO = Documents.REPO;
    /** Where the repository's Java is. */
    private static final List<String> JAVA_TREES = List.of("chart-tests/src", "chart-tools/src", "examples");
    /** The chart the documents describe: where {@code templates/...} and {@code _name.tpl} are. */
    private static final Path CHART = REPO.resolve("charts/nim-llm");

    private static final Pattern CODE = Pattern.compile("`([^`]+)`");
    private static final Pattern CLASS_NAME = Pattern.compile(
            "^(?:dev\\.nimchart(?:\\.[a-z]\\w*)*\\.)?([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)((?:\\.[A-Za-z_]\\w*)*)(?:\\(.*\\))?$");
    private static final Pattern DECLARATION = Pattern.compile("(?m)^\\s*(?:(?:public|protected|private|static|final|abstract|sealed"
            + "|non-sealed|strictfp)\\s+)*(?:class|interface|record|enum|@interface)\\s+([A-Z]\\w*)");
    private static final Pattern PACKAGE = Pattern.compile("\\bdev\\.nimchart(?:\\.[a-z]\\w*)*");
    private static final Pattern PLACEHOLDER = Pattern.compile("[*?<>{}\\[\\]$]|\\.\\.\\.|(^|[-/])N($|[-/.])");
    private static final Pattern COUNT = Pattern.compile("(\\d[\\d,]*)\\**\\s?<!--count:([^>]+?)-->");
    private static final Pattern COUNTED_NOUN = Pattern.compile("(?<![\\w.,/-])(\\d[\\d,]*)\\**(\\s?<!--[^>]*-->)?\\s+(?:[\\w-]+\\s+)?"
            + "(?:example values files|example files|examples|refusal files|invalid files|values files|fake (?:GPU )?nodes)\\b");
    private static final String PAST_COUNT = "<!--past-count-->";
    private static final String ELSEWHERE = "<!--not-this-repository-->";

    /**
     * Upper-camel-case names the documents quote that are no class of this repository and no value or kind of the chart:
     * upstream types, functions, condition types and policy values, each with where it is from.
     */
    static final Map<String, String> UPSTREAM_NAMES = Map.ofEntries(
            Map.entry("AutoCloseable", "java.lang, the JDK"),
            Map.entry("ExtensionContext", "JUnit 5's extension API"),
            Map.entry("StoreScope", "JUnit 5.13's ExtensionContext.StoreScope"),
            Map.entry("PodTemplateSpec", "a Kubernetes API type (core/v1)"),
            Map.entry("Available", "a LeaderWorkerSet and Deployment status condition type"),
            Map.entry("Complete", "a Job status condition type"),
            Map.entry("Running", "an MPIJob condition type and a pod phase"),
            Map.entry("Succeeded", "a pod phase"),
            Map.entry("AbleToScale", "a HorizontalPodAutoscaler status condition type"),
            Map.entry("Memory", "an emptyDir medium (core/v1)"),
            Map.entry("Parallel", "a StatefulSet podManagementPolicy (apps/v1)"),
            Map.entry("ExternalName", "a Service type (core/v1)"),
            Map.entry("ExtendedResourceToleration", "a kube-apiserver admission plugin"),
            Map.entry("WaitForWorkersReady", "an MPIJob launcherCreationPolicy (mpi-operator)"),
            Map.entry("EndpointPickerRefMissing", "a GAIE InferencePool condition reason"),
            Map.entry("DisaggregatedSet", "a LeaderWorkerSet project kind (disaggregated serving)"),
            Map.entry("DisaggregatedSetRoleScaler", "a LeaderWorkerSet project kind (disaggregated serving)"),
            Map.entry("ExclusiveSlice", "a DisaggregatedSet placement policy (LeaderWorkerSet project)"),
            Map.entry("ExclusiveTopology", "a DisaggregatedSet placement policy (LeaderWorkerSet project)"),
            Map.entry("Options", "GAIE's endpoint picker options type (Options.Validate)"),
            Map.entry("ValidateTriggers", "a KEDA admission webhook function"),
            Map.entry("GetEnvWithProxy", "a NIM Operator function"),
            Map.entry("GetScaledValueFromIntOrPercent", "a Kubernetes apimachinery function"),
            Map.entry("SetEnv", "an sshd_config keyword"));

    @Test
    void everyClassNameIsAClassOfTheRepository() {
        Map<String, List<Path>> declared = declaredTypes();
        Set<String> notJava = new HashSet<>(schemaValues());
        notJava.addAll(renderedKinds());
        notJava.addAll(UPSTREAM_NAMES.keySet());
        List<String> wrong = new ArrayList<>();
        eachCode((where, code) -> {
            Matcher m = CLASS_NAME.matcher(code);
            if (!m.matches() || notJava.contains(m.group(1))) {
                return;
            }
            List<Path> files = declared.get(m.group(1));
            if (files == null) {
                wrong.add(where + ": `" + code + "` (no class " + m.group(1) + " in " + String.join(", ", JAVA_TREES) + ")");
            } else if (!m.group(2).isEmpty()) {
                String member = m.group(2).substring(1).split("\\.")[0];
                Pattern word = Pattern.compile("\\b" + Pattern.quote(member) + "\\b");
                if (files.stream().noneMatch(f -> word.matcher(Documents.read(f)).find())) {
                    wrong.add(where + ": `" + code + "` (" + member + " occurs nowhere in " + m.group(1) + "'s source)");
                }
            }
        });
        assertThat(wrong).as("class names in README.md and docs/ that name no class of the repository: fix the name, or"
                + " add an upstream name to UPSTREAM_NAMES with where it is from").isEmpty();
    }

    @Test
    void everyPackageIsOneOfTheRepository() {
        List<Path> roots = sourceRoots();
        List<String> wrong = new ArrayList<>();
        eachCode((where, code) -> {
            Matcher m = PACKAGE.matcher(code);
            while (m.find()) {
                String dir = m.group().replace('.', '/');
                if (roots.stream().noneMatch(r -> Files.isDirectory(r.resolve(dir)))) {
                    wrong.add(where + ": `" + code + "` (no package " + m.group() + ")");
                }
            }
        });
        assertThat(wrong).as("packages in README.md and docs/ that no source tree has").isEmpty();
    }

    @Test
    void everyRepositoryPathExists() throws IOException {
        Set<String> topLevel = new HashSet<>();
        try (Stream<Path> list = Files.list(REPO)) {
            list.map(p -> p.getFileName().toString()).filter(n -> !n.startsWith(".") && !n.equals("target")).forEach(topLevel::add);
        }
        List<String> wrong = new ArrayList<>();
        List<String> checked = new ArrayList<>();
        for (Path doc : Documents.all()) {
            List<String> lines = Documents.namingLines(doc);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                Matcher m = CODE.matcher(line);
                while (m.find()) {
                    boolean linkText = m.start() > 0 && line.charAt(m.start() - 1) == '[' && line.startsWith("](", m.end());
                    if (linkText || line.startsWith(ELSEWHERE, m.end())) {
                        continue;
                    }
                    for (String word : m.group(1).split("\\s+")) {
                        Path path = repositoryPath(word.replaceAll("^[(\"']+|[)\"',;:.]+$", ""), topLevel);
                        if (path != null) {
                            checked.add(word);
                            if (!Files.exists(path)) {
                                wrong.add(Documents.name(doc) + " line " + (i + 1) + ": `" + m.group(1) + "` (no " + REPO.relativize(path) + ")");
                            }
                        }
                    }
                }
            }
        }
        assertThat(wrong).as("repository paths in README.md and docs/ that do not exist (a path of another repository"
                + " takes " + ELSEWHERE + " after it)").isEmpty();
        assertThat(checked).as("the paths checked").contains("ci/go.mod", "values-examples/invalid/");
    }

    @Test
    void everyCountIsTheRepositorys() {
        Matcher m = COUNT.matcher(Documents.allText());
        List<String> seen = new ArrayList<>();
        while (m.find()) {
            String what = m.group(2);
            assertThat(Integer.parseInt(m.group(1).replace(",", ""))).as("the documents: %s", m.group()).isEqualTo(count(what));
            seen.add(what);
        }
        assertThat(seen).as("the documents state the corpus counts").contains("values-examples/invalid/upstream-*.yaml", "fake-nodes");
    }

    @Test
    void everyCountOfWhatTheRepositoryCountsSaysWhatItCounts() {
        List<String> loose = Documents.unmarked(Documents::namingLines, COUNTED_NOUN, (m, rest) -> {
            String marker = m.group(2) == null ? "" : m.group(2).strip();
            return !marker.startsWith("<!--count:") && !marker.equals(PAST_COUNT);
        });
        assertThat(loose).as("a count of examples, refusal files, values files or fake nodes carries <!--count:WHAT--> (checked"
                + " against the repository) or, for another day's count that the prose dates, " + PAST_COUNT).isEmpty();
    }

    /**
     * The README's prerequisites are the versions the build pins: "Go X.Y+" the highest {@code go} directive of ci/'s
     * go.mod files (the newest the builds need), "Java N" the compiler release of the root pom, "Helm 3.N CLI" the Helm
     * module of ci/tools/helm/go.mod.
     */
    @Test
    void theVersionsTheReadmeAsksForAreThePinnedOnes() throws IOException {
        String readme = Documents.read(Documents.README);
        String go;
        try (Stream<Path> walk = Files.walk(REPO.resolve("ci"))) {
            go = walk.filter(f -> f.getFileName().toString().equals("go.mod")).map(f -> {
                Matcher m = Pattern.compile("(?m)^go (\\d+)\\.(\\d+)").matcher(Documents.read(f));
                return m.find() ? String.format("%03d%03d", Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))) : "";
            }).max(String::compareTo).orElseThrow();
        }
        String goVersion = Integer.parseInt(go.substring(0, 3)) + "." + Integer.parseInt(go.substring(3));
        assertThat(readme).as("README.md asks for the Go the ci/ go.mod files need").contains("Go " + goVersion + "+");
        Matcher release = Pattern.compile("<maven\\.compiler\\.release>(\\d+)<").matcher(Documents.read(REPO.resolve("pom.xml")));
        assertThat(release.find()).as("pom.xml sets maven.compiler.release").isTrue();
        assertThat(readme).as("README.md asks for the Java the build compiles for").contains("Java " + release.group(1) + ",");
        Matcher helm = Pattern.compile("helm\\.sh/helm/v3 v3\\.(\\d+)\\.").matcher(Documents.read(REPO.resolve("ci/tools/helm/go.mod")));
        assertThat(helm.find()).as("ci/tools/helm/go.mod pins Helm").isTrue();
        assertThat(readme).as("README.md names the Helm CLI ci/build-tools.sh builds").contains("Helm 3." + helm.group(1) + " CLI");
    }

    /** The number of {@code what}: a glob of files in one directory of the repository, or a named count. */
    private static int count(String what) {
        if (what.contains("/")) {
            Path dir = REPO.resolve(what.substring(0, what.lastIndexOf('/')));
            assertThat(dir.toString()).as("<!--count:%s-->: the directory part has no wildcard", what).doesNotContainPattern("[*?\\[{]");
            PathMatcher name = FileSystems.getDefault().getPathMatcher("glob:" + what.substring(what.lastIndexOf('/') + 1));
            try (Stream<Path> list = Files.list(dir)) {
                return (int) list.filter(Files::isRegularFile).filter(p -> name.matches(p.getFileName())).count();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return switch (what) {
            case "fake-nodes" -> fakeNodes();
            case "fuzz-documents" -> fuzzDocumentsByDefault();
            default -> throw new AssertionError("the documents count " + what + ", which this test does not know: a glob of"
                    + " repository files (with a /) or fake-nodes or fuzz-documents");
        };
    }

    /** The file a word of inline code names, or null when the word names no file of this repository by the rules above. */
    private static Path repositoryPath(String word, Set<String> topLevel) {
        if (word.isEmpty() || PLACEHOLDER.matcher(word).find() || ("/" + word + "/").contains("/target/")) {
            return null;
        }
        String first = word.contains("/") ? word.substring(0, word.indexOf('/')) : word;
        if (topLevel.contains(first) && (word.contains("/") || Files.isRegularFile(REPO.resolve(word)))) {
            return REPO.resolve(word);
        }
        if (word.startsWith("templates/")) {
            return CHART.resolve(word);
        }
        if (word.matches("_[\\w-]+\\.tpl")) {
            return CHART.resolve("templates").resolve(word);
        }
        return null;
    }

    /** Calls {@code each} with (document and line, inline code) for every inline code of the documents' prose. */
    private static void eachCode(BiConsumer<String, String> each) {
        for (Path doc : Documents.all()) {
            List<String> lines = Documents.namingLines(doc);
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = CODE.matcher(lines.get(i));
                while (m.find()) {
                    each.accept(Documents.name(doc) + " line " + (i + 1), m.group(1));
                }
            }
        }
    }

    /** Every top-level and nested type the repository's Java declares, by simple name, with the files declaring it. */
    private static Map<String, List<Path>> declaredTypes() {
        Map<String, List<Path>> out = new HashMap<>();
        for (Path java : files(JAVA_TREES, ".java")) {
            Matcher m = DECLARATION.matcher(Documents.read(java));
            while (m.find()) {
                out.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(java);
            }
        }
        return out;
    }

    /** The directories Java packages live in: every {@code src/main/java} and {@code src/test/java} of the Java trees. */
    private static List<Path> sourceRoots() {
        List<Path> roots = new ArrayList<>();
        for (String tree : JAVA_TREES) {
            try (Stream<Path> walk = Files.walk(REPO.resolve(tree), 4)) {
                walk.filter(Files::isDirectory).filter(d -> d.endsWith("main/java") || d.endsWith("test/java"))
                        .filter(d -> !d.toString().contains("/target/")).forEach(roots::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        assertThat(roots).as("source roots").contains(REPO.resolve("chart-tests/src/main/java"));
        return roots;
    }

    /** The string values of every {@code enum} in the chart's values schema (policy names, access modes, ...). */
    private static Set<String> schemaValues() {
        Set<String> values = new HashSet<>();
        Matcher list = Pattern.compile("\"enum\"\\s*:\\s*\\[([^\\]]*)\\]").matcher(Documents.read(CHART.resolve("values.schema.json")));
        while (list.find()) {
            Matcher value = Pattern.compile("\"([^\"]*)\"").matcher(list.group(1));
            while (value.find()) {
                values.add(value.group(1));
            }
        }
        assertThat(values).as("the schema's enum values").contains("IfNotPresent");
        return values;
    }

    /** Every {@code kind:} the repository's charts (nim-llm, the example charts, their CRDs) write. */
    private static Set<String> renderedKinds() {
        Set<String> kinds = new HashSet<>();
        Pattern kind = Pattern.compile("(?m)^\\s*kind:\\s*\"?([A-Z]\\w*)");
        for (Path f : files(List.of("charts", "examples"), ".yaml", ".tpl")) {
            Matcher m = kind.matcher(Documents.read(f));
            while (m.find()) {
                kinds.add(m.group(1));
            }
        }
        assertThat(kinds).as("the kinds the charts render").contains("StatefulSet", "LeaderWorkerSet");
        return kinds;
    }

    private static List<Path> files(List<String> trees, String... suffixes) {
        List<Path> out = new ArrayList<>();
        for (String tree : trees) {
            try (Stream<Path> walk = Files.walk(REPO.resolve(tree))) {
                walk.filter(Files::isRegularFile).filter(f -> !f.toString().contains("/target/"))
                        .filter(f -> Stream.of(suffixes).anyMatch(s -> f.toString().endsWith(s))).forEach(out::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    private static int fakeNodes() {
        try (InputStream in = DocsFactsTest.class.getResourceAsStream("/dev/nimchart/controllers/fake-gpu-nodes.yaml")) {
            assertThat(in).as("the built-in fake nodes").isNotNull();
            Matcher m = Pattern.compile("(?m)^\\s+count:\\s*(\\d+)\\s*$").matcher(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            int total = 0;
            while (m.find()) {
                total += Integer.parseInt(m.group(1));
            }
            return total;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The pom's default, not this run's -Dnim.fuzz.count. */
    private static int fuzzDocumentsByDefault() {
        Matcher m = Pattern.compile("<nim\\.fuzz\\.count>(\\d+)</nim\\.fuzz\\.count>").matcher(Documents.read(REPO.resolve("chart-tests/pom.xml")));
        assertThat(m.find()).as("chart-tests/pom.xml sets nim.fuzz.count").isTrue();
        return Integer.parseInt(m.group(1));
    }
}
