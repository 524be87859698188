package dev.nimchart.render;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A renderer of a copy of a chart whose {@code helm test} pods are ordinary templates: helm-java's {@code template}
 * leaves hooks out, so the lines carrying the {@value ChartLayout#HOOK_ANNOTATION} annotations are removed from the
 * copy's {@code templates/tests/} files. The copy lives in a temporary directory removed when the JVM ends.
 */
public final class TestHookRenderer {

    private TestHookRenderer() {
    }

    /** The renderer, or a clear error when the chart has no test template with a hook annotation. */
    public static ChartRenderer of(Path chartDir, dev.nimchart.settings.Settings settings) {
        try {
            Path copy = Files.createTempDirectory("chart-with-test-pods-").resolve(chartDir.getFileName().toString());
            int removed = 0;
            try (Stream<Path> files = Files.walk(chartDir)) {
                for (Path source : files.sorted(Comparator.naturalOrder()).toList()) {
                    Path target = copy.resolve(chartDir.relativize(source).toString());
                    if (Files.isDirectory(source)) {
                        Files.createDirectories(target);
                    } else if (chartDir.relativize(source).startsWith(Path.of("templates", "tests"))) {
                        List<String> lines = Files.readAllLines(source);
                        List<String> kept = lines.stream().filter(l -> !l.contains(ChartLayout.HOOK_ANNOTATION)).toList();
                        removed += lines.size() - kept.size();
                        Files.write(target, kept);
                    } else {
                        Files.copy(source, target);
                    }
                }
            }
            Path root = copy.getParent();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    dev.nimchart.values.FileTrees.delete(root);
                } catch (IOException ignored) {
                    // a temporary directory left behind is harmless
                }
            }));
            if (removed == 0) {
                throw new IllegalArgumentException("the chart " + chartDir + " has no helm test template (templates/tests/ with a "
                        + ChartLayout.HOOK_ANNOTATION + " annotation)");
            }
            return new ChartRenderer(copy, settings);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy the chart " + chartDir, e);
        }
    }
}
