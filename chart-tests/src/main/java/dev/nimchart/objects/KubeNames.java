package dev.nimchart.objects;

import java.util.regex.Pattern;

/** Syntax rules the API server applies to names, label and annotation keys, and label values (k8s.io/apimachinery/pkg/util/validation). */
public final class KubeNames {

    public static final String DNS1123_LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    public static final String DNS1123_SUBDOMAIN = DNS1123_LABEL + "(\\." + DNS1123_LABEL + ")*";
    /** A DNS-1035 label (Service names): starts with a letter. */
    public static final String DNS1035_LABEL = "[a-z]([-a-z0-9]*[a-z0-9])?";
    private static final String QUALIFIED_NAME_PART = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
    /** Optional DNS-subdomain prefix (at most 253 chars) and '/', then a name part of 1 to 63 chars. */
    public static final String QUALIFIED_NAME = "^((?=[^/]{1,253}/)" + DNS1123_SUBDOMAIN + "/)?(?=[^/]{1,63}$)"
            + QUALIFIED_NAME_PART + "$";
    public static final String LABEL_VALUE = "^(" + QUALIFIED_NAME_PART + ")?$";

    private static final Pattern SUBDOMAIN = Pattern.compile("^" + DNS1123_SUBDOMAIN + "$");
    private static final Pattern DNS1035 = Pattern.compile("^" + DNS1035_LABEL + "$");
    private static final Pattern QUALIFIED = Pattern.compile(QUALIFIED_NAME);
    private static final Pattern VALUE = Pattern.compile(LABEL_VALUE);

    private KubeNames() {
    }

    public static boolean isSubdomain(String name) {
        return name.length() <= 253 && SUBDOMAIN.matcher(name).matches();
    }

    public static boolean isDns1035Label(String name) {
        return name.length() <= 63 && DNS1035.matcher(name).matches();
    }

    /** A label or annotation key. */
    public static boolean isQualifiedName(String key) {
        return QUALIFIED.matcher(key).matches();
    }

    public static boolean isLabelValue(String value) {
        return value.length() <= 63 && VALUE.matcher(value).matches();
    }
}
