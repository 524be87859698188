package dev.nimchart.chart.repository;

import dev.nimchart.render.ChartRenderer;
import dev.nimchart.render.ChartUnderTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * NOTES.txt as a user sees it after install. helm-java's template leaves NOTES out, so this renders a copy of the
 * chart (under target/, made once per JVM) in which the same NOTES.txt text is a named template, emitted
 * into a ConfigMap.
 */
public final class ChartNotes {

    private static ChartRenderer renderer;

    private ChartNotes() {
    }

    /** The NOTES of a release of this values file with these --set values. */
    public static String of(Path valuesFile, Map<String, String> set) {
        return (String) renderer().render(ChartUnderTest.releaseName(valuesFile), ChartUnderTest.NAMESPACE, List.of(valuesFile), set)
                .find("ConfigMap", "notes").orElseThrow().at("data.notes");
    }

    private static synchronized ChartRenderer renderer() {
        if (renderer == null) {
            try {
                renderer = new ChartRenderer(copyWithNotesAsATemplate(ChartUnderTest.chartDir()), dev.nimchart.junit.RunSettings.get());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return renderer;
    }

    private static Path copyWithNotesAsATemplate(Path chart) throws IOException {
        Path copy = ChartCopy.of(chart, "chart-with-notes-", f -> false);
        Path notes = copy.resolve("templates/NOTES.txt");
        Files.writeString(copy.resolve("templates/_notes-under-test.tpl"),
                "{{- define \"notes-under-test\" -}}\n" + Files.readString(notes) + "\n{{- end -}}\n");
        Files.delete(notes);
        Files.writeString(copy.resolve("templates/notes-under-test.yaml"), String.join("\n", "apiVersion: v1",
                "kind: ConfigMap", "metadata:", "  name: notes", "data:",
                "  notes: {{ include \"notes-under-test\" . | quote }}", ""));
        return copy;
    }
}
