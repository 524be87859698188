package dev.nimchart.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;

/**
 * Loopback TCP ports free at the moment of asking, never the same one twice on a machine while the JVM that took it
 * runs. A port is free when handed out, but its process binds it a little later; in between, another test JVM (forked
 * beside this one) could be handed the same port. So each port taken is also held by a file lock under
 * {@code <tmpdir>/nim-llm-chart-ports/} until this JVM ends (the operating system releases it however the JVM ends),
 * and a port another JVM holds is skipped.
 */
public final class FreePort {

    private static final Path LOCK_DIR = Path.of(System.getProperty("java.io.tmpdir"), "nim-llm-chart-ports");
    /** The ports this JVM took, with the lock that keeps other JVMs off each. */
    private static final Map<Integer, FileLock> TAKEN = new HashMap<>();

    private FreePort() {
    }

    public static synchronized int take() {
        for (int attempt = 0; attempt < 50; attempt++) {
            int port;
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                port = socket.getLocalPort();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot find a free loopback port", e);
            }
            if (!TAKEN.containsKey(port)) {
                FileLock lock = lockAcrossJvms(port);
                if (lock != null) {
                    TAKEN.put(port, lock);
                    return port;
                }
            }
        }
        throw new IllegalStateException("no new free loopback port after 50 attempts");
    }

    /** The lock of this port's file, or null when another JVM holds it. */
    @SuppressWarnings("resource") // the channel stays open, holding the lock, until the JVM ends
    static FileLock lockAcrossJvms(int port) {
        try {
            Files.createDirectories(LOCK_DIR);
            FileChannel channel = FileChannel.open(LOCK_DIR.resolve(Integer.toString(port)), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            if (lock == null) {
                channel.close();
            }
            return lock;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock the port file of " + port + " under " + LOCK_DIR, e);
        }
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
