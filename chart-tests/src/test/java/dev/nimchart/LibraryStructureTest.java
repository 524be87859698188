package dev.nimchart;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static dev.nimchart.LibraryStructureTest.Floors.floorOf;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.GeneralCodingRules;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import dev.nimchart.progress.Progress;
import dev.nimchart.tiers.TierCheck;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The library's packages, as its class files depend on each other (every reference the compiler kept, not only
 * imports), form no cycle and keep the floor order docs/layout.md promises: each package can be read knowing only the
 * ones below it, what a tier is ({@code dev.nimchart.tiers}) below every tier's implementation, the door
 * ({@code dev.nimchart}) above them, and JUnit's adapters ({@code dev.nimchart.junit}) on top, the only package that
 * knows JUnit; and only commands print.
 */
class LibraryStructureTest {

    private static final JavaClasses LIBRARY = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("dev.nimchart");

    /** One slice a package, the root package included (a pattern like {@code dev.nimchart.(**)} leaves it out). */
    private static final SliceAssignment BY_PACKAGE = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            return SliceIdentifier.of(javaClass.getPackageName());
        }

        @Override
        public String getDescription() {
            return "the library's packages";
        }
    };

    @Test
    void readsTheLibrarysOwnClassesOnly() {
        Set<String> packages = LIBRARY.stream().map(JavaClass::getPackageName).collect(Collectors.toSet());
        assertThat(packages).contains("dev.nimchart", "dev.nimchart.tiers", "dev.nimchart.tiers.offline", "dev.nimchart.settings")
                .noneMatch(p -> p.startsWith("dev.nimchart.chart"));
        assertThat(LIBRARY.contain(TierCheck.class)).isTrue();
    }

    /**
     * Only a command prints: a class with a {@code main} method (its output is the command's), and {@code Progress}'s
     * console. Everything else reports through {@code dev.nimchart.progress.Progress} or returns what it found.
     */
    @Test
    void onlyCommandsAndTheProgressConsolePrint() {
        ArchRule rule = noClasses().that(not(haveAMainMethod())).and().doNotHaveFullyQualifiedName(Progress.class.getName())
                .and(not(nestedIn(Progress.class)))
                .should(GeneralCodingRules.ACCESS_STANDARD_STREAMS);
        rule.check(LIBRARY);
    }

    private static DescribedPredicate<JavaClass> haveAMainMethod() {
        return DescribedPredicate.describe("have a main method", c -> c.getMethods().stream()
                .anyMatch(m -> m.getName().equals("main") && m.getModifiers().contains(JavaModifier.STATIC)
                        && m.getRawParameterTypes().size() == 1 && m.getRawParameterTypes().get(0).isEquivalentTo(String[].class)));
    }

    private static DescribedPredicate<JavaClass> nestedIn(Class<?> outer) {
        return DescribedPredicate.describe("nested in " + outer.getSimpleName(),
                c -> c.getName().startsWith(outer.getName() + "$"));
    }

    @Test
    void packagesFormNoCycle() {
        ArchRule rule = slices().assignedFrom(BY_PACKAGE).should().beFreeOfCycles();
        rule.check(LIBRARY);
    }

    /**
     * Only JUnit's adapters know JUnit: the tiers ({@code dev.nimchart.tiers..}), their lifecycle
     * ({@code dev.nimchart.sessions}), the door and every other package use none of JUnit's types (nor opentest4j's,
     * JUnit's exceptions), so the library runs under any runner and from the command line.
     */
    @Test
    void onlyTheJUnitAdaptersKnowJUnit() {
        ArchRule rule = noClasses().that().resideOutsideOfPackage(Floors.JUNIT_ADAPTERS)
                .should().dependOnClassesThat().resideInAnyPackage("org.junit..", "org.opentest4j..")
                .because("the tiers and their lifecycle know no test framework; dev.nimchart.junit adapts them to JUnit");
        rule.check(LIBRARY);
    }

    /**
     * Every package depends only on packages of floors below its own (or on itself): the floor order of
     * {@link Floors#ORDER}, which is docs/layout.md's.
     */
    @Test
    void everyPackageDependsOnlyOnTheFloorsBelowIt() {
        Set<String> violations = new TreeSet<>();
        for (JavaClass c : LIBRARY) {
            String from = c.getPackageName();
            int floor = floorOf(from);
            c.getDirectDependenciesFromSelf().forEach(d -> {
                String to = d.getTargetClass().getPackageName();
                if (to.equals(from) || !(to.equals(Floors.ROOT) || to.startsWith(Floors.ROOT + "."))) {
                    return;
                }
                if (floorOf(to) >= floor) {
                    violations.add(from + " -> " + to + " (" + c.getSimpleName() + " uses " + d.getTargetClass().getSimpleName() + ")");
                }
            });
        }
        assertThat(violations).as("dependencies on the same or a higher floor (order, bottom first: %s)", Floors.ORDER).isEmpty();
    }

    /** Every package of the library has a floor (a new package is placed in the order, and in docs/layout.md). */
    @Test
    void everyPackageHasAFloor() {
        Set<String> packages = LIBRARY.stream().map(JavaClass::getPackageName).collect(Collectors.toCollection(TreeSet::new));
        assertThat(packages).allSatisfy(p -> assertThat(floorOf(p)).as("the floor of %s", p).isNotNegative());
    }

    /**
     * docs/layout.md's row for the library names the packages in {@link Floors#ORDER}, bottom first ("each importing
     * only the ones listed before it"): the first mention of each, as {@code `name`}, in this order.
     */
    @Test
    void docsLayoutListsTheFloorsInThisOrder() throws IOException {
        String layout = Files.readString(Path.of("..", "docs", "layout.md"));
        String row = layout.lines().filter(l -> l.startsWith("| `chart-tests/` |")).findFirst().orElseThrow();
        List<String> mentioned = new ArrayList<>();
        Matcher m = Pattern.compile("`([a-z.]+)`").matcher(row);
        while (m.find()) {
            String name = m.group(1).equals(Floors.ROOT) ? "" : m.group(1);
            if (!name.equals("tiers.*") && Floors.ORDER.contains(name) && !mentioned.contains(name)) {
                mentioned.add(name);
            }
        }
        List<String> expected = Floors.ORDER.stream().filter(f -> !f.equals("tiers.*")).toList();
        assertThat(mentioned).as("packages in docs/layout.md's chart-tests row, first mentions in order (`dev.nimchart` the door)")
                .isEqualTo(expected);
    }

    /** The library's floors: package names relative to {@code dev.nimchart} ("" the door), the lowest first. */
    static final class Floors {
        static final String ROOT = "dev.nimchart";
        static final String JUNIT_ADAPTERS = ROOT + ".junit";
        static final List<String> ORDER = List.of("progress", "result", "settings", "objects", "kubeschema", "values", "render",
                "checks", "judge", "fuzz", "report", "cluster", "lint", "controllers", "startup", "sessions", "tiers", "tiers.*",
                "", "junit");

        /** The floor of a package (its index in {@link #ORDER}; every tier's implementation one floor above {@code tiers}), or -1. */
        static int floorOf(String javaPackage) {
            if (javaPackage.equals(ROOT)) {
                return ORDER.indexOf("");
            }
            String relative = javaPackage.startsWith(ROOT + ".") ? javaPackage.substring(ROOT.length() + 1) : javaPackage;
            return relative.startsWith("tiers.") ? ORDER.indexOf("tiers.*") : ORDER.indexOf(relative);
        }
    }
}
