package dev.nimchart.junit;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Hands a test (a {@code @TestFactory} of the library's door) the {@link TierSessions} of this JUnit run, kept in its
 * launcher session's store: {@code ChartCheck.on(tiers).controllerTests()} then shares one environment per tier with every class of
 * the run, and JUnit closes them when it ends. Nothing starts until a test needs it.
 */
public final class ChartTiers implements ParameterResolver {

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == TierSessions.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return TierSessions.of(context);
    }
}
