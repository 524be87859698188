package dev.nimchart.junit;

import dev.nimchart.settings.Settings;
import dev.nimchart.settings.SettingsFromProperties;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The {@link Settings} of this JUnit run, built once from the test JVM's system properties and environment
 * ({@link SettingsFromProperties}, e.g. {@code -Dnim.cluster}, {@code KUBECONFIG} for the lookup stub): the one place on
 * the JUnit side that builds them, as a command's {@code main} is on the command line's. A test takes them as a
 * {@code Settings} parameter ({@code @ExtendWith(RunSettings.class)}) and passes them on
 * ({@code ChartCheck.of(chart, settings)}); {@code @ExtendWith(ClusterTier.class)} and {@code ControllerTier} start
 * their tiers with them. No class of the library below this package reads a property.
 */
public final class RunSettings implements ParameterResolver {

    /** The run's settings (read on first use; the same value for every test of the JVM). */
    public static Settings get() {
        return SettingsFromProperties.shared();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == Settings.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return get();
    }
}
