package dev.nimchart.lint;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * kube-score (github.com/zegl/kube-score), its default checks, on every manifest at once ({@code score -o json}). A
 * check graded below OK (warning or critical) is a finding, one per comment (a container, or the object).
 */
record KubeScore(Path binary) implements PolicyEngine {

    private static final int OK = 10;

    @Override
    public String name() {
        return "kube-score";
    }

    @Override
    @SuppressWarnings("unchecked")
    public List<Finding> judge(Map<String, Path> manifests, Map<String, Map<String, Map<String, Object>>> labels) {
        Map<String, String> subjectOfFile = new LinkedHashMap<>();
        List<String> command = new ArrayList<>(List.of(binary.toString(), "score", "-o", "json"));
        manifests.forEach((subject, file) -> {
            subjectOfFile.put(file.toAbsolutePath().toString(), subject);
            command.add(file.toAbsolutePath().toString());
        });
        List<Map<String, Object>> objects = (List<Map<String, Object>>) Processes.json(command, Processes.directoryOf(manifests), 300);
        List<Finding> findings = new ArrayList<>();
        for (Map<String, Object> object : objects) {
            String subject = subjectOfFile.getOrDefault(String.valueOf(object.get("file_name")), String.valueOf(object.get("file_name")));
            String kind = String.valueOf(((Map<String, Object>) object.get("type_meta")).get("kind"));
            String name = String.valueOf(((Map<String, Object>) object.get("object_meta")).get("name"));
            Map<String, Object> objectLabels = labels.getOrDefault(subject, Map.of()).getOrDefault(kind + "/" + name, Map.of());
            for (Map<String, Object> check : (List<Map<String, Object>>) object.get("checks")) {
                if (Boolean.TRUE.equals(check.get("skipped")) || ((Number) check.get("grade")).intValue() >= OK) {
                    continue;
                }
                String id = String.valueOf(((Map<String, Object>) check.get("check")).get("id"));
                List<Map<String, Object>> comments = check.get("comments") instanceof List<?> l ? (List<Map<String, Object>>) l : List.of();
                if (comments.isEmpty()) {
                    findings.add(new Finding(name(), subject, kind, name, objectLabels, "", id, id));
                }
                for (Map<String, Object> c : comments) {
                    findings.add(new Finding(name(), subject, kind, name, objectLabels, String.valueOf(c.getOrDefault("path", "")), id,
                            String.valueOf(c.get("summary"))));
                }
            }
        }
        return findings;
    }
}
