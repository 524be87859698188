package dev.nimchart.bench;

import dev.nimchart.checks.CrdSchemaValidator;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.checks.StrictModelCheck;
import dev.nimchart.values.ValuesMerger;
import dev.nimchart.values.ValuesSchemaValidator;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What the offline tier does for one values file, in-process: merge and validate the values against the chart's
 * schema (networknt), render with helm-java (which validates them again, as Helm does), parse strictly, and check
 * every object against the Kubernetes models or the pinned CRD schemas.
 */
public final class HarnessCheck {

    private final ValuesSchemaValidator schema = new ValuesSchemaValidator(ChartUnderTest.chartDir());
    private final StrictModelCheck strict = new StrictModelCheck().withCustomResourceValidator(CrdSchemaValidator.load()::validate);

    /** Checks values files (merged in order); returns the manifest; throws on any problem. */
    public RenderedManifest check(List<Path> valuesFiles) {
        List<String> problems = schema.validate(ValuesMerger.mergedValues(ChartUnderTest.chartDir(), valuesFiles));
        if (!problems.isEmpty()) {
            throw new IllegalStateException(valuesFiles + " fail the values schema: " + problems);
        }
        RenderedManifest manifest = ChartUnderTest.render(valuesFiles, Map.of());
        for (KubeObject o : manifest.objects()) {
            strict.check(o);
        }
        return manifest;
    }
}
