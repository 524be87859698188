package dev.nimchart.objects;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.representer.Representer;

/** SnakeYAML set up to read YAML the way Helm does, except that a duplicate key is an error. */
public final class StrictYaml {

    private StrictYaml() {
    }

    /** A new loader (SnakeYAML's {@link Yaml} is not thread-safe). */
    public static Yaml loader() {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        DumperOptions dumperOptions = new DumperOptions();
        return new Yaml(new HelmScalars(options), new Representer(dumperOptions), dumperOptions, options);
    }

    /** Go's YAML library (used by Helm) reads an unquoted timestamp as a string, not a date. */
    private static final class HelmScalars extends SafeConstructor {
        HelmScalars(LoaderOptions options) {
            super(options);
            yamlConstructors.put(Tag.TIMESTAMP, new ConstructYamlStr());
        }
    }
}
