package dev.nimchart.chart.repository;

import java.net.URISyntaxException;
import java.nio.file.Path;

/** Files the tests keep beside their classes (src/test/resources), as paths. */
public final class TestResources {

    private TestResources() {
    }

    /** The resource {@code name}, relative to {@code owner}'s package unless it starts with a slash. */
    public static Path path(Class<?> owner, String name) {
        try {
            return Path.of(owner.getResource(name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
