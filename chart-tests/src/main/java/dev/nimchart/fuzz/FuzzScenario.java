package dev.nimchart.fuzz;

import java.util.List;
import java.util.Map;

/**
 * The values a fuzz document starts from, before random keys of the schema and a mistake are added: a coherent
 * deployment of one chart that random keys alone would rarely reach. A chart opts in with its rules
 * ({@code ChartRules.fuzzScenario}); without one every document starts from {@link #NONE}, an empty document.
 *
 * @param description what the document started from, for its header ({@code # scenario: ...})
 * @param traits      what a run counts among the documents that rendered ({@code rendered <trait>}), e.g. a workload
 *                    kind the scenario chose
 * @param values      the starting values, as a user's values file holds them
 */
public record FuzzScenario(String description, List<String> traits, Map<String, Object> values) {

    /** No scenario: the document starts empty (the chart's values.yaml as it is); nothing is drawn for it. */
    public static final FuzzScenario NONE = new FuzzScenario("none (an empty document: the chart's values.yaml as it is)",
            List.of(), Map.of());

    public FuzzScenario {
        traits = List.copyOf(traits);
        values = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(values)); // in the user's order
    }
}
