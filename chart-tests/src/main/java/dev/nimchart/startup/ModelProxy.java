package dev.nimchart.startup;

import dev.nimchart.cluster.BinaryAssets;
import dev.nimchart.settings.Settings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A real forward proxy and an HTTPS model hub behind it, on a {@link PodGroupRun}'s network, for the start-up tier's
 * proxy checks: Debian's tinyproxy (pinned; {@code ci/install-model-proxy.sh} installs it) in a network namespace of its
 * own on the pods' bridge at {@link #PROXY_IP}:{@link #PROXY_PORT}, and a Hugging Face hub stand-in
 * ({@code model-hub.py}) in one more namespace that only the proxy's namespace reaches ({@link #HUB_NET}: the pods
 * have no route there, so a download reaches the hub through the proxy or not at all). The hub's certificate is signed
 * by a CA this class makes (openssl) for the run; the hub's name resolves in the proxy's namespace only (its
 * /etc/hosts, bound by {@code ip netns exec} from /etc/netns/NAME/hosts). tinyproxy logs every request it serves at level
 * Info (a CONNECT tunnel as {@code CONNECT host:443}, a plain request with its URL) in {@link #proxyLog()}.
 */
public final class ModelProxy implements AutoCloseable {

    /** The proxy's address on the pods' network (the top of the tier's 198.18.0.0/17, which pods are not given). */
    public static final String PROXY_IP = "198.18.127.250";
    public static final int PROXY_PORT = 3128;
    /** The link between the proxy's and the hub's namespaces: outside the pods' 198.18.0.0/17. */
    public static final String HUB_NET = "198.18.200.0/24";
    static final String PROXY_SIDE = "198.18.200.1";
    static final String HUB_IP = "198.18.200.2";

    private final Path dir;
    private final List<Process> processes = new ArrayList<>();
    private final List<String> namespaces = new ArrayList<>();
    private Path etcNetns;
    private String caPem;

    private ModelProxy(Path dir) {
        this.dir = dir;
    }

    /**
     * Empty when this machine can run the proxy (the settings' builder installs the pinned tinyproxy and openssl when
     * missing: this repository's {@code ci/install-model-proxy.sh}), else why not.
     */
    public static Optional<String> unavailableReason(Settings settings) {
        try {
            BinaryAssets.of(settings).modelProxyTools(line -> { });
            return Optional.empty();
        } catch (RuntimeException e) {
            return Optional.of(e.getMessage());
        }
    }

    /**
     * Starts the proxy on the group's network and the hub serving one repository ({@code repo}, e.g. org/name) with the
     * given files, under the host name {@code hubName}, with a certificate for that name signed by this run's CA.
     * Call it before starting the pods that use it.
     */
    public static ModelProxy start(PodGroupRun group, Path dir, String hubName, String repo, Map<String, byte[]> files) {
        ModelProxy proxy = new ModelProxy(dir);
        try {
            if (!Files.exists(dir.resolve("hub.crt"))) {
                certificates(dir, hubName);
            }
            proxy.caPem = Files.readString(dir.resolve("ca.crt"));
            Files.deleteIfExists(dir.resolve("proxy.log")); // what this run's proxy and hub log, nothing of an earlier run
            Files.deleteIfExists(dir.resolve("hub.log"));
            Path repoFiles = Files.createDirectories(dir.resolve("hub-files"));
            for (Map.Entry<String, byte[]> f : files.entrySet()) {
                Files.write(repoFiles.resolve(f.getKey()), f.getValue());
            }
            String proxyNs = group.attachNamespace("x", PROXY_IP + "/17");
            String hubNs = proxyNs + "h";
            StartupHost.must(List.of("ip", "netns", "add", hubNs));
            proxy.namespaces.add(hubNs);
            StartupHost.must(List.of("ip", "link", "add", "eth1", "netns", proxyNs, "type", "veth", "peer", "name", "eth0", "netns", hubNs));
            StartupHost.must(List.of("ip", "-n", proxyNs, "addr", "add", PROXY_SIDE + "/24", "dev", "eth1"));
            StartupHost.must(List.of("ip", "-n", proxyNs, "link", "set", "eth1", "up"));
            StartupHost.must(List.of("ip", "-n", hubNs, "addr", "add", HUB_IP + "/24", "dev", "eth0"));
            StartupHost.must(List.of("ip", "-n", hubNs, "link", "set", "eth0", "up"));
            StartupHost.must(List.of("ip", "-n", hubNs, "link", "set", "lo", "up"));
            // The hub's name, in the proxy's namespace only (ip netns exec binds /etc/netns/NAME/hosts on /etc/hosts).
            proxy.etcNetns = Files.createDirectories(Path.of("/etc/netns", proxyNs));
            Files.writeString(proxy.etcNetns.resolve("hosts"), "127.0.0.1\tlocalhost\n" + HUB_IP + "\t" + hubName + "\n");

            Path hub = StartupResources.copy("model-hub.py", dir.resolve("model-hub.py"));
            proxy.processes.add(new ProcessBuilder("ip", "netns", "exec", hubNs, "/usr/bin/python3", hub.toString(), "--listen", HUB_IP, "--port", "443",
                    "--cert", dir.resolve("hub.crt").toString(), "--key", dir.resolve("hub.key").toString(), "--repo", repo, "--files",
                    repoFiles.toString(), "--log", dir.resolve("hub.log").toString())
                    .redirectErrorStream(true).redirectOutput(dir.resolve("hub.out").toFile()).start());
            Files.writeString(dir.resolve("tinyproxy.conf"), String.join("\n",
                    "Port " + PROXY_PORT,
                    "Listen " + PROXY_IP,
                    "Timeout 60",
                    "LogFile \"" + dir.resolve("proxy.log") + "\"",
                    "LogLevel Info",
                    "MaxClients 32",
                    "Allow 198.18.0.0/17",
                    "ConnectPort 443",
                    "ViaProxyName \"nim-llm-test-proxy\"", ""));
            proxy.processes.add(new ProcessBuilder("ip", "netns", "exec", proxyNs, "tinyproxy", "-d", "-c", dir.resolve("tinyproxy.conf").toString())
                    .redirectErrorStream(true).redirectOutput(dir.resolve("proxy.out").toFile()).start());
            proxy.awaitListening(proxyNs, PROXY_IP, PROXY_PORT, "tinyproxy", dir.resolve("proxy.out"));
            proxy.awaitListening(proxyNs, HUB_IP, 443, "the model hub", dir.resolve("hub.out"));
            return proxy;
        } catch (IOException | RuntimeException e) {
            proxy.close();
            throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
        }
    }

    /** The CA that signed the hub's certificate, PEM (what the chart's CA bundle must hold). */
    public String caPem() {
        return caPem;
    }

    /** tinyproxy's log so far. */
    public String proxyLog() {
        return read(dir.resolve("proxy.log"));
    }

    /** The requests the hub answered so far, one a line: METHOD PATH STATUS token=yes|no. */
    public String hubLog() {
        return read(dir.resolve("hub.log"));
    }

    /** The request lines tinyproxy logged (CONNECT host:port, or METHOD URL), in order. */
    public List<String> proxiedRequests() {
        List<String> out = new ArrayList<>();
        for (String line : proxyLog().split("\n")) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("Request \\(file descriptor \\d+\\): (\\S+ \\S+)").matcher(line);
            if (m.find()) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    /**
     * Makes this run's CA and the hub's key and certificate (for {@code hubName}, signed by the CA) in {@code dir}, and
     * returns the CA's certificate, PEM: call it first when the pods' objects (a Secret or ConfigMap with the CA bundle)
     * must exist before the group starts; {@link #start} then uses them.
     */
    public static String certificates(Path dir, String hubName) throws IOException {
        Files.createDirectories(dir);
        Path ca = dir.resolve("ca.crt");
        StartupHost.must(List.of("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=nim-llm start-up tier test CA",
                "-keyout", dir.resolve("ca.key").toString(), "-out", ca.toString()));
        StartupHost.must(List.of("openssl", "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=" + hubName, "-keyout", dir.resolve("hub.key").toString(),
                "-out", dir.resolve("hub.csr").toString()));
        Files.writeString(dir.resolve("hub.ext"), "subjectAltName=DNS:" + hubName + "\nextendedKeyUsage=serverAuth\n");
        StartupHost.must(List.of("openssl", "x509", "-req", "-in", dir.resolve("hub.csr").toString(), "-CA", ca.toString(), "-CAkey",
                dir.resolve("ca.key").toString(), "-CAcreateserial", "-days", "2", "-extfile", dir.resolve("hub.ext").toString(), "-out",
                dir.resolve("hub.crt").toString()));
        return Files.readString(ca);
    }

    private void awaitListening(String netns, String ip, int port, String what, Path output) {
        if (dev.nimchart.cluster.Poll.upTo(java.time.Duration.ofSeconds(20)).until(() -> StartupHost.run(List.of("ip", "netns", "exec", netns,
                "bash", "-c", "exec 3<>\"/dev/tcp/$1/$2\"", "probe", ip, Integer.toString(port)), 5).exit() == 0)) {
            return;
        }
        throw new IllegalStateException(what + " does not listen on " + ip + ":" + port + " within 20 s: " + read(output));
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        for (Process p : processes) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        for (Process p : processes) {
            try {
                p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        namespaces.forEach(ns -> StartupHost.run(List.of("ip", "netns", "delete", ns), 30));
        if (etcNetns != null) {
            try {
                Files.deleteIfExists(etcNetns.resolve("hosts"));
                Files.deleteIfExists(etcNetns);
            } catch (IOException e) {
                // left for the next run's cleanup; it names nothing outside this run
            }
        }
    }
}
