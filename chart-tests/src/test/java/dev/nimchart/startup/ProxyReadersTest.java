package dev.nimchart.startup;

import static dev.nimchart.startup.ProxyReaders.CURL;
import static dev.nimchart.startup.ProxyReaders.PYTHON_REQUESTS;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ProxyReadersTest {

    private static final String PROXY = "http://proxy.corp.example:3128";

    @Test
    void aLowerCaseNoProxyWinsForRequestsAndCurlAlike() {
        // The chart's NO_PROXY lists the release's Services; a user's no_proxy replaces it for both clients.
        Map<String, String> env = Map.of("HTTP_PROXY", PROXY, "http_proxy", PROXY, "NO_PROXY", "localhost,.svc,nim-llm",
                "no_proxy", ".corp.example");
        assertThat(PYTHON_REQUESTS.proxyFor(env, "http", "nim-llm")).contains(PROXY);
        assertThat(CURL.proxyFor(env, "http", "nim-llm")).contains(PROXY);
        assertThat(PYTHON_REQUESTS.proxyFor(Map.of("HTTP_PROXY", PROXY, "NO_PROXY", "localhost,.svc,nim-llm"), "http", "nim-llm")).isEmpty();
    }

    @Test
    void curlReadsHttpProxyOnlyInLowerCaseAndRequestsInEither() {
        Map<String, String> upper = Map.of("HTTP_PROXY", PROXY);
        assertThat(CURL.proxyFor(upper, "http", "example.com")).isEmpty();
        assertThat(PYTHON_REQUESTS.proxyFor(upper, "http", "example.com")).contains(PROXY);
        assertThat(CURL.proxyFor(Map.of("HTTPS_PROXY", PROXY), "https", "example.com")).contains(PROXY);
        assertThat(PYTHON_REQUESTS.proxyFor(Map.of("HTTP_PROXY", PROXY, "REQUEST_METHOD", "GET"), "http", "example.com")).isEmpty();
    }

    @Test
    void suffixesAndCidrsAreMatchedAsEachClientMatchesThem() {
        Map<String, String> env = Map.of("https_proxy", PROXY, "no_proxy", ".svc, 198.18.0.0/17,cluster.local,localhost");
        for (ProxyReaders reader : ProxyReaders.values()) {
            assertThat(reader.proxyFor(env, "https", "nim.ns.svc")).as(reader.name()).isEmpty();
            assertThat(reader.proxyFor(env, "https", "198.18.3.4")).as(reader.name()).isEmpty();
            assertThat(reader.proxyFor(env, "https", "198.18.200.4")).as(reader.name()).contains(PROXY);
            assertThat(reader.proxyFor(env, "https", "a.cluster.local")).as(reader.name()).isEmpty();
            assertThat(reader.proxyFor(env, "https", "localhost")).as(reader.name()).isEmpty();
            assertThat(reader.proxyFor(env, "https", "huggingface.co")).as(reader.name()).contains(PROXY);
        }
        // requests compares bare suffixes; curl wants a dot before the suffix.
        Map<String, String> bare = Map.of("https_proxy", PROXY, "no_proxy", "svc");
        assertThat(PYTHON_REQUESTS.proxyFor(bare, "https", "nimsvc")).isEmpty();
        assertThat(CURL.proxyFor(bare, "https", "nimsvc")).contains(PROXY);
        assertThat(CURL.proxyFor(Map.of("https_proxy", PROXY, "no_proxy", "*"), "https", "any")).isEmpty();
    }
}
