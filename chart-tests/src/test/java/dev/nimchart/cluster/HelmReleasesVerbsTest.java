package dev.nimchart.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nimchart.render.Release;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One vocabulary for a release: every public verb of {@link HelmReleases} (install, upgrade, test, roll back, uninstall)
 * takes the {@link Release} value first, so no caller speaks Helm positionally (name, namespace, files, sets) again.
 */
class HelmReleasesVerbsTest {

    @Test
    void everyPublicVerbTakesTheReleaseValueFirst() {
        List<Method> verbs = Arrays.stream(HelmReleases.class.getDeclaredMethods())
                .filter(m -> Modifier.isPublic(m.getModifiers()) && !Modifier.isStatic(m.getModifiers()) && !m.isSynthetic())
                .toList();
        assertThat(verbs).as("HelmReleases' public verbs").extracting(Method::getName)
                .contains("install", "installWithoutHooks", "installWithCli", "test", "upgrade", "rollback", "uninstall");
        assertThat(verbs).as("HelmReleases' public verbs take a Release first (build one: Release.of(chart, name, namespace, files))")
                .allSatisfy(m -> assertThat(m.getParameterCount() > 0 ? m.getParameterTypes()[0] : null).as(m.toGenericString())
                        .isEqualTo(Release.class));
    }
}
