package dev.nimchart.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * CNCF distribution's OCI registry (the {@code registry} binary ci/build-tools.sh builds from its Go module) as a local
 * process: loopback only, a free port, TLS with a certificate of the tier's certificate authority, storage in a
 * directory of the run. Charts are pushed to and installed from {@code oci://127.0.0.1:<port>/...}.
 *
 * @param process the registry's process
 * @param port    its port on 127.0.0.1
 */
public record OciRegistryProcess(LocalProcess process, int port) implements AutoCloseable {

    /** Starts the registry and returns it once it answers {@code /v2/} over TLS. */
    public static OciRegistryProcess start(Path binary, Pki pki, Path runDir) {
        int port = FreePort.take();
        try {
            Files.createDirectories(runDir);
            Path cert = pki.serverCertificate("oci-registry", List.of("127.0.0.1"), List.of("localhost"));
            Path config = runDir.resolve("registry.yml");
            Files.writeString(config, """
                    version: 0.1
                    log:
                      level: warn
                    storage:
                      filesystem:
                        rootdirectory: %s
                      delete:
                        enabled: true
                    http:
                      addr: 127.0.0.1:%d
                      tls:
                        certificate: %s
                        key: %s
                    """.formatted(runDir.resolve("storage"), port, cert, pki.file("oci-registry.key")));
            LocalProcess registry = LocalProcess.start("oci-registry", List.of(binary.toString(), "serve", config.toString()),
                    Map.of("OTEL_TRACES_EXPORTER", "none"), runDir.resolve("logs"));
            registry.awaitReady("/v2/ answering over TLS", () -> HealthProbe.https(port, "/v2/"), Duration.ofSeconds(30));
            return new OciRegistryProcess(registry, port);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the OCI registry in " + runDir, e);
        }
    }

    /** host:port, as oci:// references name it. */
    public String address() {
        return "127.0.0.1:" + port;
    }

    public String tail() {
        return process.tail();
    }

    @Override
    public void close() {
        process.close();
    }
}
