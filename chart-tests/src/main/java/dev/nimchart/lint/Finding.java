package dev.nimchart.lint;

import java.util.Map;

/**
 * One thing a policy engine found wrong with one object of one values file's manifest.
 *
 * @param tool      the engine (kube-score, checkov)
 * @param subject   the values file (its file name)
 * @param kind      the object's kind (Pod for an unwrapped pod template)
 * @param name      the object's name
 * @param labels    the object's labels (a pod template's, for workloads and unwrapped pods)
 * @param container the container the finding is about, or empty
 * @param check     the engine's check id (container-resources, CKV_K8S_11)
 * @param message   what the engine says
 */
public record Finding(String tool, String subject, String kind, String name, Map<String, Object> labels, String container,
        String check, String message) {

    @Override
    public String toString() {
        return subject + ": " + tool + " " + check + " on " + kind + "/" + name + (container.isEmpty() ? "" : " container " + container)
                + ": " + message;
    }
}
