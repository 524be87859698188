package dev.nimchart.chart.repository;

import dev.nimchart.junit.RunSettings;
import dev.nimchart.objects.KubeObject;
import dev.nimchart.render.ChartUnderTest;
import dev.nimchart.values.ExampleValuesFiles;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Method sources for parameterized tests: every example values file (values-examples/ and the nim.values.dirs of a
 * downstream team), filtered by what its merged values ask for. Only values are read here; rendering happens inside
 * each test, so one broken example fails its own tests and no others.
 */
public final class Examples {

    /** {@code @MethodSource} names of the sources below, one definition each. */
    public static final String ALL = "dev.nimchart.chart.repository.Examples#all";
    public static final String MULTI_NODE = "dev.nimchart.chart.repository.Examples#multiNode";
    public static final String ROUTABLE = "dev.nimchart.chart.repository.Examples#routable";
    public static final String WITH_NETWORKING = "dev.nimchart.chart.repository.Examples#withNetworking";

    private Examples() {
    }

    /** The example values files of this run's settings ({@code -Dnim.examples.dir}, {@code -Dnim.values.dirs}). */
    public static ExampleValuesFiles files() {
        return ExampleValuesFiles.of(RunSettings.get());
    }

    /** For {@code @MethodSource}: every valid values file, sorted by file name. */
    public static Stream<Path> all() {
        return files().valid().stream();
    }

    /** For {@code @MethodSource}: every invalid values file, sorted by file name. */
    public static Stream<Path> invalid() {
        return files().invalid().stream();
    }

    public static Stream<Path> singleNode() {
        return all().filter(f -> !Boolean.TRUE.equals(values(f).at("multiNode.enabled")));
    }

    public static Stream<Path> multiNode() {
        return all().filter(f -> Boolean.TRUE.equals(values(f).at("multiNode.enabled")));
    }

    /** Multi-node examples whose groups form a Ray cluster (NIM 2.x and 3.x). */
    public static Stream<Path> multiNodeWithRay() {
        return multiNode().filter(f -> Example.launchMode(values(f)).equals("ray"));
    }

    /** Multi-node examples whose groups start with mpirun or natively (NIM 1.x). */
    public static Stream<Path> multiNodeWithoutRay() {
        return multiNode().filter(f -> !Example.launchMode(values(f)).equals("ray"));
    }

    /**
     * The examples an InferencePool can be added to: all but NIM 3.0's Dynamo mode, where the chart refuses the endpoint
     * picker (it reads NIM's metrics, which Dynamo's frontend does not document serving; refusal file
     * dynamo-with-inference-pool.yaml).
     */
    public static Stream<Path> routable() {
        return all().filter(f -> !"single".equals(String.valueOf(values(f).at("model.dynamo.mode"))));
    }

    static Stream<Path> withNetworking() {
        return all().filter(f -> Example.networkingProvider(values(f)) != null);
    }

    /** The example of values-examples/ with this file name. */
    public static Path named(String fileName) {
        return files().valid().stream()
                .filter(p -> p.getFileName().toString().equals(fileName)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no example named " + fileName));
    }

    private static KubeObject values(Path file) {
        return new KubeObject(ChartUnderTest.values(file));
    }
}
