package dev.nimchart.cluster;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Health endpoints of the tier's own processes on 127.0.0.1: {@code /healthz} or {@code /readyz} answering 200. The
 * controllers serve them over TLS with self-signed certificates of their own, so these probes (loopback only, reading
 * a status code) do not verify the certificate.
 */
public final class HealthProbe {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    private static final HttpClient HTTPS = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1))
            .sslContext(trustAll()).sslParameters(noHostnameCheck()).build();

    private HealthProbe() {
    }

    public static boolean https(int port, String path) {
        return ok(HTTPS, "https://127.0.0.1:" + port + path);
    }

    public static boolean http(int port, String path) {
        return ok(HTTP, "http://127.0.0.1:" + port + path);
    }

    private static boolean ok(HttpClient client, String url) {
        try {
            HttpResponse<Void> r = client.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).GET().build(),
                    HttpResponse.BodyHandlers.discarding());
            return r.statusCode() == 200;
        } catch (java.io.IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static SSLContext trustAll() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new X509TrustManager() {
                @Override
                public void checkClientTrusted(X509Certificate[] chain, String authType) {
                }

                @Override
                public void checkServerTrusted(X509Certificate[] chain, String authType) {
                }

                @Override
                public X509Certificate[] getAcceptedIssuers() {
                    return new X509Certificate[0];
                }
            }}, new SecureRandom());
            return context;
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static SSLParameters noHostnameCheck() {
        SSLParameters parameters = new SSLParameters();
        parameters.setEndpointIdentificationAlgorithm("");
        return parameters;
    }
}
