package dev.nimchart.checks;

import dev.nimchart.objects.KubeObject;
import java.util.List;

/** A rendered object that the Kubernetes API would not accept as written. */
public class ModelViolation extends RuntimeException {

    public ModelViolation(KubeObject object, List<String> problems) {
        super(object + ": " + String.join("; ", problems));
    }
}
