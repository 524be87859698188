package dev.nimchart.checks;

import dev.nimchart.objects.EmbeddedPods;
import dev.nimchart.objects.PodPorts;
import dev.nimchart.objects.RenderedManifest;
import dev.nimchart.objects.ReleaseSelectors;
import java.util.ArrayList;
import java.util.List;

/**
 * What the runtime would break in objects the API server takes: two containers of a pod binding one port at the same
 * time ({@link PodPorts}; the API server only warns), and a selector of the release taking in another object's pods
 * ({@link ReleaseSelectors}). Part of every judgement of a rendered values file, so every example, every fuzz document
 * and every downstream values file meets it.
 */
public final class RuntimeContractCheck {

    private RuntimeContractCheck() {
    }

    /** One line per problem; empty when the manifest keeps the contract. */
    public static List<String> problems(RenderedManifest manifest) {
        List<String> out = new ArrayList<>();
        for (EmbeddedPods p : EmbeddedPods.in(manifest)) {
            for (PodPorts.Collision c : PodPorts.collisions(p.pod())) {
                out.add(p.owner() + " " + p.path() + ": " + c + " (one network namespace: the second bind fails, address already in use)");
            }
        }
        out.addAll(ReleaseSelectors.problems(manifest));
        return out;
    }
}
