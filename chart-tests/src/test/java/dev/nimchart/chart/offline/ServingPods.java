package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.objects.PodTemplate;
import java.util.List;
import java.util.Map;

/** What selects the pods that serve the model's API (a Service, an InferencePool, a NetworkPolicy) selects those only. */
final class ServingPods {

    private ServingPods() {
    }

    /**
     * Asserts that {@code selector} selects exactly the templates that {@link PodTemplate#servesApi() serve the API},
     * naming {@code subject} (the example) and {@code by} (what selects) in a failure; returns the serving templates.
     */
    static List<PodTemplate> selectedExactly(String subject, String by, Map<?, ?> selector, List<PodTemplate> templates) {
        for (PodTemplate t : templates) {
            assertThat(t.selectedBy(selector)).as("%s: %s selects %s", subject, by, t).isEqualTo(t.servesApi());
        }
        return templates.stream().filter(PodTemplate::servesApi).toList();
    }
}
