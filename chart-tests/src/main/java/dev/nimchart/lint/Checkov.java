package dev.nimchart.lint;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * checkov (bridgecrewio/checkov), its Kubernetes framework, on the directory of manifests at once, offline
 * ({@code --skip-download}: no policies fetched, no platform calls). Every failed check is a finding on its object.
 */
record Checkov(Path binary) implements PolicyEngine {

    @Override
    public String name() {
        return "checkov";
    }

    @Override
    @SuppressWarnings("unchecked")
    public List<Finding> judge(Map<String, Path> manifests, Map<String, Map<String, Map<String, Object>>> labels) {
        Path dir = Processes.directoryOf(manifests);
        Object parsed = Processes.json(List.of(binary.toString(), "-d", dir.toString(), "--framework", "kubernetes", "-o", "json",
                "--quiet", "--compact", "--skip-download"), dir, 600);
        List<Map<String, Object>> reports = parsed instanceof List<?> l ? (List<Map<String, Object>>) l : List.of((Map<String, Object>) parsed);
        List<Finding> findings = new ArrayList<>();
        for (Map<String, Object> report : reports) {
            Map<String, Object> results = (Map<String, Object>) report.get("results");
            if (results == null) {
                continue;
            }
            for (Map<String, Object> failed : (List<Map<String, Object>>) results.getOrDefault("failed_checks", List.of())) {
                String file = Path.of(String.valueOf(failed.get("file_path"))).getFileName().toString();
                String subject = manifests.entrySet().stream().filter(e -> e.getValue().getFileName().toString().equals(file))
                        .map(Map.Entry::getKey).findFirst().orElse(file);
                // resource: Kind.namespace.name (graph checks append the pod's labels to the name).
                String[] parts = String.valueOf(failed.get("resource")).split("\\.", 3);
                String kind = parts[0];
                String rest = parts.length > 2 ? parts[2] : "";
                Map<String, Map<String, Object>> objects = labels.getOrDefault(subject, Map.of());
                // The object of that kind and name, else (a graph check's pod of a workload's template) of any kind.
                String key = objects.keySet().stream().filter(k -> k.startsWith(kind + "/") && named(k, rest)).findFirst()
                        .orElseGet(() -> objects.keySet().stream().filter(k -> named(k, rest))
                                .max(Comparator.comparingInt(String::length)).orElse(kind + "/" + rest));
                findings.add(new Finding(name(), subject, kind, key.substring(key.indexOf('/') + 1), objects.getOrDefault(key, Map.of()),
                        "", String.valueOf(failed.get("check_id")), String.valueOf(failed.get("check_name"))));
            }
        }
        return findings;
    }

    /** Whether checkov's resource name (after kind and namespace) names this "Kind/name" object. */
    private static boolean named(String key, String rest) {
        String n = key.substring(key.indexOf('/') + 1);
        return rest.equals(n) || rest.startsWith(n + ".");
    }
}
