package dev.nimchart.junit;

import dev.nimchart.cluster.ClusterSession;
import dev.nimchart.sessions.ControllerSession;
import dev.nimchart.sessions.Started;
import dev.nimchart.sessions.TierSessions;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Hands a test (a {@code @TestFactory} of the library's door) the {@link TierSessions} of this JUnit run, kept in its
 * launcher session's store: {@code DynamicChecks.of(check.withSessions(tiers).tierTests(Tier.CONTROLLERS))} then shares one
 * environment per tier with every class of the run, and JUnit closes them when it ends. Nothing starts until a test
 * needs it.
 */
public final class ChartTiers implements ParameterResolver {

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == TierSessions.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return sessions(context);
    }

    /** The environments of this JUnit run, kept in its launcher session's store and shared with {@code @ExtendWith(ClusterTier.class)} classes. */
    public static TierSessions sessions(ExtensionContext context) {
        return new TierSessions() {
            @Override
            public Started<ClusterSession> apiServer() {
                return new ClusterTier().started(context);
            }

            @Override
            public Started<ControllerSession> controllers() {
                return new ControllerTier().started(context);
            }
        };
    }
}
