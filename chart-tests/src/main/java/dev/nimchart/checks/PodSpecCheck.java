package dev.nimchart.checks;

import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.PodTemplate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Pod rules the API server applies across fields, which no model checks: every volume mount names a volume of the pod
 * (or a claim template of its StatefulSet), and volume and container names are unique.
 */
final class PodSpecCheck {

    private PodSpecCheck() {
    }

    static List<String> problems(KubeObject workload) {
        List<String> problems = new ArrayList<>();
        List<PodTemplate> templates;
        try {
            templates = PodTemplate.of(workload);
        } catch (IllegalStateException e) {
            return List.of(e.getMessage());
        }
        for (PodTemplate t : templates) {
            Set<String> volumes = new HashSet<>();
            for (KubeObject v : t.volumes()) {
                if (!volumes.add(String.valueOf(v.at("name")))) {
                    problems.add(t.role() + " pod: volume " + v.at("name") + " is defined twice");
                }
            }
            workload.list("spec.volumeClaimTemplates").forEach(c -> volumes.add(String.valueOf(c.at("metadata.name"))));
            Set<String> containers = new HashSet<>();
            List<KubeObject> all = new ArrayList<>(t.initContainers());
            all.addAll(t.containers());
            for (KubeObject c : all) {
                if (!containers.add(String.valueOf(c.at("name")))) {
                    problems.add(t.role() + " pod: container name " + c.at("name") + " is used twice");
                }
                for (KubeObject m : c.list("volumeMounts")) {
                    if (!volumes.contains(String.valueOf(m.at("name")))) {
                        problems.add(t.role() + " pod: container " + c.at("name") + " mounts " + m.at("name")
                                + ", which is not a volume of the pod");
                    }
                }
            }
        }
        return problems;
    }
}
