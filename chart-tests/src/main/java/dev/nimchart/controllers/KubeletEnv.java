package dev.nimchart.controllers;

import dev.nimchart.objects.KubeObject;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A container's environment as the kubelet would start it, from the pod as the controllers and webhooks left it:
 * entries in order, {@code $(NAME)} expanded only from entries defined before it ({@code $$} escapes, an unknown
 * reference stays as written), {@code fieldRef} read from the pod, ConfigMap and Secret keys from the namespace.
 */
public final class KubeletEnv {

    private static final Pattern FIELD_LABEL = Pattern.compile("metadata\\.(labels|annotations)\\['(.+)'\\]");

    private KubeletEnv() {
    }

    public static Map<String, String> of(KubeObject pod, KubeObject container, NamespaceState namespace) {
        Map<String, String> env = new LinkedHashMap<>();
        for (KubeObject e : container.list("env")) {
            String name = e.at("name").toString();
            String value;
            if (e.at("valueFrom") != null) {
                value = valueFrom(pod, e, namespace);
            } else {
                value = expand(e.at("value") == null ? "" : e.at("value").toString(), env);
            }
            env.remove(name);
            env.put(name, value);
        }
        return env;
    }

    /** Kubernetes' $(VAR) expansion against the variables defined so far. */
    public static String expand(String input, Map<String, String> defined) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < input.length(); i++) {
            char c = input.charAt(i);
            if (c == '$' && i + 1 < input.length()) {
                char next = input.charAt(i + 1);
                if (next == '$') {
                    out.append('$');
                    i++;
                    continue;
                }
                if (next == '(') {
                    int close = input.indexOf(')', i + 2);
                    if (close > 0) {
                        String ref = input.substring(i + 2, close);
                        out.append(defined.containsKey(ref) ? defined.get(ref) : "$(" + ref + ")");
                        i = close;
                        continue;
                    }
                }
            }
            out.append(c);
        }
        return out.toString();
    }

    /** The names a value refers to with $(NAME). */
    public static List<String> references(String value) {
        Matcher m = Pattern.compile("(?<!\\$)\\$\\(([A-Za-z_][A-Za-z0-9_.-]*)\\)").matcher(value);
        List<String> refs = new java.util.ArrayList<>();
        while (m.find()) {
            refs.add(m.group(1));
        }
        return refs;
    }

    private static String valueFrom(KubeObject pod, KubeObject e, NamespaceState namespace) {
        Object fieldPath = e.at("valueFrom.fieldRef.fieldPath");
        if (fieldPath != null) {
            return field(pod, fieldPath.toString());
        }
        Object configMap = e.at("valueFrom.configMapKeyRef.name");
        if (configMap != null) {
            return namespace.named("ConfigMap", configMap.toString())
                    .map(cm -> String.valueOf(cm.at("data[" + e.at("valueFrom.configMapKeyRef.key") + "]"))).orElse("");
        }
        Object secret = e.at("valueFrom.secretKeyRef.name");
        if (secret != null) {
            return namespace.named("Secret", secret.toString()).map(s -> s.at("data[" + e.at("valueFrom.secretKeyRef.key") + "]"))
                    .map(v -> new String(Base64.getDecoder().decode(v.toString()), StandardCharsets.UTF_8)).orElse("");
        }
        return "";
    }

    /** A downward-API field of the pod; a missing label or annotation is the empty string, as the kubelet gives it. */
    public static String field(KubeObject pod, String path) {
        Matcher m = FIELD_LABEL.matcher(path);
        if (m.matches()) {
            Map<String, Object> map = m.group(1).equals("labels") ? pod.labels() : pod.annotations();
            Object v = map.get(m.group(2));
            return v == null ? "" : v.toString();
        }
        Object v = switch (path) {
            case "metadata.name" -> pod.name();
            case "metadata.namespace" -> pod.namespace();
            case "metadata.uid" -> pod.at("metadata.uid");
            case "spec.nodeName" -> pod.at("spec.nodeName");
            case "spec.serviceAccountName" -> pod.at("spec.serviceAccountName");
            case "status.podIP" -> pod.at("status.podIP");
            case "status.hostIP" -> pod.at("status.hostIP");
            default -> throw new IllegalArgumentException("unsupported fieldRef " + path + " in pod " + pod.name());
        };
        return v == null ? "" : v.toString();
    }
}
