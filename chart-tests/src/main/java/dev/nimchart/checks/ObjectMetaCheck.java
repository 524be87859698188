package dev.nimchart.checks;

import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.KeyPath;
import dev.nimchart.objects.KubeNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The ObjectMeta rules the API server applies that the client-java models do not: the object's name (a DNS
 * subdomain; a DNS-1035 label for a Service), and the syntax of label keys and values and annotation keys in every
 * {@code metadata} of the object (its own, pod templates, claim templates).
 */
final class ObjectMetaCheck {

    private ObjectMetaCheck() {
    }

    static List<String> problems(KubeObject object) {
        List<String> problems = new ArrayList<>();
        String name = object.name();
        if (name == null) {
            problems.add("metadata.name: Required value");
        } else if (object.kind().equals("Service") ? !KubeNames.isDns1035Label(name) : !KubeNames.isSubdomain(name)) {
            problems.add("metadata.name: Invalid value \"" + name + "\": must be a "
                    + (object.kind().equals("Service") ? "DNS-1035 label" : "DNS-1123 subdomain"));
        }
        metadataIn(object.raw(), "", problems);
        return problems;
    }

    /** Checks every map under a "metadata" key, anywhere in the object. */
    private static void metadataIn(Object node, String path, List<String> problems) {
        if (node instanceof Map<?, ?> map) {
            map.forEach((k, v) -> {
                String childPath = KeyPath.child(path, String.valueOf(k));
                if ("metadata".equals(k) && v instanceof Map<?, ?> meta) {
                    keysAndValues(meta.get("labels"), childPath + ".labels", true, problems);
                    keysAndValues(meta.get("annotations"), childPath + ".annotations", false, problems);
                }
                metadataIn(v, childPath, problems);
            });
        } else if (node instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                metadataIn(list.get(i), KeyPath.element(path, i), problems);
            }
        }
    }

    private static void keysAndValues(Object map, String path, boolean labels, List<String> problems) {
        if (!(map instanceof Map<?, ?> entries)) {
            return;
        }
        entries.forEach((k, v) -> {
            String key = String.valueOf(k);
            if (!KubeNames.isQualifiedName(key)) {
                problems.add(KeyPath.child(path, key) + ": Invalid value: name part must consist of alphanumeric characters,"
                        + " '-', '_' or '.', and must start and end with an alphanumeric character (at most 63)");
            }
            if (labels && !KubeNames.isLabelValue(String.valueOf(v))) {
                problems.add(KeyPath.child(path, key) + ": Invalid value \"" + v + "\": a label value must be 63 characters"
                        + " or less, alphanumeric, '-', '_' or '.', starting and ending with an alphanumeric character");
            }
        });
    }
}
