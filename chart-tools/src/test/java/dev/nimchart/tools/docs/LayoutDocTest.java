package dev.nimchart.tools.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** docs/layout.md names the packages and classes the code has, each package with what its package-info says. */
class LayoutDocTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void theLayoutDocumentAgreesWithTheCode() throws IOException {
        String file = Files.readString(ROOT.resolve("docs/layout.md"));
        String generated = LayoutDoc.generate(ROOT);
        assertThat(LayoutDoc.replaced(file, generated)).as("docs/layout.md against the code (run ci/layout-doc.sh to rewrite its"
                + " generated part)").isEqualTo(file);
        assertThat(generated).as("the library's front door and a tier package are listed").contains("| `dev.nimchart` | ")
                .contains("`ChartCheck`").contains("`dev.nimchart.judge`");
    }

    /** The layout of a tree where {@code file} holds {@code content} is refused, the message naming {@code named}. */
    private static void assertRefused(Path root, String file, String content, String named) throws IOException {
        Path path = root.resolve(file);
        Files.createDirectories(path.getParent());
        Files.writeString(path, content);
        assertThatThrownBy(() -> LayoutDoc.generate(root)).hasMessageContaining(named);
    }

    @Test
    void aLibraryPackageWithoutAPackageInfoIsRefusedByName(@TempDir Path root) throws IOException {
        assertRefused(root, "chart-tests/src/main/java/dev/acme/undocumented/Thing.java", "package dev.acme.undocumented;\nclass Thing {}\n",
                "dev/acme/undocumented/package-info.java");
    }

    @Test
    void aPackageIsDescribedByTheFirstSentenceOfItsPackageInfo(@TempDir Path root) throws IOException {
        Path pkg = Files.createDirectories(root.resolve("chart-tools/src/main/java/dev/acme/tools"));
        Files.writeString(pkg.resolve("package-info.java"), """
                /**
                 * Tools that {@code measure} things. Not this sentence.
                 */
                package dev.acme.tools;
                """);
        Files.writeString(pkg.resolve("Meter.java"), "package dev.acme.tools;\nclass Meter {}\n");
        assertThat(LayoutDoc.generate(root)).contains("| `dev.acme.tools` | Tools that `measure` things. | `Meter` |")
                .doesNotContain("Not this sentence");
    }

    @Test
    void everyCiScriptIsListedWithTheFirstLineOfItsHeader(@TempDir Path root) throws IOException {
        Path ci = Files.createDirectories(root.resolve("ci"));
        Files.writeString(ci.resolve("build-thing.sh"), "#!/usr/bin/env bash\n# Builds the thing | from its module\n# through the proxy.\nset -e\n");
        Files.writeString(ci.resolve("sourced.sh"), "# Sourced by the others.\nfoo() { :; }\n");
        Files.writeString(ci.resolve("go.mod"), "module x\n");
        assertThat(LayoutDoc.generate(root)).contains("| `ci/build-thing.sh` | Builds the thing \\| from its module … |")
                .contains("| `ci/sourced.sh` | Sourced by the others. |").doesNotContain("go.mod");
    }

    @Test
    void aCiScriptWithoutAHeaderIsRefusedByName(@TempDir Path root) throws IOException {
        assertRefused(root, "ci/silent.sh", "#!/usr/bin/env bash\nset -e\n", "silent.sh has no header comment");
    }
}
