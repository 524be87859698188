package dev.nimchart.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;

/**
 * A lock one JVM of a machine holds at a time: a file lock the operating system releases when the JVM ends, however it
 * ends. Taking it waits for the JVM that holds it, saying so first. One JVM must not take it twice (a second file lock
 * of one JVM fails): a caller whose threads may race guards it with a lock of its own.
 *
 * @param channel the lock file, open for writing
 * @param lock    the operating system's lock on it
 */
public record MachineFileLock(FileChannel channel, FileLock lock) implements AutoCloseable {

    /** Takes the lock of {@code file}, waiting (after telling {@code progress} {@code waiting}) while another JVM holds it. */
    public static MachineFileLock take(Path file, String waiting, Consumer<String> progress) {
        try {
            Files.createDirectories(file.getParent());
            FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            if (lock == null) {
                progress.accept(waiting);
                lock = channel.lock();
            }
            return new MachineFileLock(channel, lock);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot take the machine lock " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
            channel.close();
        } catch (IOException ignored) {
            // the operating system releases the lock with the process anyway
        }
    }
}
