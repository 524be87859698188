package dev.nimchart.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

/** Loopback TCP ports free at the moment of asking, never the same one twice in a JVM (other programs share the machine). */
public final class FreePort {

    private static final Set<Integer> HANDED_OUT = new HashSet<>();

    private FreePort() {
    }

    public static synchronized int take() {
        for (int attempt = 0; attempt < 50; attempt++) {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                int port = socket.getLocalPort();
                if (HANDED_OUT.add(port)) {
                    return port;
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot find a free loopback port", e);
            }
        }
        throw new IllegalStateException("no new free loopback port after 50 attempts");
    }

    /** Whether something listens on this loopback port now. */
    public static boolean listening(int port) {
        try (java.net.Socket s = new java.net.Socket()) {
            s.connect(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
