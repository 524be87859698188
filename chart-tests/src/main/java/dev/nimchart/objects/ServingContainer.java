package dev.nimchart.objects;

import java.util.List;

/**
 * The one way the harness finds the container a pod (or pod template) serves from: the container its
 * {@code kubectl.kubernetes.io/default-container} annotation names (the Kubernetes convention kubectl follows), else
 * the first container. Nothing else in the harness picks a container by name.
 */
public final class ServingContainer {

    public static final String ANNOTATION = "kubectl.kubernetes.io/default-container";

    private ServingContainer() {
    }

    /** The serving container of a pod or of a pod template ({@code metadata} and {@code spec.containers}). */
    public static KubeObject of(KubeObject podOrTemplate) {
        List<KubeObject> containers = podOrTemplate.list("spec.containers");
        if (containers.isEmpty()) {
            throw new IllegalStateException(podOrTemplate + " has no container");
        }
        Object named = podOrTemplate.annotations().get(ANNOTATION);
        return containers.stream().filter(c -> named != null && named.equals(c.at("name"))).findFirst().orElse(containers.get(0));
    }
}
