package dev.nimchart.fuzz;

import java.util.Random;

/**
 * Where a chart's fuzz documents start: one {@link FuzzScenario} per document, drawn from that document's own random
 * stream, so document {@code n} of a seed is always the same. A chart's rules supply it; the default is
 * {@link #NONE}.
 */
@FunctionalInterface
public interface FuzzScenarios {

    /** Every document starts empty, and nothing is drawn for its start. */
    FuzzScenarios NONE = random -> FuzzScenario.NONE;

    FuzzScenario draw(Random random);

    /**
     * Key paths (dotted, as {@link dev.nimchart.values.ValuesSchema.Entry#path()}) whose keys, and the keys below them,
     * a document's first random overlay prefers, one document in two: where a chart's validators have rules. None by
     * default (every schema key alike).
     */
    default java.util.List<String> preferredKeys() {
        return java.util.List.of();
    }
}
