package dev.nimchart;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
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
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The library's packages, as its class files depend on each other (every reference the compiler kept, not only
 * imports), form no cycle: each package can be read knowing only the ones below it, the door ({@code dev.nimchart}) on
 * top and what a tier is ({@code dev.nimchart.tiers}) below every tier's implementation; and only commands print.
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
}
