package dev.nimchart.objects;

import java.util.ArrayList;
import java.util.List;

/** The dotted key-path syntax shared by the harness: {@code a.b[0][key.with.dots]}. */
public final class KeyPath {

    private KeyPath() {
    }

    /** Splits a path into its keys and list indexes; a bracketed segment may contain dots. */
    static List<String> segments(String path) {
        List<String> segments = new ArrayList<>();
        int i = 0;
        while (i < path.length()) {
            char c = path.charAt(i);
            if (c == '.') {
                i++;
            } else if (c == '[') {
                int close = path.indexOf(']', i);
                if (close < 0) {
                    throw new IllegalArgumentException("unclosed '[' in path: " + path);
                }
                segments.add(path.substring(i + 1, close));
                i = close + 1;
            } else {
                int end = i;
                while (end < path.length() && path.charAt(end) != '.' && path.charAt(end) != '[') {
                    end++;
                }
                segments.add(path.substring(i, end));
                i = end;
            }
        }
        return segments;
    }

    /** The path of {@code key} inside the map at {@code parent} ("" is the root). */
    public static String child(String parent, String key) {
        if (key.contains(".") || key.contains("[")) {
            return parent + "[" + key + "]";
        }
        return parent.isEmpty() ? key : parent + "." + key;
    }

    /** A JSON pointer such as {@code /resources/limits/nvidia.com~1gpu} as a path; the root is "(root)". */
    public static String fromJsonPointer(String pointer) {
        String path = "";
        if (!pointer.isEmpty()) {
            for (String raw : pointer.substring(1).split("/", -1)) {
                String segment = raw.replace("~1", "/").replace("~0", "~");
                path = segment.matches("\\d+") ? element(path, Integer.parseInt(segment)) : child(path, segment);
            }
        }
        return path.isEmpty() ? "(root)" : path;
    }

    /** The path of element {@code index} of the list at {@code parent}. */
    public static String element(String parent, int index) {
        return parent + "[" + index + "]";
    }
}
