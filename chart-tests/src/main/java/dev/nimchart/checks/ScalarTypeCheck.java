package dev.nimchart.checks;

import dev.nimchart.objects.KeyPath;
import com.google.gson.annotations.SerializedName;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.custom.Quantity;
import java.lang.reflect.Field;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.math.BigInteger;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds scalars whose YAML type is not the type the Kubernetes API expects, such as {@code replicas: "3"} or a
 * label value {@code 1.0}. The client-java models coerce these silently (Gson reads "3" as 3 and 1.0 as "1.0");
 * the API server rejects them. Lists, maps and objects of the wrong shape are left to the models' own checks.
 */
final class ScalarTypeCheck {

    private static final String MODEL_PACKAGE = "io.kubernetes.client.openapi.models";

    /** The JSON field names of each model class with their Java types. */
    private static final ClassValue<Map<String, Type>> FIELDS = new ClassValue<>() {
        @Override
        protected Map<String, Type> computeValue(Class<?> model) {
            Map<String, Type> fields = new HashMap<>();
            for (Field field : model.getDeclaredFields()) {
                SerializedName name = field.getAnnotation(SerializedName.class);
                if (name != null) {
                    fields.put(name.value(), field.getGenericType());
                }
            }
            return fields;
        }
    };

    private ScalarTypeCheck() {
    }

    /** One message per mistyped scalar, each starting with its dotted path below {@code path}. */
    static List<String> problems(Object value, Type modelType, String path) {
        List<String> problems = new ArrayList<>();
        check(value, modelType, path, problems);
        return problems;
    }

    private static void check(Object value, Type type, String path, List<String> problems) {
        if (value == null) {
            return;
        }
        if (type instanceof ParameterizedType generic) {
            Type[] arguments = generic.getActualTypeArguments();
            if (value instanceof List<?> list && generic.getRawType() == List.class) {
                for (int i = 0; i < list.size(); i++) {
                    check(list.get(i), arguments[0], KeyPath.element(path, i), problems);
                }
            } else if (value instanceof Map<?, ?> map && generic.getRawType() == Map.class) {
                map.forEach((key, element) -> check(element, arguments[1], KeyPath.child(path, String.valueOf(key)), problems));
            }
            return;
        }
        Class<?> expected = (Class<?>) type;
        if (expected.getPackageName().equals(MODEL_PACKAGE)) {
            if (value instanceof Map<?, ?> map) {
                Map<String, Type> fields = FIELDS.get(expected);
                map.forEach((key, field) -> {
                    if (fields.containsKey(key)) {
                        check(field, fields.get(key), KeyPath.child(path, String.valueOf(key)), problems);
                    }
                });
            }
            return;
        }
        if (value instanceof Map || value instanceof List) {
            return;
        }
        String wanted = wantedScalar(expected, value);
        if (wanted != null) {
            problems.add(path + ": want " + wanted + ", got " + describe(value));
        }
    }

    /** What the API wants instead of {@code value} for a field of this Java type, or null when the value fits. */
    private static String wantedScalar(Class<?> expected, Object value) {
        if (expected == String.class || expected == byte[].class || expected == OffsetDateTime.class) {
            return value instanceof String ? null : "string";
        }
        if (expected == Integer.class || expected == Long.class) {
            return isInteger(value) ? null : "integer";
        }
        if (expected == Double.class || expected == Float.class) {
            return value instanceof Number ? null : "number";
        }
        if (expected == Boolean.class) {
            return value instanceof Boolean ? null : "boolean";
        }
        if (expected == IntOrString.class) {
            return value instanceof String || isInteger(value) ? null : "integer or string";
        }
        if (expected == Quantity.class) {
            return value instanceof String || value instanceof Number ? null : "quantity (string or number)";
        }
        return null;
    }

    private static boolean isInteger(Object value) {
        return value instanceof Integer || value instanceof Long || value instanceof BigInteger;
    }

    private static String describe(Object value) {
        return value instanceof String ? "string \"" + value + "\"" : value.getClass().getSimpleName().toLowerCase() + " " + value;
    }
}
