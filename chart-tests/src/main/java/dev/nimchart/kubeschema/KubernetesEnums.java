package dev.nimchart.kubeschema;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The allowed values of Kubernetes' enum fields ({@code // +enum} string types such as TolerationOperator,
 * PullPolicy or the HPA's MetricSourceType), as the API's own generated OpenAPI definitions list them
 * ({@code pkg/generated/openapi/zz_generated.openapi.go} of k8s.io/kubernetes, {@code Enum: []interface{}{...}}). The
 * OpenAPI v3 documents checked into the same module are written without them, so they are read from here.
 *
 * <p>Keyed by OpenAPI component name ({@code io.k8s.api.core.v1.Toleration}), then property; a property of array type
 * whose items are the enum is marked {@link #ITEMS} ({@code accessModes[]}).
 */
public final class KubernetesEnums {

    /** Suffix of a property name whose array items (not the property itself) take the enum values. */
    public static final String ITEMS = "[]";

    private static final Pattern REGISTRATION = Pattern.compile("^\\s*\"([^\"]+)\":\\s+(schema_\\w+)\\(ref\\),$");
    private static final Pattern FUNCTION = Pattern.compile("^func (schema_\\w+)\\(");
    private static final Pattern PROPERTY = Pattern.compile("^(\\t+)\"(\\w+)\": \\{$");
    private static final Pattern ENUM = Pattern.compile("^(\\t+)Enum:\\s+\\[\\]interface\\{\\}\\{(.*)\\},$");
    private static final Pattern VALUE = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");

    private final Map<String, Map<String, List<String>>> byComponent;

    private KubernetesEnums(Map<String, Map<String, List<String>>> byComponent) {
        this.byComponent = byComponent;
    }

    public static KubernetesEnums none() {
        return new KubernetesEnums(Map.of());
    }

    /** Reads the enums of a generated OpenAPI definitions file. */
    public static KubernetesEnums read(Path generatedGo) {
        List<String> lines;
        try {
            lines = Files.readAllLines(generatedGo);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + generatedGo, e);
        }
        Map<String, String> componentOf = new HashMap<>();
        for (String line : lines) {
            Matcher r = REGISTRATION.matcher(line);
            if (r.matches()) {
                componentOf.put(r.group(2), componentName(r.group(1)));
            }
        }
        if (componentOf.isEmpty()) {
            throw new IllegalArgumentException(generatedGo + " registers no OpenAPI definitions (schema_...(ref))");
        }
        Map<String, Map<String, List<String>>> out = new TreeMap<>();
        String component = null;
        String property = null;
        int propertyIndent = -1;
        boolean items = false;
        for (String line : lines) {
            Matcher f = FUNCTION.matcher(line);
            if (f.find()) {
                component = componentOf.get(f.group(1));
                property = null;
                continue;
            }
            if (component == null) {
                continue;
            }
            Matcher p = PROPERTY.matcher(line);
            if (p.matches() && (property == null || p.group(1).length() <= propertyIndent)) {
                property = p.group(2);
                propertyIndent = p.group(1).length();
                items = false;
                continue;
            }
            if (property != null && line.trim().startsWith("Items:")) {
                items = true;
            }
            Matcher e = ENUM.matcher(line);
            if (e.matches() && property != null && e.group(1).length() > propertyIndent) {
                List<String> values = new ArrayList<>();
                Matcher v = VALUE.matcher(e.group(2));
                while (v.find()) {
                    values.add(v.group(1).replace("\\\"", "\"").replace("\\\\", "\\"));
                }
                out.computeIfAbsent(component, c -> new TreeMap<>()).put(property + (items ? ITEMS : ""), List.copyOf(values));
            }
        }
        return new KubernetesEnums(out);
    }

    /** {@code k8s.io/api/core/v1.Toleration} is the component {@code io.k8s.api.core.v1.Toleration}. */
    static String componentName(String goName) {
        int slash = goName.indexOf('/');
        String host = goName.substring(0, slash);
        List<String> labels = new ArrayList<>(List.of(host.split("\\.")));
        java.util.Collections.reverse(labels);
        return String.join(".", labels) + "." + goName.substring(slash + 1).replace('/', '.');
    }

    /** Property (or {@code property[]}) to allowed values, for one component; empty when it has no enum field. */
    public Map<String, List<String>> of(String component) {
        return byComponent.getOrDefault(component, Map.of());
    }

    public int components() {
        return byComponent.size();
    }
}
