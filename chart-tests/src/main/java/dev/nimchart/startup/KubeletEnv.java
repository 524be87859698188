package dev.nimchart.startup;

import dev.nimchart.controllers.NamespaceState;
import dev.nimchart.objects.KubeObject;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A container's environment as the kubelet would start it, from the pod as the controllers and webhooks left it, read
 * against k8s.io/kubernetes v1.37.2 pkg/kubelet/kubelet_pods.go (makeEnvironmentVariables, getServiceEnvVarMap) and
 * third_party/forked/golang/expansion: {@code envFrom} first (ConfigMap and Secret keys, with the source's prefix), then
 * {@code env} in order, a later entry of a name replacing an earlier one; {@code $(NAME)} in a value expanded only from
 * the variables defined before it and the Service variables ({@code $$} escapes, an unknown reference stays as written);
 * {@code fieldRef} read from the pod, ConfigMap and Secret keys from the namespace, an {@code optional} reference to a
 * missing object or key leaving the variable unset; last the namespace's Service variables
 * ({@code <NAME>_SERVICE_HOST}, ... as pkg/kubelet/envvars makes them) unless {@code enableServiceLinks: false}, each
 * only where no entry set the name. Not modelled: the {@code kubernetes} Service of the default namespace (its variables
 * are not added), a required reference to a missing object or key (the kubelet would not start the container; here the
 * variable is empty).
 */
public final class KubeletEnv {

    private static final Pattern FIELD_LABEL = Pattern.compile("metadata\\.(labels|annotations)\\['(.+)'\\]");

    private KubeletEnv() {
    }

    public static Map<String, String> of(KubeObject pod, KubeObject container, NamespaceState namespace) {
        Map<String, String> services = Boolean.FALSE.equals(pod.at("spec.enableServiceLinks")) ? Map.of() : serviceVariables(namespace);
        Map<String, String> env = new LinkedHashMap<>();
        for (KubeObject from : container.list("envFrom")) {
            String prefix = from.at("prefix") == null ? "" : from.at("prefix").toString();
            boolean secret = from.at("secretRef") != null;
            String ref = secret ? "secretRef" : "configMapRef";
            Object name = from.at(ref + ".name");
            if (name == null) {
                continue;
            }
            Optional<KubeObject> source = namespace.named(secret ? "Secret" : "ConfigMap", name.toString());
            if (source.isPresent() && source.get().at("data") instanceof Map<?, ?> data) {
                data.forEach((k, v) -> put(env, prefix + k, secret ? decode(v) : String.valueOf(v)));
            }
        }
        for (KubeObject e : container.list("env")) {
            String name = e.at("name").toString();
            String literal = e.at("value") == null ? "" : e.at("value").toString();
            if (!literal.isEmpty() || e.at("valueFrom") == null) {
                Map<String, String> defined = new LinkedHashMap<>(services);
                defined.putAll(env);
                put(env, name, expand(literal, defined));
            } else {
                Optional<String> value = valueFrom(pod, e, namespace);
                if (value.isPresent()) {
                    put(env, name, value.get());
                }
            }
        }
        services.forEach(env::putIfAbsent);
        return env;
    }

    /** A name set again moves to the end, as the last entry of its name (the kubelet's map keeps one value a name). */
    private static void put(Map<String, String> env, String name, String value) {
        env.remove(name);
        env.put(name, value);
    }

    /**
     * The Service variables of the namespace's Services with a cluster IP, as pkg/kubelet/envvars FromServices makes
     * them: {@code <NAME>_SERVICE_HOST}, {@code <NAME>_SERVICE_PORT} (the first port), {@code <NAME>_SERVICE_PORT_<PORT
     * NAME>}, and the Docker-link style {@code <NAME>_PORT}, {@code <NAME>_PORT_<port>_<PROTO>} with its _PROTO, _PORT
     * and _ADDR; NAME upper case with '-' as '_'.
     */
    static Map<String, String> serviceVariables(NamespaceState namespace) {
        Map<String, String> out = new LinkedHashMap<>();
        if (!namespace.reads("Service")) {
            return out;
        }
        for (KubeObject svc : namespace.all("Service")) {
            Object ip = svc.at("spec.clusterIP");
            List<KubeObject> ports = svc.list("spec.ports");
            if (ip == null || ip.toString().isEmpty() || "None".equals(ip) || ports.isEmpty()) {
                continue;
            }
            String name = svc.name().toUpperCase(java.util.Locale.ROOT).replace('-', '_');
            out.put(name + "_SERVICE_HOST", ip.toString());
            out.put(name + "_SERVICE_PORT", String.valueOf(ports.get(0).at("port")));
            for (KubeObject p : ports) {
                if (p.at("name") != null && !p.at("name").toString().isEmpty()) {
                    out.put(name + "_SERVICE_PORT_" + p.at("name").toString().toUpperCase(java.util.Locale.ROOT).replace('-', '_'),
                            String.valueOf(p.at("port")));
                }
            }
            for (int i = 0; i < ports.size(); i++) {
                KubeObject p = ports.get(i);
                String protocol = p.at("protocol") == null ? "TCP" : p.at("protocol").toString();
                String lower = protocol.toLowerCase(java.util.Locale.ROOT);
                String url = lower + "://" + ip + ":" + p.at("port");
                if (i == 0) {
                    out.put(name + "_PORT", url);
                }
                String prefix = name + "_PORT_" + p.at("port") + "_" + protocol.toUpperCase(java.util.Locale.ROOT);
                out.put(prefix, url);
                out.put(prefix + "_PROTO", lower);
                out.put(prefix + "_PORT", String.valueOf(p.at("port")));
                out.put(prefix + "_ADDR", ip.toString());
            }
        }
        return out;
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

    /** A valueFrom entry's value; empty when an optional reference names a missing object or key (left unset). */
    private static Optional<String> valueFrom(KubeObject pod, KubeObject e, NamespaceState namespace) {
        Object fieldPath = e.at("valueFrom.fieldRef.fieldPath");
        if (fieldPath != null) {
            return Optional.of(field(pod, fieldPath.toString()));
        }
        for (String kind : List.of("ConfigMap", "Secret")) {
            String ref = kind.equals("Secret") ? "valueFrom.secretKeyRef" : "valueFrom.configMapKeyRef";
            Object name = e.at(ref + ".name");
            if (name == null) {
                continue;
            }
            boolean optional = Boolean.TRUE.equals(e.at(ref + ".optional"));
            Object value = namespace.named(kind, name.toString()).map(o -> o.at("data[" + e.at(ref + ".key") + "]")).orElse(null);
            if (value == null) {
                return optional ? Optional.empty() : Optional.of("");
            }
            return Optional.of(kind.equals("Secret") ? decode(value) : value.toString());
        }
        return Optional.of("");
    }

    private static String decode(Object base64) {
        return new String(Base64.getDecoder().decode(base64.toString()), StandardCharsets.UTF_8);
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
