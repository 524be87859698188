package dev.nimchart.cluster;

import dev.nimchart.objects.KubeObject;
import dev.nimchart.objects.PodTemplate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What Pod Security admission says of the pods a template makes. Admission checks Pods, and on this tier nothing
 * turns a StatefulSet or LeaderWorkerSet into pods, so the template becomes a Pod created with {@code dryRun=All} in
 * the test namespace (labelled {@code enforce=restricted}): admitted, or refused with the checks it fails.
 *
 * @param violations the failed checks as the server words them, e.g.
 *                   {@code unrestricted capabilities (container "nim" must not include "IPC_LOCK" in securityContext.capabilities.add)}
 */
public record PodSecurityVerdict(PodTemplate template, boolean admitted, List<String> violations, String message) {

    private static final Pattern VIOLATES = Pattern.compile("violate[s]? PodSecurity \"[^\"]+\": (.*)$", Pattern.DOTALL);

    public static PodSecurityVerdict of(KubeApi api, String namespace, PodTemplate template) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", "pod-security-" + template.role());
        metadata.put("labels", template.labels());
        KubeApi.Response response = api.create(KubeObject.pod(metadata, specAsControllerMakesIt(template), null), namespace, true);
        if (response.ok()) {
            return new PodSecurityVerdict(template, true, List.of(), "");
        }
        Matcher m = VIOLATES.matcher(response.message());
        if (response.code() != 403 || !m.find()) {
            throw new IllegalStateException("a Pod from " + template + " was refused for another reason than Pod Security: "
                    + response.message());
        }
        return new PodSecurityVerdict(template, false, splitTopLevel(m.group(1)), response.message());
    }

    /**
     * The template's spec plus what the StatefulSet controller adds (a claim volume per volumeClaimTemplate), minus
     * the references other admission plugins resolve against objects of the cluster (a PriorityClass, a RuntimeClass)
     * that the tier's empty cluster lacks; Pod Security looks at neither.
     */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> specAsControllerMakesIt(PodTemplate template) {
        Map<String, Object> spec = new LinkedHashMap<>((Map<String, Object>) template.pod().at("spec"));
        spec.remove("priorityClassName");
        spec.remove("runtimeClassName");
        if (template.owner().kind().equals("StatefulSet")) {
            List<Object> volumes = new ArrayList<>((List<Object>) spec.getOrDefault("volumes", List.of()));
            for (KubeObject claim : template.owner().list("spec.volumeClaimTemplates")) {
                volumes.add(Map.of("name", claim.name(), "persistentVolumeClaim",
                        Map.of("claimName", claim.name() + "-" + template.owner().name() + "-0")));
            }
            spec.put("volumes", volumes);
        }
        return spec;
    }

    /** The names of the failed checks: "unrestricted capabilities", "restricted volume types", ... */
    public List<String> checks() {
        return violations.stream().map(PodSecurityVerdict::checkName).toList();
    }

    /**
     * The failed checks named by a Pod Security text, a refusal or a workload warning such as
     * {@code would violate PodSecurity "restricted:latest": restricted volume types (volume "x" uses ...)}; empty
     * when the text is not about Pod Security.
     */
    public static List<String> checksIn(String text) {
        Matcher m = VIOLATES.matcher(text);
        return m.find() ? splitTopLevel(m.group(1)).stream().map(PodSecurityVerdict::checkName).toList() : List.of();
    }

    private static String checkName(String violation) {
        return violation.replaceFirst("\\s*\\(.*$", "").trim();
    }

    /** "a (x, y), b (z)" split at the commas outside parentheses. */
    static List<String> splitTopLevel(String text) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        boolean quoted = false;
        StringBuilder current = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (!quoted && c == '(') {
                depth++;
            } else if (!quoted && c == ')') {
                depth--;
            } else if (!quoted && depth == 0 && c == ',') {
                parts.add(current.toString().trim());
                current.setLength(0);
                continue;
            }
            current.append(c);
        }
        if (!current.toString().isBlank()) {
            parts.add(current.toString().trim());
        }
        return parts;
    }
}
