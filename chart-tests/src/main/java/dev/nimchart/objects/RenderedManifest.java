package dev.nimchart.objects;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.yaml.snakeyaml.error.YAMLException;

/** The objects of a multi-document manifest such as {@code helm template} prints. */
public final class RenderedManifest {

    private static final Pattern DOCUMENT_SEPARATOR = Pattern.compile("(?m)^---[ \\t]*$");
    private static final Pattern SOURCE_COMMENT = Pattern.compile("(?m)^# Source: (.+)$");

    private final String text;
    private final List<KubeObject> objects;

    private RenderedManifest(String text, List<KubeObject> objects) {
        this.text = text;
        this.objects = List.copyOf(objects);
    }

    /** Parses every non-empty document; a duplicate key or a document that is not a mapping is an error naming it. */
    @SuppressWarnings("unchecked")
    public static RenderedManifest parse(String text) {
        List<KubeObject> objects = new ArrayList<>();
        String[] documents = DOCUMENT_SEPARATOR.split(text);
        // Helm starts its output with "---": the blank text before it is no document.
        int firstNumber = documents[0].isBlank() ? 0 : 1;
        for (int i = 0; i < documents.length; i++) {
            Object document;
            try {
                document = StrictYaml.loader().load(documents[i]);
            } catch (YAMLException e) {
                throw new IllegalArgumentException(describe(documents[i], firstNumber + i) + ": " + e.getMessage(), e);
            }
            if (document instanceof Map) {
                objects.add(new KubeObject((Map<String, Object>) document));
            } else if (document != null) {
                throw new IllegalArgumentException(describe(documents[i], firstNumber + i) + " is not a YAML mapping");
            }
        }
        return new RenderedManifest(text, objects);
    }

    /** Objects from elsewhere (read back from an API server, say) in the same shape; the text is their JSON lines. */
    public static RenderedManifest of(List<KubeObject> objects) {
        return new RenderedManifest(objects.stream().map(KubeObject::toJson).collect(Collectors.joining("\n---\n")), objects);
    }

    public List<KubeObject> objects() {
        return objects;
    }

    public List<KubeObject> ofKind(String kind) {
        return objects.stream().filter(o -> kind.equals(o.kind())).toList();
    }

    /** The only object of this kind; an error listing the objects there are when there is not exactly one. */
    public KubeObject one(String kind) {
        List<KubeObject> matches = ofKind(kind);
        if (matches.size() != 1) {
            throw new IllegalStateException("expected exactly one " + kind + " but found " + matches.size()
                    + "; the manifest holds " + objects.stream().map(KubeObject::toString).collect(Collectors.joining(", ", "[", "]")));
        }
        return matches.get(0);
    }

    public Optional<KubeObject> find(String kind, String name) {
        return ofKind(kind).stream().filter(o -> name.equals(o.name())).findFirst();
    }

    /** The manifest text as rendered. */
    public String text() {
        return text;
    }

    private static String describe(String document, int number) {
        Matcher source = SOURCE_COMMENT.matcher(document);
        return "document " + number + (source.find() ? " (" + source.group(1).trim() + ")" : "");
    }
}
