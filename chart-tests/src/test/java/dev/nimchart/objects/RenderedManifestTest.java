package dev.nimchart.objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RenderedManifestTest {

    private static final String TWO_CONFIG_MAPS_AND_A_SERVICE = """
            ---
            # Source: demo/templates/a.yaml
            apiVersion: v1
            kind: ConfigMap
            metadata:
              name: a
            ---
            # Source: demo/templates/empty.yaml
            ---
            apiVersion: v1
            kind: ConfigMap
            metadata:
              name: b
            ---
            apiVersion: v1
            kind: Service
            metadata:
              name: svc
            """;

    private final RenderedManifest manifest = RenderedManifest.parse(TWO_CONFIG_MAPS_AND_A_SERVICE);

    @Test
    void emptyDocumentsAreSkipped() {
        assertThat(manifest.objects()).extracting(KubeObject::toString)
                .containsExactly("ConfigMap/a", "ConfigMap/b", "Service/svc");
    }

    @Test
    void findsObjectsByKindAndName() {
        assertThat(manifest.ofKind("ConfigMap")).extracting(KubeObject::name).containsExactly("a", "b");
        assertThat(manifest.one("Service").name()).isEqualTo("svc");
        assertThat(manifest.find("ConfigMap", "b")).isPresent();
        assertThat(manifest.find("ConfigMap", "c")).isEmpty();
    }

    @Test
    void oneListsWhatExistsWhenThereIsNotExactlyOne() {
        assertThatThrownBy(() -> manifest.one("ConfigMap"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("expected exactly one ConfigMap but found 2; the manifest holds [ConfigMap/a, ConfigMap/b, Service/svc]");
        assertThatThrownBy(() -> manifest.one("Deployment")).hasMessageStartingWith("expected exactly one Deployment but found 0");
    }

    @Test
    void duplicateKeyIsRefusedNamingTheDocument() {
        String text = """
                ---
                # Source: demo/templates/ok.yaml
                kind: ConfigMap
                ---
                # Source: demo/templates/statefulset.yaml
                kind: StatefulSet
                metadata:
                  labels:
                    app: x
                    app: y
                """;

        assertThatThrownBy(() -> RenderedManifest.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("document 2 (demo/templates/statefulset.yaml): ")
                .hasMessageContaining("found duplicate key app");
    }

    @Test
    void documentThatIsNotAMappingIsRefused() {
        assertThatThrownBy(() -> RenderedManifest.parse("kind: ConfigMap\n---\n- a\n- b\n"))
                .hasMessage("document 2 is not a YAML mapping");
    }
}
