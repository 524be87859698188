package dev.nimchart.cluster;

import dev.nimchart.objects.KubeObject;
import io.kubernetes.client.custom.Quantity;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Compares an object as Helm applied it with the object as the API server stored it: every applied field must be
 * stored with the same value. The server may add fields (defaults, status, metadata) but must not drop one (CRD
 * pruning of an unknown field, say) or change one. Equal means: numbers by value, quantities by value ("1Gi" and
 * "1024Mi"), a Secret's stringData by its base64 data, and an applied zero value (false, 0, "", an empty map or
 * list) may be absent, as Go's omitempty stores it.
 */
public final class StoredObjectCheck {

    private StoredObjectCheck() {
    }

    /** Each difference as "path: applied X, stored Y"; empty when the stored object holds everything applied. */
    public static List<String> differences(KubeObject applied, KubeObject stored) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Object> e : applied.raw().entrySet()) {
            if (applied.kind().equals("Secret") && e.getKey().equals("stringData") && e.getValue() instanceof Map<?, ?> data) {
                compareStringData(data, stored.at("data"), out);
            } else {
                compare(e.getKey(), e.getValue(), stored.raw().get(e.getKey()), out);
            }
        }
        return out;
    }

    private static void compare(String path, Object applied, Object stored, List<String> out) {
        if (applied == null || isZeroValue(applied) && stored == null) {
            return;
        }
        if (applied instanceof Map<?, ?> a) {
            if (!(stored instanceof Map<?, ?> s)) {
                out.add(path + ": applied " + applied + ", stored " + stored);
                return;
            }
            a.forEach((k, v) -> compare(path + "." + k, v, s.get(k), out));
        } else if (applied instanceof List<?> a) {
            if (!(stored instanceof List<?> s) || s.size() != a.size()) {
                out.add(path + ": applied " + applied + ", stored " + stored);
                return;
            }
            for (int i = 0; i < a.size(); i++) {
                compare(path + "[" + i + "]", a.get(i), s.get(i), out);
            }
        } else if (!sameScalar(applied, stored)) {
            out.add(path + ": applied " + applied + ", stored " + stored);
        }
    }

    private static void compareStringData(Map<?, ?> applied, Object storedData, List<String> out) {
        Map<?, ?> data = storedData instanceof Map<?, ?> m ? m : Map.of();
        applied.forEach((k, v) -> {
            Object encoded = data.get(k);
            String decoded = encoded == null ? null : new String(Base64.getDecoder().decode(encoded.toString()), StandardCharsets.UTF_8);
            if (!Objects.equals(String.valueOf(v), decoded)) {
                out.add("stringData." + k + ": applied and stored values differ");
            }
        });
    }

    /** Whether two scalars are equal as the API means them: numbers and quantities by value. */
    public static boolean sameScalar(Object applied, Object stored) {
        if (applied instanceof Number a && stored instanceof Number s) {
            return new java.math.BigDecimal(a.toString()).compareTo(new java.math.BigDecimal(s.toString())) == 0;
        }
        if (Objects.equals(applied, stored)) {
            return true;
        }
        // A resource quantity applied as a YAML number (nvidia.com/gpu: 8) is stored as the string "8".
        return (applied instanceof String || applied instanceof Number) && stored instanceof String s
                && sameQuantity(applied.toString(), s);
    }

    private static boolean sameQuantity(String a, String b) {
        try {
            return new Quantity(a).getNumber().compareTo(new Quantity(b).getNumber()) == 0;
        } catch (RuntimeException notQuantities) {
            return false;
        }
    }

    /** What Go's omitempty leaves out of a built-in object as stored: false, 0, "", empty maps and lists. */
    private static boolean isZeroValue(Object o) {
        return o instanceof Map<?, ?> m && m.isEmpty() || o instanceof List<?> l && l.isEmpty() || Boolean.FALSE.equals(o)
                || o instanceof Number n && n.doubleValue() == 0 || "".equals(o);
    }
}
