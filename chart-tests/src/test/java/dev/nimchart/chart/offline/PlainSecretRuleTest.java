package dev.nimchart.chart.offline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.nimchart.chart.repository.Examples;
import dev.nimchart.render.ChartRefusedException;
import dev.nimchart.render.ChartUnderTest;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The preflight's plain-text secret rule, on the names it must catch and on ordinary NIM variables it must leave. */
class PlainSecretRuleTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"NGC_API_KEY", "HF_TOKEN", "hf_token", "AWS_SECRET_ACCESS_KEY", "aws_access_key_id_secret",
            "OPENAI_APIKEY", "REDIS_PASS", "DB_PASSWORD", "SMTP_PASSWD", "GITHUB_TOKEN_READONLY", "SSH_PRIVATE_KEY",
            "GOOGLE_APPLICATION_CREDENTIALS", "Token", "SECRET", "OPENAI_KEY", "SSH_KEY", "anthropic_key", "SECRET_KEY_BASE", "DB_PASSWORD_2"})
    void aSecretLikeNameWithALiteralValueIsRefusedInEveryContainer(String name) {
        for (String prefix : new String[] {"env[0]", "initContainers.extraInit[0].env[0]"}) {
            ChartRefusedException refusal = catchThrowableOfType(ChartRefusedException.class,
                    () -> ChartUnderTest.render(Examples.named("single-node-minimal.yaml"), set(prefix, name)));
            assertThat(refusal).as("%s=%s must be refused", prefix, name).isNotNull();
            assertThat(refusal.getMessage()).contains(prefix + ".value sets " + name + " in plain text");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"NIM_MAX_MODEL_LEN", "NIM_MAX_NUM_BATCHED_TOKENS", "NIM_TOKENIZER_MODE", "NCCL_IB_HCA",
            "NIM_ENABLE_PASSTHROUGH", "NIM_KV_CACHE_PERCENT", "KEYRING_BACKEND", "NIM_PEFT_SOURCE", "NIM_SSL_KEY_PATH", "HF_TOKEN_FILE",
            "MONKEY_PATCH", "NIM_MAX_NUM_BATCHED_TOKENS"})
    void anOrdinaryVariableIsNotTakenForASecret(String name) {
        for (String prefix : new String[] {"env[0]", "initContainers.extraInit[0].env[0]"}) {
            assertThatCode(() -> ChartUnderTest.render(Examples.named("single-node-minimal.yaml"), set(prefix, name)))
                    .as("%s=%s", prefix, name).doesNotThrowAnyException();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"$(NGC_API_KEY)", "--key=$(HF_TOKEN)", "$$$(OPENAI_KEY)", "x $(MODELSCOPE_API_TOKEN) y"})
    void aSecretExpandedIntoArgumentsIsRefused(String arg) {
        ChartRefusedException refusal = catchThrowableOfType(ChartRefusedException.class,
                () -> ChartUnderTest.render(Examples.named("single-node-minimal.yaml"), Map.of("customArgs[0]", arg)));
        assertThat(refusal).as("customArgs[0]=%s must be refused", arg).isNotNull();
        assertThat(refusal.getMessage()).contains("customArgs[0] expands $(").contains("a secret, into the process's arguments");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"$$(NGC_API_KEY)", "$(NIM_MAX_MODEL_LEN)", "$(NIM_SSL_KEY_PATH)", "NGC_API_KEY"})
    void anEscapedOrOrdinaryExpansionIsNotRefused(String arg) {
        assertThatCode(() -> ChartUnderTest.render(Examples.named("single-node-minimal.yaml"), Map.of("customArgs[0]", arg)))
                .as("customArgs[0]=%s", arg).doesNotThrowAnyException();
    }

    private static Map<String, String> set(String prefix, String name) {
        return prefix.startsWith("env")
                ? Map.of(prefix + ".name", name, prefix + ".value", "x")
                : Map.of("initContainers.extraInit[0].name", "init", "initContainers.extraInit[0].image", "busybox:1.37",
                        prefix + ".name", name, prefix + ".value", "x");
    }
}
